package components

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// The components that structure a page: steps, tabbed groups,
// accordions, frames, updates and file trees.

// titleSizes are the elements a step's title may be.
var titleSizes = []string{"p", "h2", "h3", "h4"}

// step draws a <Step>: its number (stepNumber, else its place), an icon
// in place of the number when it names one, its title as the element
// titleSize names, and, with an id, a link to itself unless noAnchor. A
// title drawn as a heading (h2, h3) carries the id, so that the step is
// in the table of contents; otherwise the step does.
func step(t *tag, l *Labels) (markup.HTML, markup.HTML) {
	icon := iconOf(t)
	id := strings.TrimSpace(t.attr("id"))
	titleTag := t.attr("titleSize")
	headingID := t.has("title") && (titleTag == "h2" || titleTag == "h3")
	var b markup.Builder
	b.Markup(`<li`)
	if icon.Empty() {
		b.Attr("class", "step")
	} else {
		b.Attr("class", "step step-with-icon")
	}
	if id != "" && !headingID {
		b.Attr("id", id)
	}
	if n, err := strconv.Atoi(t.attr("stepNumber")); err == nil && n >= 0 {
		b.Attr("data-step", strconv.Itoa(n))
	}
	b.Markup(`>`)
	if !icon.Empty() {
		b.Markup(`<span class="step-icon">`)
		b.HTML(icon)
		b.Markup(`</span>`)
	}
	if t.has("title") {
		openTitle, closeTitle := markup.Const(`<p class="step-title"`), markup.Const(`</p>`)
		switch titleTag {
		case "h2":
			openTitle, closeTitle = markup.Const(`<h2 class="step-title"`), markup.Const(`</h2>`)
		case "h3":
			openTitle, closeTitle = markup.Const(`<h3 class="step-title"`), markup.Const(`</h3>`)
		case "h4":
			openTitle, closeTitle = markup.Const(`<h4 class="step-title"`), markup.Const(`</h4>`)
		}
		b.HTML(openTitle)
		if id != "" && headingID {
			b.Attr("id", id)
		}
		b.Markup(`>`)
		b.HTML(t.text("title"))
		if id != "" && !t.flag("noAnchor") {
			b.Markup(`<a class="step-anchor" href="`)
			b.URL(markup.Fragment(id))
			b.Markup(`"`)
			b.Attr("aria-label", l.AnchorLink)
			b.Markup(`>`)
			b.HTML(Icon("link"))
			b.Markup(`</a>`)
		}
		b.HTML(closeTitle)
	}
	b.Markup(`<div class="step-body">`)
	return b.Fragment(), markup.Const(`</div></li>`)
}

// tabbed draws the components whose children app.js turns into a tab
// strip (every panel stays in the HTML, readable without script): Tabs,
// CodeGroup and the request and response examples. dropdown makes the
// strip a menu; a Tabs' defaultTabIndex picks the panel shown first,
// sync={false} keeps it out of the page's tab synchronisation, and
// borderBottom draws a line under it.
func tabbed(t *tag, l *Labels) (markup.HTML, markup.HTML) {
	var class, title string
	switch t.name {
	case "Tabs":
		class = "tabs"
		if t.flag("borderBottom") {
			class += " tabs-border"
		}
	case "CodeGroup":
		class = "code-group"
	case "RequestExample":
		class, title = "example example-request", l.RequestExample
	default:
		class, title = "example example-response", l.ResponseExample
	}
	dropdown := t.flag("dropdown")
	if dropdown {
		class += " tabs-dropdown"
	}
	var b markup.Builder
	b.Markup(`<div`)
	b.Attr("class", class)
	b.Markup(` data-tabs`)
	if dropdown {
		b.Markup(` data-dropdown`)
	}
	if t.name == "Tabs" {
		if n, err := strconv.Atoi(t.attr("defaultTabIndex")); err == nil && n > 0 {
			b.Attr("data-default", strconv.Itoa(n))
		}
		if t.attrs["sync"] == "false" {
			b.Markup(` data-sync="false"`)
		}
	}
	b.Markup(`>`)
	if title != "" {
		b.Markup(`<p class="example-title">`)
		b.Text(title)
		b.Markup(`</p>`)
	}
	return b.Fragment(), markup.Const(`</div>`)
}

// accordion draws an <Accordion> as a <details>: its icon, title and
// description in the summary, open when defaultOpen, with its id (the
// author's, or the one the preprocessor made from its title; app.js opens
// it when the address names it).
func accordion(t *tag) (markup.HTML, markup.HTML) {
	var b markup.Builder
	b.Markup(`<details class="accordion"`)
	if id := strings.TrimSpace(t.attr("id")); id != "" {
		b.Attr("id", id)
	}
	if t.flag("defaultOpen") {
		b.Markup(` open`)
	}
	b.Markup(`><summary>`)
	b.HTML(iconOf(t))
	if t.has("description") {
		b.Markup(`<span class="accordion-head"><span class="accordion-title">`)
		b.HTML(t.text("title"))
		b.Markup(`</span><span class="accordion-desc">`)
		b.HTML(t.text("description"))
		b.Markup(`</span></span>`)
	} else {
		b.HTML(t.text("title"))
	}
	b.Markup(`</summary><div class="details-body">`)
	return b.Fragment(), markup.Const(`</div></details>`)
}

// frame draws a <Frame>: its hint before it, its caption (with the
// inline Markdown the platform allows there) under what it frames.
func frame(t *tag) (markup.HTML, markup.HTML) {
	var b markup.Builder
	if t.has("hint") {
		b.Markup(`<p class="frame-hint">`)
		b.HTML(t.text("hint"))
		b.Markup(`</p>`)
	}
	b.Markup(`<figure class="frame">`)
	var c markup.Builder
	if h, ok := t.rich["caption"]; ok {
		c.Markup(`<figcaption>`)
		c.HTML(h)
		c.Markup(`</figcaption>`)
	} else if t.has("caption") {
		c.Markup(`<figcaption>`)
		inlineMarkdown(&c, t.attr("caption"), 0)
		c.Markup(`</figcaption>`)
	}
	c.Markup(`</figure>`)
	return b.Fragment(), c.Fragment()
}

// update draws an <Update>: its label (the anchor readers link to, and
// the entry of the contents list), its tags and description beside the
// entry.
func update(t *tag) (markup.HTML, markup.HTML) {
	var b markup.Builder
	b.Markup(`<section class="update"`)
	id := strings.TrimSpace(t.attr("id")) // the label's, by the heading rules (the preprocessor's)
	if id == "" {
		id = markup.Slug(t.attr("label"))
	}
	b.Attr("id", id)
	tags := labelList(t.attr("tags"))
	if len(tags) > 0 {
		// For the changelog's tag filters (app.js).
		data, _ := json.Marshal(tags) // strings always encode
		b.Attr("data-tags", string(data))
	}
	if rss := rssEntry(t.attr("rss")); rss != "" {
		b.Attr("data-rss", rss) // the changelog's feed reads it (machines.Feed)
	}
	b.Markup(`><div class="update-label">`)
	b.HTML(t.text("label"))
	b.Markup(`</div>`)
	if len(tags) > 0 {
		b.Markup(`<div class="update-tags">`)
		for _, tag := range tags {
			b.Markup(`<span class="update-tag">`)
			b.Text(tag)
			b.Markup(`</span>`)
		}
		b.Markup(`</div>`)
	}
	if t.has("description") {
		b.Markup(`<div class="update-desc">`)
		b.HTML(t.text("description"))
		b.Markup(`</div>`)
	}
	b.Markup(`<div class="update-body">`)
	return b.Fragment(), markup.Const(`</div></section>`)
}

// tree draws a file tree: folders open and close (unless openable is
// false), a highlighted file or folder is tinted in the tree's
// --tree-highlight colour.
func tree(t *tag) (markup.HTML, markup.HTML) {
	var b markup.Builder
	switch t.name {
	case "Tree.Folder":
		class := "tree-folder"
		if t.flag("highlight") {
			class += " tree-highlight"
		}
		b.Markup(`<li`)
		if t.attrs["openable"] == "false" {
			b.Attr("class", class+" tree-fixed")
			b.Markup(`><span class="tree-name">`)
			b.Text(t.attr("name"))
			b.Markup(`</span><ul>`)
			return b.Fragment(), markup.Const(`</ul></li>`)
		}
		b.Attr("class", class)
		b.Markup(`><details`)
		if t.flag("defaultOpen") {
			b.Markup(` open`)
		}
		b.Markup(`><summary>`)
		b.Text(t.attr("name"))
		b.Markup(`</summary><ul>`)
		return b.Fragment(), markup.Const(`</ul></details></li>`)
	case "Tree.File":
		b.Markup(`<li`)
		if t.flag("highlight") {
			b.Attr("class", "tree-file tree-highlight")
		} else {
			b.Attr("class", "tree-file")
		}
		b.Markup(`>`)
		b.Text(t.attr("name"))
		return b.Fragment(), markup.Const(`</li>`)
	}
	b.Markup(`<ul class="tree"`)
	if c, _ := treeStyle(t.attr("style")); c != "" {
		b.Attr("style", "--tree-highlight:"+c)
	}
	b.Markup(`>`)
	return b.Fragment(), markup.Const(`</ul>`)
}

// rssEntry is an update's rss prop ({"title": …, "description": …}) as
// JSON of those two strings, or "" when it gives neither.
func rssEntry(v string) string {
	var e struct {
		Title       string `json:"title,omitempty"`
		Description string `json:"description,omitempty"`
	}
	if json.Unmarshal([]byte(v), &e) != nil || e.Title == "" && e.Description == "" {
		return ""
	}
	out, _ := json.Marshal(e) // two strings always encode
	return string(out)
}

// treeStyle reads a Tree's style, an object ({"--tree-highlight": …})
// or CSS text: the highlight colour when it is a CSS colour, and
// whether the style sets anything else (which is not drawn).
func treeStyle(v string) (color string, other bool) {
	decl := map[string]string{}
	if json.Unmarshal([]byte(v), &decl) != nil {
		for _, d := range strings.Split(v, ";") {
			if k, val, ok := strings.Cut(d, ":"); ok {
				decl[strings.TrimSpace(k)] = strings.TrimSpace(val)
			} else if strings.TrimSpace(d) != "" {
				other = true
			}
		}
	}
	for k, val := range decl {
		if k == "--tree-highlight" && isCSSColor(val) {
			color = val
		} else {
			other = true
		}
	}
	return color, other
}
