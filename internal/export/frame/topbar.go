package frame

import (
	"strconv"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/uitext"
)

// banner renders the announcement of docs.json above the top bar, in
// the brand colour, amber (type warning), red (critical) or its own
// colours for each mode. Its Markdown links resolve like any link; in an air-gapped bundle remote
// content in it is replaced as in a page. app.js lets a reader dismiss a
// dismissible one.
func (f *Frame) banner(b *markup.Builder, bn *docsjson.Banner, prefix markup.Prefix, u uitext.Text) {
	if bn == nil || strings.TrimSpace(bn.Content) == "" {
		return
	}
	body := f.markdown(bn.Content, "index", prefix)
	if f.airGapped {
		body = f.offline("docs.json banner", prefix, body)
	}
	b.Markup(`<div`)
	switch {
	case bn.Color != nil:
		// Values docsjson checked as hex colours: safe in a style.
		b.Attr("class", "banner banner-custom")
		b.Attr("style", "--banner-light:"+bn.Color.Light+";--banner-dark:"+bn.Color.Dark)
	case bn.Type == "warning" || bn.Type == "critical":
		b.Attr("class", "banner banner-"+bn.Type)
	default:
		b.Attr("class", "banner")
	}
	b.Markup(` role="region"`)
	b.Attr("aria-label", u.T("announcement"))
	b.Markup(`><div class="banner-body">`)
	b.HTML(markup.Rendered(strings.TrimSpace(body.String()))) // trimming white space keeps it safe
	b.Markup(`</div>`)
	if bn.Dismissible {
		b.Markup(`<button class="banner-close" type="button"`)
		b.Attr("aria-label", u.T("dismiss"))
		b.Markup(`>×</button>`)
	}
	b.Markup(`</div>`)
}

// navbar renders the top bar links of docs.json; site-relative ones are
// resolved like any link.
func (f *Frame) navbar(b *markup.Builder, nb *docsjson.Navbar, prefix markup.Prefix, u uitext.Text) {
	links := nb.Links
	if p := nb.Primary; p != nil {
		links = append(links[:len(links):len(links)], *p)
	}
	if len(links) == 0 {
		return
	}
	b.Markup(`<nav class="navbar-links"`)
	b.Attr("aria-label", u.T("links"))
	b.Markup(`>`)
	for _, l := range links {
		f.siteLink(b, "navbar link", l, prefix)
	}
	b.Markup(`</nav>`)
}

// siteLink writes a link of the top bar or the footer; site-relative
// ones are resolved like any link.
func (f *Frame) siteLink(b *markup.Builder, where string, l docsjson.Link, prefix markup.Prefix) {
	label := l.Label
	if label == "" {
		label = siteName(l.Type)
	}
	if l.Href == "" || label == "" {
		return
	}
	href := f.configLink(where+" "+strconv.Quote(label), l.Href, prefix, true)
	if href.Empty() {
		return
	}
	b.Markup(`<a href="`)
	b.URL(href)
	b.Markup(`">`)
	b.HTML(f.linkIcon(l, where+" "+strconv.Quote(label), prefix)) // siteicons.go
	b.Text(label)
	b.Markup(`</a>`)
}
