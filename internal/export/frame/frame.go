package frame

import (
	"sync"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/site"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/uitext"
)

// Frame writes what surrounds every page of one export: the document
// head, the top bar, the division switchers and the sidebar (built once
// per section and depth), the banner, the footer, the eyebrow, the pager,
// a group's directory, and the pages made of the frame alone (not found,
// redirects). It is safe for concurrent use by the render workers once
// built.
//
// What concerns the icons and the sidebar lives on the two types it
// embeds, iconDrawer and navWriter, whose exported methods callers reach
// as Frame's; Frame itself keeps the page's layout.
type Frame struct {
	cfg       *docsjson.Config
	tree      *site.Tree
	byKey     map[string]*site.Page
	Order     map[string]int                            // position of each page in reading order
	target    func(from, ref string) (markup.URL, bool) // resolves a reference as the links of page from
	features  map[string]bool
	airGapped bool
	domain    string

	LogoLight, LogoDark, Favicon markup.URL // bundle paths relative to the root, empty when absent
	// specDownload is the spec file or archive the pages offer for
	// download (contextual option "download-spec"), empty when none.
	SpecDownload markup.URL

	// cspConnect are origins air-gapped pages may send requests to beyond
	// the bundle: the API playground's servers, when it is enabled.
	CSPConnect []string

	// CustomCSS are the .css files of the docs source, bundle paths from
	// the root, linked on every page after the site's own stylesheet (as
	// the platform includes every .css file of the content directory).
	CustomCSS []string
	// CustomJS are the .js files of the docs source, run on every page
	// after it is parsed (never in an air-gapped bundle).
	CustomJS []string

	// warn reports what the docs author should know; markdown renders a
	// docs.json text (the banner) as if written in the page key; offline
	// takes remote content out of markup of an air-gapped bundle.
	warn     func(format string, args ...any)
	markdown func(s, key string, prefix markup.Prefix) markup.HTML
	offline  func(file string, prefix markup.Prefix, h markup.HTML) markup.HTML

	chromes sync.Map // chromeKey -> markup.HTML

	// iconDrawer draws the icons of navigation entries and pages, and
	// after the last page their stylesheet and licences (icons.go:
	// FillIcons, IconCSS, IconLicenses reach callers as Frame's).
	*iconDrawer
	// navWriter writes the sidebar (sidebar.go), the division switchers
	// (switchers.go) and the scripts of large sidebars (bignav.go:
	// NavScripts reaches callers as Frame's).
	*navWriter
}

// drilldown reports docs.json's interaction.drilldown set to true: a
// reader selecting a nested group goes to its first page.
func (nw *navWriter) drilldown() bool {
	d := nw.cfg.Interaction.Drilldown
	return d != nil && *d
}

// PageUI is the interface language of page p.
func (f *Frame) PageUI(p *site.Page) uitext.Text { return f.UI(f.Section(p)) }

// UI is the interface language of the pages of section s.
func (f *Frame) UI(s *site.Division) uitext.Text {
	for d := s; d != nil; d = d.Parent {
		if d.Kind == "language" {
			return uitext.For(d.Lang)
		}
	}
	return uitext.For("en")
}
