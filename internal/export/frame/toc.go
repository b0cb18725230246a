package frame

import (
	"strconv"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/uitext"
)

// TOC renders the table of contents from a page's headings.
func TOC(b *markup.Builder, hs []mdx.Heading, u uitext.Text) {
	if len(hs) == 0 {
		b.Markup(`<aside class="toc"></aside>`)
		return
	}
	b.Markup(`<aside class="toc"`)
	b.Attr("aria-label", u.T("onThisPage"))
	b.Markup(`><p class="toc-title">`)
	b.Text(u.T("onThisPage"))
	b.Markup(`</p><ul>`)
	for _, h := range hs {
		b.Markup(`<li`)
		b.Attr("class", "toc-"+strconv.Itoa(h.Level))
		b.Markup(`><a href="`)
		b.URL(markup.Fragment(h.ID))
		b.Markup(`">`)
		b.Text(h.Text)
		b.Markup(`</a></li>`)
	}
	b.Markup(`</ul></aside>`)
}
