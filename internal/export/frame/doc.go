// Package frame writes what surrounds every page of an exported site:
// the document head with its Content-Security-Policy, the top bar, the
// division switchers and the sidebar (built once per section and depth),
// the banner, the footer, the eyebrow, the pager, a group's directory,
// the "Download API spec" link, the examples column of API pages, the
// icons of navigation entries and the icon slots pages leave, and the
// pages made of the frame alone (not found, redirects). A section whose
// sidebar passes bigNavBytes has it drawn once, as a script of the bundle
// that its pages load in place, with a fallback of the page's own group
// and the other groups' titles for readers without script (bignav.go).
//
// It reads the site model (site) and docs.json's settings, takes a page's
// headings and API examples as mdx found them, the policy from csp, the
// appearance from theme, icons from icons and texts from uitext, asks
// airgap what lies outside the bundle, and writes through markup. It does not render page content, make API pages,
// resolve links, read the source or write the bundle: the facade does,
// and hands it a link resolver, a Markdown renderer and the offliner as
// functions (Options). It never imports the facade, machines or
// apipages (depguard).
package frame
