package components

import (
	"strconv"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// callouts maps the callout components to their CSS modifier and the icon
// drawn in front of them.
var callouts = map[string]string{
	"Note": "note", "Info": "info", "Tip": "tip", "Warning": "warning",
	"Check": "check", "Danger": "danger", "Callout": "callout",
}

// renderComponent returns the HTML that opens and closes component t. The
// output never depends on anything but the tag, so pages render in
// parallel without shared state. Unknown components become a plain
// wrapper: their children still render and the page never breaks. l
// holds the texts the components write, in the page's language (nil:
// English).
func renderComponent(t *tag, l *Labels) (openHTML, closeHTML markup.HTML) {
	if l == nil {
		l = &EnglishLabels
	}
	if kind, ok := callouts[t.name]; ok {
		return callout(t, kind)
	}
	var b markup.Builder
	switch t.name {
	case "Steps":
		if s := t.attr("titleSize"); s != "" && s != "p" && oneOf(s, titleSizes) == "" {
			b.Markup(`<ol`)
			b.Attr("class", "steps steps-title-"+s)
			b.Markup(`>`)
			return b.Fragment(), markup.Const(`</ol>`)
		}
		return markup.Const(`<ol class="steps">`), markup.Const(`</ol>`)
	case "Step":
		return step(t, l)
	case "Tabs", "CodeGroup", "RequestExample", "ResponseExample":
		return tabbed(t, l)
	case "Tab":
		b.Markup(`<section class="tab-panel"`)
		if id := t.attr("id"); id != "" {
			b.Attr("id", id)
		}
		b.Attr("data-title", t.attr("title"))
		b.Markup(`><p class="tab-title">`)
		b.HTML(iconOf(t))
		b.HTML(t.text("title"))
		b.Markup(`</p>`)
		return b.Fragment(), markup.Const(`</section>`)
	case "CardGroup", "Columns":
		cols, err := strconv.Atoi(t.attr("cols"))
		if err != nil || cols < 1 || cols > 4 {
			cols = 2
		}
		b.Markup(`<div`)
		b.Attr("class", "card-group cols-"+strconv.Itoa(cols))
		b.Markup(`>`)
		return b.Fragment(), markup.Const(`</div>`)
	case "Card":
		return card(t)
	case "AccordionGroup":
		return markup.Const(`<div class="accordion-group">`), markup.Const(`</div>`)
	case "Expandable":
		return expandable(t, l)
	case "Accordion":
		return accordion(t)
	case "Frame":
		return frame(t)
	case "ParamField", "ResponseField":
		return field(t, l)
	case "Icon":
		return icon(t)
	case "Badge":
		return badge(t)
	case "Tooltip":
		return tooltip(t)
	case "Update":
		return update(t)
	case "Tree", "FileTree", "Tree.Folder", "Tree.File":
		return tree(t)
	}
	if o, c, ok := moreComponent(t, l); ok {
		return o, c
	}
	b.Markup(`<div class="component"`)
	b.Attr("data-component", t.name)
	b.Markup(`>`)
	return b.Fragment(), markup.Const(`</div>`)
}

// componentURL checks a URL attribute of a component: a reference with
// a scheme that is not allowed (javascript:, data:) is left out.
func componentURL(ref string) (markup.URL, bool) {
	u, err := markup.Parse(ref)
	return u, err == nil
}

func field(t *tag, l *Labels) (markup.HTML, markup.HTML) {
	name, where := "", ""
	for _, k := range []string{"path", "query", "body", "header", "cookie", "name"} {
		if v := t.attrs[k]; v != "" && v != "true" {
			name, where = v, k
			break
		}
	}
	var b markup.Builder
	id := markup.Slug("field-" + name)
	b.Markup(`<div class="field"`)
	b.Attr("id", id)
	b.Markup(`><div class="field-head">`)
	fieldLabels(&b, t.attr("pre"))
	b.Markup(`<code class="field-name">`)
	b.Text(name)
	b.Markup(`</code>`)
	fieldLabels(&b, t.attr("post"))
	if where != "" && where != "name" {
		b.Markup(`<span class="field-in">`)
		b.Text(where)
		b.Markup(`</span>`)
	}
	if ty := t.attr("type"); ty != "" {
		b.Markup(`<span class="field-type">`)
		b.Text(ty)
		b.Markup(`</span>`)
	}
	if t.flag("required") {
		b.Markup(`<span class="field-required">`)
		b.Text(l.Required)
		b.Markup(`</span>`)
	}
	if t.flag("deprecated") {
		b.Markup(`<span class="field-deprecated">`)
		b.Text(l.Deprecated)
		b.Markup(`</span>`)
	}
	if d := t.attr("default"); d != "" {
		b.Markup(`<span class="field-default">`)
		b.Text(l.Default + l.Colon)
		b.Markup(`<code>`)
		b.Text(d)
		b.Markup(`</code></span>`)
	}
	FieldAnchorIn(&b, id, name, *l)
	b.Markup(`</div><div class="field-body">`)
	return b.Fragment(), markup.Const(`</div></div>`)
}

// fieldLabels writes the labels a <ResponseField> shows before (pre) or
// after (post) its name.
func fieldLabels(b *markup.Builder, list string) {
	for _, l := range labelList(list) {
		b.Markup(`<span class="field-label">`)
		b.Text(l)
		b.Markup(`</span>`)
	}
}

// FieldAnchor writes the link icon of a parameter or property: a link to
// its own id, which app.js also copies on click.
func FieldAnchor(b *markup.Builder, id, name string) { FieldAnchorIn(b, id, name, EnglishLabels) }

// FieldAnchorIn is FieldAnchor with its accessible name in l's language.
func FieldAnchorIn(b *markup.Builder, id, name string, l Labels) {
	b.Markup(`<a class="field-anchor" href="`)
	b.URL(markup.Fragment(id))
	b.Markup(`"`)
	b.Attr("aria-label", strings.ReplaceAll(l.FieldLink, "{name}", name))
	b.Markup(`>`)
	b.HTML(Icon("link"))
	b.Markup(`</a>`)
}

// iconPaths are the export's own interface glyphs (callout kinds, field
// links) as inline SVG. The icons a page or docs.json names come from the
// site's icon library instead (iconOf, internal/export/icons).
var iconPaths = map[string]markup.HTML{
	"info":      markup.Const(`<circle cx="12" cy="12" r="9"/><path d="M12 11v5M12 8h.01"/>`),
	"lightbulb": markup.Const(`<path d="M9 18h6M10 21h4M12 3a6 6 0 0 0-4 10.5c.7.7 1 1.5 1 2.5h6c0-1 .3-1.8 1-2.5A6 6 0 0 0 12 3z"/>`),
	"warning":   markup.Const(`<path d="M12 3 2 20h20L12 3zM12 10v4M12 17h.01"/>`),
	"check":     markup.Const(`<path d="m5 12 5 5L20 7"/>`),
	"danger":    markup.Const(`<circle cx="12" cy="12" r="9"/><path d="m9 9 6 6m0-6-6 6"/>`),
	"x":         markup.Const(`<path d="m6 6 12 12M18 6 6 18"/>`),
	"book":      markup.Const(`<path d="M4 4h7a3 3 0 0 1 3 3v13a2 2 0 0 0-2-2H4zM20 4h-5a3 3 0 0 0-3 3"/>`),
	"rocket":    markup.Const(`<path d="M5 15c-1 1-2 4-2 6 2 0 5-1 6-2M9 15l-3-3c2-5 6-9 14-9 0 8-4 12-9 14z"/>`),
	"code":      markup.Const(`<path d="m8 8-5 4 5 4M16 8l5 4-5 4"/>`),
	"terminal":  markup.Const(`<path d="m4 7 5 5-5 5M12 19h8"/>`),
	"gear":      markup.Const(`<circle cx="12" cy="12" r="3"/><path d="M12 2v3M12 19v3M2 12h3M19 12h3M5 5l2 2M17 17l2 2M5 19l2-2M17 7l2-2"/>`),
	"star":      markup.Const(`<path d="m12 3 2.7 5.6 6.3.9-4.5 4.4 1 6.1-5.5-2.9L6.5 20l1-6.1L3 9.5l6.3-.9z"/>`),
	"arrow":     markup.Const(`<path d="M5 12h14M13 6l6 6-6 6"/>`),
	"dot":       markup.Const(`<circle cx="12" cy="12" r="4"/>`),
	"rss":       markup.Const(`<path d="M5 11a8 8 0 0 1 8 8M5 4a15 15 0 0 1 15 15"/><circle cx="6" cy="18" r="1.5"/>`),
	"link":      markup.Const(`<path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1"/>`),
}

var iconAliases = map[string]string{
	"circle-info": "info", "circle-check": "check", "triangle-exclamation": "warning",
	"circle-exclamation": "danger", "xmark": "x", "book-open": "book", "arrow-right": "arrow",
	"square-terminal": "terminal", "cog": "gear", "sliders": "gear",
}

// Icon draws one of the export's own glyphs as inline SVG; "" draws nothing.
func Icon(name string) markup.HTML {
	if name == "" {
		return markup.HTML{}
	}
	if a, ok := iconAliases[name]; ok {
		name = a
	}
	p, ok := iconPaths[name]
	if !ok {
		p = iconPaths["dot"]
	}
	return markup.Concat(markup.Const(`<svg class="i" viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">`),
		p, markup.Const(`</svg>`))
}
