package export

import (
	"embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
)

//go:embed assets/style.css assets/app.js assets/api.css assets/api.js assets/playground.js
var assets embed.FS

// The platform endpoints that the network features reach. They are only
// written into bundles whose kind and configuration allow them.
const (
	assistantPath = "/_assistant"
	analyticsPath = "/_analytics/event"
)

func (j *job) assistantURL() markup.URL {
	u, _ := markup.Parse("https://" + j.domain + assistantPath) // the domain was checked at the start
	return u
}

// finish writes the files shared by all pages and the manifest.
func (j *job) finish() (*bundle.Manifest, error) {
	j.logBroken()
	written := map[string]bool{bundle.ManifestName: true}
	for _, f := range j.files {
		written[f.Path] = true
	}
	gen := []struct {
		path string
		make func() ([]byte, error)
	}{
		{"index.html", j.indexRedirect},
		{"404.html", j.notFound},
		{"sitemap.xml", j.sitemap},
		{"_static/style.css", j.stylesheet},
		{"_static/app.js", func() ([]byte, error) { return assets.ReadFile("assets/app.js") }},
		{"_static/search-index.js", j.searchIndexJS},
	}
	for _, a := range j.apiAssets() {
		gen = append(gen, struct {
			path string
			make func() ([]byte, error)
		}{a[0], func() ([]byte, error) { return assets.ReadFile(a[1]) }})
	}
	if j.features["analytics"] {
		gen = append(gen, struct {
			path string
			make func() ([]byte, error)
		}{"_static/analytics.js", j.analyticsJS})
	}
	for _, g := range gen {
		if written[g.path] {
			continue // the source has its own index or 404 page
		}
		data, err := g.make()
		if err != nil {
			return nil, fmt.Errorf("generate %s: %w", g.path, err)
		}
		if err := j.writeFile(g.path, data); err != nil {
			return nil, err
		}
		written[g.path] = true
	}
	if err := j.redirects(written); err != nil {
		return nil, err
	}
	for _, a := range sortedKeys(j.link.assets) {
		if written[a] {
			j.warn("%s: the file would overwrite a generated file of the bundle; left out", a)
			continue
		}
		if err := j.copyFile(a); err != nil {
			return nil, err
		}
	}
	return j.writeManifest()
}

// writeManifest records every file with its hash; bundle.WriteManifest
// stamps the content version, a hash of that list, so it changes exactly
// when the site's content does.
func (j *job) writeManifest() (*bundle.Manifest, error) {
	m := &bundle.Manifest{
		Label:     j.req.Label,
		Domain:    j.domain,
		Kind:      string(j.kind),
		Features:  j.features,
		PageCount: len(j.pages),
		Files:     j.files,
	}
	if err := bundle.WriteManifest(j.outDir, m); err != nil {
		return nil, err
	}
	return m, nil
}

// indexRedirect sends visitors of the bundle root to the first page when
// the source has no index page.
func (j *job) indexRedirect() ([]byte, error) {
	first := j.pages[0].key
	switch {
	case j.tree.root != nil && j.tree.root.first != "":
		first = j.tree.root.first // honours a version marked default
	case len(j.tree.order) > 0:
		first = j.tree.order[0]
	}
	p := j.byKey[first]
	return j.redirectPage("index.html", markup.Path("", p.out, ""), p.title, j.link.canonicalURL("index", "")), nil
}

// redirectPage is a page at out that sends the reader to href (relative to
// the bundle root unless absolute). A meta refresh works from file:// too.
func (j *job) redirectPage(out string, href markup.URL, title string, canonical markup.URL) []byte {
	prefix := markup.RootPrefix(out)
	href = markup.Join(prefix, href)
	var b markup.Builder
	j.head(&b, j.cfg.Name, j.cfg.Description, canonical, prefix, false, markup.HTML{})
	// The refresh goes after the head so the early theme script still runs.
	b.Markup(`<meta http-equiv="refresh" content="0; url=`)
	b.URL(href)
	b.Markup(`"><main class="redirect"><p><a href="`)
	b.URL(href)
	b.Markup(`">`)
	b.Text(title)
	b.Markup(`</a></p></main></body></html>` + "\n")
	return []byte(b.String())
}

// redirects writes a redirect page for each docs.json redirect whose
// source is a plain path that no page or file of the bundle occupies.
// Patterns with wildcards have no static equivalent and are skipped.
func (j *job) redirects(written map[string]bool) error {
	for _, r := range j.cfg.Redirects {
		src, ok := cleanPagePath(strings.TrimSuffix(strings.TrimPrefix(r.Source, "/"), "/"))
		if !ok || strings.ContainsAny(src, ":*") {
			j.warn("docs.json: redirect %q has a pattern with no static equivalent; skipped", r.Source)
			continue
		}
		out := src + ".html"
		if written[out] {
			continue // a real page wins over a redirect
		}
		href, ok := j.link.target(src, r.Destination)
		if !ok && !hasScheme(r.Destination) {
			j.warn("docs.json: redirect %q goes to %q, which is not in the bundle; skipped", r.Source, r.Destination)
			continue
		}
		if !ok {
			u, err := markup.Parse(r.Destination)
			if err != nil {
				j.warn("docs.json: redirect %q: %v; skipped", r.Source, err)
				continue
			}
			href = u
		}
		if err := j.writeFile(out, j.redirectPage(out, href, r.Destination, markup.URL{})); err != nil {
			return err
		}
		written[out] = true
	}
	return nil
}

func (j *job) notFound() ([]byte, error) {
	var b markup.Builder
	j.head(&b, "Page not found - "+j.cfg.Name, "", markup.URL{}, "", true, markup.HTML{})
	b.HTML(j.chrome(j.firstSection(), ""))
	b.Markup(`<main id="content" class="main"><article class="page"><header class="page-head"><h1>Page not found</h1>` +
		`<p class="lead">The page you are looking for does not exist. Try the search above, or go to the <a href="index.html">start page</a>.</p></header></article>`)
	// The site's footer, as on every page: its links are a way back too.
	j.footer(&b, j.firstSection(), "")
	b.Markup(`</main><aside class="toc"></aside>`)
	tail(&b, "")
	return []byte(b.String()), nil
}

func (j *job) firstSection() *division {
	for _, s := range j.tree.sections {
		if s.first != "" {
			return s
		}
	}
	return nil
}

// sitemap lists the canonical, extensionless URLs of indexable pages.
func (j *job) sitemap() ([]byte, error) {
	var b markup.Builder
	b.Markup(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, p := range j.pages {
		if p.fm.Noindex || p.unlisted || p.key == "404" {
			continue
		}
		b.Markup("<url><loc>")
		b.URL(j.link.canonicalURL(p.key, ""))
		b.Markup("</loc></url>\n")
	}
	b.Markup("</urlset>\n")
	return []byte(b.String()), nil
}

func (j *job) analyticsJS() ([]byte, error) {
	endpoint, err := json.Marshal("https://" + j.domain + analyticsPath)
	if err != nil {
		return nil, err
	}
	// A beacon never blocks navigation and needs no response.
	return []byte(`(function(){try{navigator.sendBeacon(` + string(endpoint) +
		`,JSON.stringify({event:"pageview",path:location.pathname}))}catch(e){}})();` + "\n"), nil
}
