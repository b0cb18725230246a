package frame

import (
	"maps"
	"slices"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/site"
)

// Footer renders the site name, the social links (in name order, so the
// output is stable) and the link columns of the footer of section s.
func (f *Frame) Footer(b *markup.Builder, s *site.Division, prefix markup.Prefix) {
	ft := site.FooterOf(s, &f.cfg.Footer)
	b.Markup(`<footer class="footer"><span>`)
	b.Text(f.cfg.Name)
	b.Markup(`</span>`)
	for _, name := range slices.Sorted(maps.Keys(ft.Socials)) {
		href := ft.Socials[name]
		if markup.Scheme(href) == "" {
			continue // a social link is a URL of another site
		}
		u, err := markup.Parse(href)
		if err != nil {
			f.warn("docs.json: footer social %q: %v; left out", name, err)
			continue
		}
		b.Markup(` <a href="`)
		b.URL(u)
		b.Markup(`" rel="me">`)
		f.social(b, name) // siteicons.go
		b.Markup(`</a>`)
	}
	for _, col := range ft.Links {
		b.Markup(`<div class="footer-links">`)
		if col.Header != "" {
			b.Markup(`<p class="footer-header">`)
			b.Text(col.Header)
			b.Markup(`</p>`)
		}
		for _, l := range col.Items {
			f.siteLink(b, "footer link", l, prefix)
		}
		b.Markup(`</div>`)
	}
	b.Markup(`</footer>`)
}

// siteNames spells the social sites docs.json names by key.
var siteNames = map[string]string{"github": "GitHub", "x": "X", "linkedin": "LinkedIn", "youtube": "YouTube",
	"discord": "Discord", "slack": "Slack", "website": "Website", "x-twitter": "X", "hacker-news": "Hacker News"}

func siteName(key string) string {
	if n, ok := siteNames[key]; ok {
		return n
	}
	return site.TitleFromKey(key)
}
