package components

import (
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// The components that sit in a line of text or frame a short note:
// callouts, badges, icons and tooltips.

// calloutGlyphs are the export's own glyphs of the callout kinds, also
// the default icons of typed cards.
var calloutGlyphs = map[string]string{"note": "info", "info": "info", "tip": "lightbulb", "warning": "warning",
	"check": "check", "danger": "danger"}

func callout(t *tag, kind string) (markup.HTML, markup.HTML) {
	var b markup.Builder
	b.Markup(`<div`)
	b.Attr("class", "callout callout-"+kind)
	b.Markup(` role="note"`)
	if c := t.attr("color"); isCSSColor(c) {
		b.Attr("style", "--callout:"+c)
	}
	icon := iconOf(t) // an icon the page names, else the kind's own
	if icon.Empty() {
		icon = Icon(calloutGlyphs[kind])
	}
	b.Markup(`><span class="callout-icon">`)
	b.HTML(icon)
	b.Markup(`</span><div class="callout-body">`)
	return b.Fragment(), markup.Const(`</div></div>`)
}

// badgeColors are the colours a <Badge> takes; gray is its default.
var badgeColors = []string{"gray", "blue", "green", "yellow", "orange", "red", "purple", "white", "surface",
	"white-destructive", "surface-destructive"}

// badge draws a <Badge> as the platform's page shows it: a colour, a
// size and a shape (gray, md and rounded unless the page says), filled
// or outlined (stroke), dimmed when disabled, with the page's own
// classes last. A value the platform does not take draws the default
// (Unrendered names it).
func badge(t *tag) (markup.HTML, markup.HTML) {
	class := []string{"badge"}
	for _, p := range []struct {
		prop string
		ok   []string
	}{{"color", badgeColors}, {"size", []string{"xs", "sm", "lg"}}, {"shape", []string{"pill"}}} {
		if v := t.attr(p.prop); oneOf(v, p.ok) == "" {
			class = append(class, "badge-"+v)
		}
	}
	if t.flag("stroke") {
		class = append(class, "badge-stroke")
	}
	if t.flag("disabled") {
		class = append(class, "badge-disabled")
	}
	var b markup.Builder
	b.Markup(`<span`)
	b.Attr("class", withClassName(t, class...))
	if t.flag("disabled") {
		b.Markup(` aria-disabled="true"`)
	}
	b.Markup(`>`)
	b.HTML(iconOf(t))
	return b.Fragment(), markup.Const(`</span>`)
}

// withClassName joins the export's classes of a component with the ones
// the page gives it in className (which the site's stylesheet may
// define: custom CSS, Tailwind utilities).
func withClassName(t *tag, class ...string) string {
	if c := strings.Join(strings.Fields(t.attr("className")), " "); c != "" {
		class = append(class, c)
	}
	return strings.Join(class, " ")
}

func icon(t *tag) (markup.HTML, markup.HTML) {
	var b markup.Builder
	b.Markup(`<span`)
	b.Attr("class", withClassName(t, "icon"))
	style := iconSize(t)
	if c := t.attr("color"); isCSSColor(c) {
		style = strings.TrimPrefix(style+";color:"+c, ";")
	}
	if style != "" {
		b.Attr("style", style)
	}
	b.Markup(` role="img"`)
	b.Attr("aria-label", t.attr("icon"))
	b.Markup(`>`)
	b.HTML(iconOf(t))
	return b.Fragment(), markup.Const(`</span>`)
}

// tooltip draws the text a <Tooltip> wraps and, after it, the tip the
// reader sees on hover or focus: its headline, its text and its
// call-to-action link. CSS shows them from attributes, so the tip works
// without script and stays out of the text of the line (a heading's id,
// the search index).
func tooltip(t *tag) (markup.HTML, markup.HTML) {
	var c markup.Builder
	c.Markup(`<span class="tooltip-tip" role="tooltip"`)
	if h := t.attr("headline"); h != "" {
		c.Attr("data-headline", h)
	}
	c.Attr("data-tip", t.attr("tip"))
	c.Markup(`>`)
	if u, ok := componentURL(t.attr("href")); ok && t.attr("href") != "" {
		c.Markup(`<a class="tooltip-cta" href="`)
		c.URL(u)
		c.Markup(`"`)
		c.Attr("aria-label", t.attr("cta", "href"))
		c.Markup(`></a>`)
	}
	c.Markup(`</span></span>`)
	return markup.Const(`<span class="tooltip" tabindex="0">`), c.Fragment()
}
