package frame

import (
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/site"
)

// Eyebrow writes the line above a page's title that styling.eyebrows asks
// for: the page's group ("section") or its whole path ("breadcrumbs").
func (f *Frame) Eyebrow(b *markup.Builder, p *site.Page) {
	path := f.tree.Crumbs[p.Key]
	if len(path) == 0 {
		return
	}
	switch f.cfg.Styling.Eyebrows {
	case "section":
		b.Markup(`<p class="eyebrow">`)
		b.Text(path[len(path)-1])
		b.Markup(`</p>`)
	case "breadcrumbs":
		b.Markup(`<nav class="eyebrow breadcrumbs"`)
		b.Attr("aria-label", f.UI(f.Section(p)).T("breadcrumb"))
		b.Markup(`><ol>`)
		for _, l := range path {
			b.Markup(`<li>`)
			b.Text(l)
			b.Markup(`</li>`)
		}
		b.Markup(`</ol></nav>`)
	}
}
