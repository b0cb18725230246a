package components

import (
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// card draws a <Card>: an image on top, an icon (in the page's colour),
// the title, linked when the card has an href (the link covers the card
// through CSS, so its body may hold links of its own without nesting
// <a> elements), an arrow for a link that leaves the site or when the
// page asks, and a call to action under the body. A typed card takes a
// callout's colours and, without an icon of its own, the callout's.
func card(t *tag) (markup.HTML, markup.HTML) {
	class := []string{"card"}
	kind := t.attr("type")
	typed := oneOf(kind, []string{"info", "warning", "note", "tip", "check", "danger"}) == "" && kind != ""
	if typed {
		class = append(class, "card-typed", "callout-"+kind)
	}
	if t.flag("horizontal") {
		class = append(class, "card-horizontal")
	}
	var b markup.Builder
	b.Markup(`<div`)
	b.Attr("class", withClassName(t, class...))
	b.Markup(`>`)
	if img := t.attr("img"); img != "" {
		if u, ok := componentURL(img); ok {
			b.Markup(`<img class="card-img" src="`)
			b.URL(u)
			b.Markup(`" alt="">`)
		}
	}
	icon := iconOf(t)
	if icon.Empty() && typed {
		icon = Icon(calloutGlyphs[kind])
	}
	if !icon.Empty() {
		b.Markup(`<span class="card-icon"`)
		if c := t.attr("color"); isCSSColor(c) {
			b.Attr("style", "color:"+c)
		}
		b.Markup(`>`)
		b.HTML(icon)
		b.Markup(`</span>`)
	}
	href := t.attr("href")
	u, linked := componentURL(href)
	linked = linked && href != ""
	if linked {
		b.Markup(`<a class="card-title card-link" href="`)
		b.URL(u)
		b.Markup(`">`)
		b.HTML(t.text("title"))
		b.Markup(`</a>`)
		// The platform draws the arrow on links that leave the site
		// unless arrow says otherwise.
		external := markup.Scheme(href) != "" || strings.HasPrefix(href, "//")
		if a, set := t.attrs["arrow"]; set && a != "false" || !set && external {
			b.Markup(`<span class="card-arrow" aria-hidden="true">`)
			b.HTML(Icon("arrow"))
			b.Markup(`</span>`)
		}
	} else if t.has("title") {
		b.Markup(`<p class="card-title">`)
		b.HTML(t.text("title"))
		b.Markup(`</p>`)
	}
	b.Markup(`<div class="card-body">`)
	if !linked || !t.has("cta") {
		return b.Fragment(), markup.Const(`</div></div>`)
	}
	var c markup.Builder
	c.Markup(`</div><span class="card-cta">`)
	c.HTML(t.text("cta"))
	c.Markup(`</span></div>`)
	return b.Fragment(), c.Fragment()
}
