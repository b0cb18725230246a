package export

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/theme"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
)

//go:embed assets/style.css assets/app.js assets/search.js assets/api.css assets/api.js assets/playground.js
var assets embed.FS

// analyticsPath is the platform endpoint analytics.js reports to, only
// written into bundles whose kind and configuration allow it (the
// assistant's is the frame's).
const analyticsPath = "/_analytics/event"

// finish writes the files shared by all pages and the manifest.
func (j *pipeline) finish(ctx context.Context) (*bundle.Manifest, error) {
	j.logBroken()
	written := map[string]bool{bundle.ManifestName: true}
	for _, f := range j.out.files {
		written[f.Path] = true
	}
	for _, css := range append(j.frame.CustomCSS, j.frame.CustomJS...) {
		if !written[css] { // a page may have linked it already
			if err := j.copyFile(css); err != nil {
				return nil, err
			}
			written[css] = true
		}
	}
	gen := []struct {
		path string
		make func() ([]byte, error)
	}{
		{"index.html", j.indexRedirect},
		{"404.html", j.frame.NotFound},
		{"sitemap.xml", j.mach.Sitemap},
		{"robots.txt", j.mach.RobotsTxt},
		{"llms.txt", j.mach.LLMsTxt},
		{"llms-full.txt", nil}, // streamed by writeLLMsFull
		{"_static/style.css", func() ([]byte, error) {
			base, err := assets.ReadFile("assets/style.css")
			// Written after every page and the 404 page (above): the
			// drawings of the icons they show, once for the site.
			return append(append(theme.Stylesheet(j.cfg, base, j.warnings.as(WarnConfig)), j.frame.IconCSS()...), j.tailwindCSS()...), err
		}},
		{"_static/app.js", func() ([]byte, error) { return assets.ReadFile("assets/app.js") }},
		{"_static/search.js", func() ([]byte, error) { return assets.ReadFile("assets/search.js") }},
	}
	for _, a := range j.apiAssets() {
		gen = append(gen, struct {
			path string
			make func() ([]byte, error)
		}{a[0], func() ([]byte, error) { return assets.ReadFile(a[1]) }})
	}
	for _, a := range slices.Concat(j.diag.assets(), j.math.assets(), j.cards.assets()) {
		gen = append(gen, struct {
			path string
			make func() ([]byte, error)
		}{a.path, a.make})
	}
	if len(j.specFiles) > 0 {
		gen = append(gen, struct {
			path string
			make func() ([]byte, error)
		}{specArchive, j.specZip})
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
		if j.mach.OwnMachineFile(g.path) {
			// The source's own llms.txt or robots.txt wins, as on the platform.
			if err := j.copyFile(g.path); err != nil {
				return nil, err
			}
			written[g.path] = true
			delete(j.link.assets, g.path)
			continue
		}
		if g.make == nil {
			if err := j.writeLLMsFull(g.path); err != nil {
				return nil, err
			}
			written[g.path] = true
			continue
		}
		data, err := g.make()
		if err != nil {
			return nil, fmt.Errorf("generate %s: %w", g.path, err)
		}
		if err := j.out.write(g.path, data); err != nil {
			return nil, err
		}
		written[g.path] = true
	}
	if err := j.writeSearch(written); err != nil {
		return nil, err
	}
	if err := j.frame.IconLicenses(j.out.write, written); err != nil {
		return nil, err
	}
	if err := j.frame.NavScripts(j.out.write, written); err != nil {
		return nil, err
	}
	if err := j.redirects(written); err != nil {
		return nil, err
	}
	for _, a := range sortedKeys(j.link.assets) {
		if written[a] {
			j.warnings.add(WarnContent, "%s: the file would overwrite a generated file of the bundle; left out", a)
			continue
		}
		if err := j.copyFile(a); err != nil {
			return nil, err
		}
	}
	return j.writeManifest(ctx)
}

// writeManifest records every file with its hash; bundle.WriteManifest
// stamps the content version, a hash of that list, so it changes exactly
// when the site's content does.
func (j *pipeline) writeManifest(ctx context.Context) (*bundle.Manifest, error) {
	if err := j.settleCarried(ctx); err != nil {
		return nil, err
	}
	m := &bundle.Manifest{
		Label:     j.req.Label,
		Domain:    j.domain,
		Kind:      string(j.kind),
		Features:  j.features,
		PageCount: len(j.pages),
		Files:     j.out.files,
	}
	if err := j.out.to.WriteManifest(m); err != nil {
		return nil, err
	}
	if err := j.writeRecord(m.Files); err != nil {
		return nil, err
	}
	return m, nil
}

// indexRedirect sends visitors of the bundle root to the first page when
// the source has no index page.
func (j *pipeline) indexRedirect() ([]byte, error) {
	first := j.pages[0].Key
	switch {
	case j.tree.Root != nil && j.tree.Root.First != "":
		first = j.tree.Root.First // honours a version marked default
	case len(j.tree.Order) > 0:
		first = j.tree.Order[0]
	}
	p := j.byKey[first]
	return j.frame.RedirectPage("index.html", markup.Path("", p.Out, ""), p.Title, j.link.canonicalURL("index", "")), nil
}

// redirectSources maps the page key of each plain redirect source to its
// destination; patterns have no key.
func redirectSources(rs []docsjson.Redirect, base string) map[string]string {
	out := map[string]string{}
	for _, r := range rs {
		src, ok := redirectKey(r.Source, base)
		if ok && r.Destination != "" {
			if _, dup := out[src]; !dup { // the first rule for a path wins
				out[src] = r.Destination
			}
		}
	}
	return out
}

// redirectKey is the page key of a plain redirect source, false for a
// pattern. A source written with the live site's base path names the
// page the same path without it names.
func redirectKey(source, base string) (string, bool) {
	src, ok := docsjson.CleanPagePath(strings.TrimSuffix(strings.TrimPrefix(source, "/"), "/"))
	if !ok || strings.ContainsAny(src, ":*") {
		return "", false
	}
	if q, ok := unbased(src, base); ok {
		if q == "" {
			q = "index"
		}
		return q, true
	}
	return src, true
}

// redirects writes a redirect page for each docs.json redirect whose
// source is a plain path that no page or file of the bundle occupies,
// and for each page of the bundle that a wildcard redirect's destination
// names (redirectPattern), at the path its source gives that page.
func (j *pipeline) redirects(written map[string]bool) error {
	for _, r := range j.cfg.Redirects {
		src, ok := redirectKey(r.Source, j.base)
		if !ok {
			if !strings.ContainsAny(r.Source, ":*") {
				j.warnings.add(WarnRedirect, "docs.json: redirect %q is not a path of the site; skipped", r.Source)
			}
			continue
		}
		out := src + ".html"
		if written[out] {
			continue // a real page wins over a redirect
		}
		href, ok := j.link.target(src, r.Destination)
		if !ok && !hasScheme(r.Destination) {
			j.warnings.add(WarnRedirect, "docs.json: redirect %q goes to %q, which is not in the bundle; skipped", r.Source, r.Destination)
			continue
		}
		if !ok {
			u, err := markup.Parse(r.Destination)
			if err != nil {
				j.warnings.add(WarnRedirect, "docs.json: redirect %q: %v; skipped", r.Source, err)
				continue
			}
			href = u
		}
		if err := j.out.write(out, j.frame.RedirectPage(out, href, r.Destination, markup.URL{})); err != nil {
			return err
		}
		written[out] = true
	}
	return j.patternRedirects(written)
}

// patternRedirects writes the redirect pages of the wildcard redirects:
// the first pattern to give a path wins, as the first rule does on the
// live site, and a real page or file always wins over a redirect.
func (j *pipeline) patternRedirects(written map[string]bool) error {
	for _, rp := range j.link.patterns {
		for _, p := range j.pages {
			src, ok := rp.sourceOf(p.Key)
			if !ok {
				continue
			}
			if _, clean := docsjson.CleanPagePath(src); !clean {
				continue
			}
			out := src + ".html"
			if written[out] || j.link.all[src] != "" {
				continue
			}
			href, ok := j.link.target(src, "/"+p.Key)
			if !ok {
				continue
			}
			if err := j.out.write(out, j.frame.RedirectPage(out, href, "/"+p.Key, markup.URL{})); err != nil {
				return err
			}
			written[out] = true
		}
	}
	return nil
}

func (j *pipeline) analyticsJS() ([]byte, error) {
	endpoint, err := json.Marshal("https://" + j.domain + analyticsPath)
	if err != nil {
		return nil, err
	}
	// A beacon never blocks navigation and needs no response.
	return []byte(`(function(){try{navigator.sendBeacon(` + string(endpoint) +
		`,JSON.stringify({event:"pageview",path:location.pathname}))}catch(e){}})();` + "\n"), nil
}
