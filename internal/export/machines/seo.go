package machines

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/site"
)

// Noindex reports a page search engines and the files machines read
// (sitemap.xml, llms.txt, llms-full.txt) leave out: its frontmatter says
// Noindex, a robots meta tag says so, or it is outside the navigation
// (unlisted or hidden) and seo.indexing is not "all".
func (j *Files) Noindex(p *site.Page) bool {
	if p.FM.Noindex || p.Key == "404" {
		return true
	}
	if robots := j.metaTags(p)["robots"]; strings.Contains(strings.ToLower(robots), "noindex") {
		return true
	}
	return !j.cfg.SEO.IndexAll() && (p.Unlisted || p.FM.Hidden)
}

// metaTags are the page's meta tags by name: seo.metatags of docs.json,
// then the frontmatter's, which win. From the frontmatter, the og: and
// twitter: keys count, "robots" and "keywords", and any key docs.json
// also sets.
func (j *Files) metaTags(p *site.Page) map[string]string {
	out := make(map[string]string, len(j.cfg.SEO.Metatags)+len(p.FM.Extra))
	for k, v := range j.cfg.SEO.Metatags {
		out[k] = v
	}
	for k, v := range p.FM.Extra {
		_, global := j.cfg.SEO.Metatags[k]
		if !global && !strings.HasPrefix(k, "og:") && !strings.HasPrefix(k, "twitter:") && k != "robots" && k != "keywords" {
			continue
		}
		switch t := v.(type) {
		case string, int, float64, bool:
			out[k] = fmt.Sprint(t)
		case []any: // keywords: [a, b]
			var parts []string
			for _, e := range t {
				if s, ok := e.(string); ok {
					parts = append(parts, s)
				}
			}
			if len(parts) > 0 {
				out[k] = strings.Join(parts, ", ")
			}
		}
	}
	return out
}

// MetaHTML writes the page's meta tags in name order, so output is
// stable. og: tags are properties, as Open Graph defines them. A page
// kept from search engines gets its robots tag from head, so a robots
// tag of the settings is not written twice.
func (j *Files) MetaHTML(p *site.Page, noindex bool) markup.HTML {
	tags := j.metaTags(p)
	var b markup.Builder
	for _, k := range slices.Sorted(maps.Keys(tags)) {
		if k == "robots" && noindex {
			continue
		}
		b.Markup(`<meta`)
		if strings.HasPrefix(k, "og:") {
			b.Attr("property", k)
		} else {
			b.Attr("name", k)
		}
		b.Attr("content", tags[k])
		b.Markup(`>`)
	}
	return b.Fragment()
}

// RobotsTxt allows every crawler and names the sitemap by its canonical
// address; pages kept out carry their own robots meta tag, which is what
// keeps them from an index (a Disallow would hide that tag).
func (j *Files) RobotsTxt() ([]byte, error) {
	sitemap := j.canonical("index") + "sitemap.xml"
	return []byte("User-agent: *\nAllow: /\n\nSitemap: " + sitemap + "\n"), nil
}

// Sitemap lists the canonical, extensionless URLs of indexable pages.
func (j *Files) Sitemap() ([]byte, error) {
	var b markup.Builder
	b.Markup(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, p := range j.pages {
		if j.Noindex(p) {
			continue
		}
		b.Markup("<url><loc>")
		b.URL(j.canonicalURL(p.Key, ""))
		b.Markup("</loc></url>\n")
	}
	b.Markup("</urlset>\n")
	return []byte(b.String()), nil
}
