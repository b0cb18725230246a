package export

import (
	"html"
	"strconv"
	"strings"
)

// esc escapes attribute and text values coming from the source.
var esc = html.EscapeString

// callouts maps the callout components to their CSS modifier and the icon
// drawn in front of them.
var callouts = map[string]string{
	"Note": "note", "Info": "info", "Tip": "tip", "Warning": "warning",
	"Check": "check", "Danger": "danger", "Callout": "callout",
}

// renderComponent returns the HTML that opens and closes component t. The
// output never depends on anything but the tag, so pages render in
// parallel without shared state. Unknown components become a plain
// wrapper: their children still render and the page never breaks.
func renderComponent(t *jsxTag) (openHTML, closeHTML string) {
	if kind, ok := callouts[t.name]; ok {
		style := ""
		if c := t.attr("color"); c != "" {
			style = ` style="--callout:` + esc(c) + `"`
		}
		icon := map[string]string{"note": "info", "info": "info", "tip": "lightbulb", "warning": "warning",
			"check": "check", "danger": "danger", "callout": t.attr("icon")}[kind]
		return `<div class="callout callout-` + kind + `" role="note"` + style + `><span class="callout-icon">` +
			iconSVG(icon) + `</span><div class="callout-body">`, `</div></div>`
	}
	switch t.name {
	case "Steps":
		return `<ol class="steps">`, `</ol>`
	case "Step":
		head := ""
		if s := t.attr("title"); s != "" {
			head = `<p class="step-title">` + esc(s) + `</p>`
		}
		return `<li class="step">` + head + `<div class="step-body">`, `</div></li>`
	case "Tabs":
		return `<div class="tabs" data-tabs>`, `</div>`
	case "Tab":
		title := t.attr("title")
		return `<section class="tab-panel" data-title="` + esc(title) + `"><p class="tab-title">` + esc(title) + `</p>`, `</section>`
	case "CodeGroup":
		return `<div class="code-group" data-tabs>`, `</div>`
	case "CardGroup", "Columns":
		cols, err := strconv.Atoi(t.attr("cols"))
		if err != nil || cols < 1 || cols > 4 {
			cols = 2
		}
		return `<div class="card-group cols-` + strconv.Itoa(cols) + `">`, `</div>`
	case "Card":
		return card(t)
	case "AccordionGroup":
		return `<div class="accordion-group">`, `</div>`
	case "Accordion", "Expandable":
		open := ""
		if t.flag("defaultOpen") {
			open = " open"
		}
		title := t.attr("title")
		if title == "" && t.name == "Expandable" {
			title = "properties"
		}
		return `<details class="` + strings.ToLower(t.name) + `"` + open + `><summary>` + iconSVG(t.attr("icon")) + esc(title) +
			`</summary><div class="details-body">`, `</div></details>`
	case "Frame":
		caption := ""
		if c := t.attr("caption"); c != "" {
			caption = `<figcaption>` + esc(c) + `</figcaption>`
		}
		return `<figure class="frame">`, caption + `</figure>`
	case "ParamField", "ResponseField":
		return field(t)
	case "Icon":
		style := ""
		if c := t.attr("color"); c != "" {
			style = ` style="color:` + esc(c) + `"`
		}
		return `<span class="icon"` + style + ` role="img" aria-label="` + esc(t.attr("icon")) + `">` + iconSVG(t.attr("icon")), `</span>`
	case "Badge":
		return `<span class="badge">`, `</span>`
	case "Tooltip":
		return `<span class="tooltip" title="` + esc(t.attr("tip")) + `" tabindex="0">`, `</span>`
	case "Update":
		head := `<div class="update-label">` + esc(t.attr("label")) + `</div>`
		if d := t.attr("description"); d != "" {
			head += `<div class="update-desc">` + esc(d) + `</div>`
		}
		return `<section class="update" id="` + esc(slug(t.attr("label"))) + `">` + head + `<div class="update-body">`, `</div></section>`
	case "RequestExample", "ResponseExample":
		label := strings.TrimSuffix(t.name, "Example")
		return `<div class="example example-` + strings.ToLower(label) + `"><p class="example-title">` + label + ` example</p>`, `</div>`
	case "Tree":
		return `<ul class="tree">`, `</ul>`
	case "Tree.Folder":
		open := ""
		if t.flag("defaultOpen") {
			open = " open"
		}
		return `<li class="tree-folder"><details` + open + `><summary>` + esc(t.attr("name")) + `</summary><ul>`, `</ul></details></li>`
	case "Tree.File":
		return `<li class="tree-file">` + esc(t.attr("name")), `</li>`
	}
	return `<div class="component" data-component="` + esc(t.name) + `">`, `</div>`
}

func card(t *jsxTag) (string, string) {
	var b strings.Builder
	b.WriteString(`<div class="card">`)
	if img := t.attr("img"); img != "" {
		b.WriteString(`<img class="card-img" src="` + esc(img) + `" alt="">`)
	}
	if icon := t.attr("icon"); icon != "" {
		b.WriteString(`<span class="card-icon">` + iconSVG(icon) + `</span>`)
	}
	title := esc(t.attr("title"))
	if href := t.attr("href"); href != "" {
		// The link covers the card through CSS, so the card body may still
		// hold links of its own without nesting <a> elements.
		b.WriteString(`<a class="card-title card-link" href="` + esc(href) + `">` + title + `</a>`)
	} else if title != "" {
		b.WriteString(`<p class="card-title">` + title + `</p>`)
	}
	b.WriteString(`<div class="card-body">`)
	return b.String(), `</div></div>`
}

func field(t *jsxTag) (string, string) {
	name, where := "", ""
	for _, k := range []string{"path", "query", "body", "header", "cookie", "name"} {
		if v := t.attrs[k]; v != "" && v != "true" {
			name, where = v, k
			break
		}
	}
	var b strings.Builder
	id := esc(slug("field-" + name))
	b.WriteString(`<div class="field" id="` + id + `"><div class="field-head"><code class="field-name">` + esc(name) + `</code>`)
	if where != "" && where != "name" {
		b.WriteString(`<span class="field-in">` + where + `</span>`)
	}
	if ty := t.attr("type"); ty != "" {
		b.WriteString(`<span class="field-type">` + esc(ty) + `</span>`)
	}
	if t.flag("required") {
		b.WriteString(`<span class="field-required">required</span>`)
	}
	if t.flag("deprecated") {
		b.WriteString(`<span class="field-deprecated">deprecated</span>`)
	}
	if d := t.attr("default"); d != "" {
		b.WriteString(`<span class="field-default">default: <code>` + esc(d) + `</code></span>`)
	}
	b.WriteString(fieldAnchor(id, name) + `</div><div class="field-body">`)
	return b.String(), `</div></div>`
}

// fieldAnchor is the link icon of a parameter or property: a link to its
// own id (an already escaped one), which app.js also copies on click.
func fieldAnchor(id, name string) string {
	return `<a class="field-anchor" href="#` + id + `" aria-label="Link to ` + esc(name) + `">` + iconSVG("link") + `</a>`
}

// slug makes an id from a label the way heading anchors look.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

// iconPaths draws the icons docs use most as inline SVG: an icon font would
// have to be fetched from a CDN, which a bundle must never do. Names not
// listed fall back to a neutral dot.
var iconPaths = map[string]string{
	"info":      `<circle cx="12" cy="12" r="9"/><path d="M12 11v5M12 8h.01"/>`,
	"lightbulb": `<path d="M9 18h6M10 21h4M12 3a6 6 0 0 0-4 10.5c.7.7 1 1.5 1 2.5h6c0-1 .3-1.8 1-2.5A6 6 0 0 0 12 3z"/>`,
	"warning":   `<path d="M12 3 2 20h20L12 3zM12 10v4M12 17h.01"/>`,
	"check":     `<path d="m5 12 5 5L20 7"/>`,
	"danger":    `<circle cx="12" cy="12" r="9"/><path d="m9 9 6 6m0-6-6 6"/>`,
	"x":         `<path d="m6 6 12 12M18 6 6 18"/>`,
	"book":      `<path d="M4 4h7a3 3 0 0 1 3 3v13a2 2 0 0 0-2-2H4zM20 4h-5a3 3 0 0 0-3 3"/>`,
	"rocket":    `<path d="M5 15c-1 1-2 4-2 6 2 0 5-1 6-2M9 15l-3-3c2-5 6-9 14-9 0 8-4 12-9 14z"/>`,
	"code":      `<path d="m8 8-5 4 5 4M16 8l5 4-5 4"/>`,
	"terminal":  `<path d="m4 7 5 5-5 5M12 19h8"/>`,
	"gear":      `<circle cx="12" cy="12" r="3"/><path d="M12 2v3M12 19v3M2 12h3M19 12h3M5 5l2 2M17 17l2 2M5 19l2-2M17 7l2-2"/>`,
	"star":      `<path d="m12 3 2.7 5.6 6.3.9-4.5 4.4 1 6.1-5.5-2.9L6.5 20l1-6.1L3 9.5l6.3-.9z"/>`,
	"arrow":     `<path d="M5 12h14M13 6l6 6-6 6"/>`,
	"dot":       `<circle cx="12" cy="12" r="4"/>`,
	"link":      `<path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1"/>`,
}

var iconAliases = map[string]string{
	"circle-info": "info", "circle-check": "check", "triangle-exclamation": "warning",
	"circle-exclamation": "danger", "xmark": "x", "book-open": "book", "arrow-right": "arrow",
	"square-terminal": "terminal", "cog": "gear", "sliders": "gear",
}

func iconSVG(name string) string {
	if name == "" {
		return ""
	}
	if a, ok := iconAliases[name]; ok {
		name = a
	}
	p, ok := iconPaths[name]
	if !ok {
		p = iconPaths["dot"]
	}
	return `<svg class="i" viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">` + p + `</svg>`
}
