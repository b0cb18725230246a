package machines

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"

	"golang.org/x/net/html"
)

// A page with <Update> components is a changelog, and it has an RSS feed
// at its address with /rss.xml appended (create/changelogs.mdx). Each
// update is one entry, or one per Markdown heading in it; an update's rss
// prop replaces its entries with one of its own title and description.
// An entry's text is the update's prose as plain text: components, code
// and HTML are left out, as on the platform. The feed has no build date,
// so the same source gives the same bytes.

// FeedOut is where the feed of the page written to htmlOut goes:
// "changelog.html" has "changelog/rss.xml", an index page the feed of its
// folder ("index.html": "rss.xml", "guides/index.html": "guides/rss.xml").
func FeedOut(htmlOut string) string {
	base := strings.TrimSuffix(htmlOut, ".html")
	if base == "index" {
		return "rss.xml"
	}
	if dir, ok := strings.CutSuffix(base, "/index"); ok {
		return dir + "/rss.xml"
	}
	return base + "/rss.xml"
}

// feedItem is one entry of a feed.
type feedItem struct {
	title, id, text string
}

// Feed returns the RSS feed of a page whose rendered content is content,
// or nil when it has no updates. title and description describe the
// channel; pageURL is the page's address, which entries link into.
func Feed(content []byte, title, description, pageURL string) []byte {
	if !HasUpdates(content) {
		return nil
	}
	items := feedItems(content)
	if len(items) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<rss xmlns:atom="http://www.w3.org/2005/Atom" version="2.0">` + "\n<channel>\n")
	b.WriteString("<title>" + cdata(title) + "</title>\n")
	b.WriteString("<description>" + cdata(description) + "</description>\n")
	b.WriteString(`<atom:link href="` + xmlText(strings.TrimSuffix(pageURL, "/")+"/rss.xml") + `" rel="self" type="application/rss+xml"/>` + "\n")
	b.WriteString("<link>" + xmlText(pageURL) + "</link>\n")
	for _, it := range items {
		link := pageURL + "#" + it.id
		b.WriteString("<item>\n<title>" + cdata(it.title) + "</title>\n")
		b.WriteString("<link>" + xmlText(link) + "</link>\n")
		b.WriteString(`<guid isPermaLink="true">` + xmlText(link) + "</guid>\n")
		if it.text != "" {
			b.WriteString("<description>" + cdata(it.text) + "</description>\n")
		}
		b.WriteString("</item>\n")
	}
	b.WriteString("</channel>\n</rss>\n")
	return []byte(b.String())
}

// HasUpdates reports whether rendered content holds an update, so a
// page without one costs the feed nothing more.
func HasUpdates(content []byte) bool { return bytes.Contains(content, []byte(`class="update"`)) }

// feedItems reads the entries of the updates in content.
func feedItems(content []byte) []feedItem {
	var items []feedItem
	z := html.NewTokenizer(bytes.NewReader(content))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return items
		}
		if tt != html.StartTagToken {
			continue
		}
		tok := z.Token()
		if tok.Data != "section" || attr(tok, "class") != "update" {
			continue
		}
		items = append(items, readUpdate(z, tok)...)
	}
}

// readUpdate reads one update's section, whose start tag is tok, to its
// end and returns its entries.
func readUpdate(z *html.Tokenizer, tok html.Token) []feedItem {
	r := updateReader{z: z}
	r.read()
	var rss struct{ Title, Description string }
	if json.Unmarshal([]byte(attr(tok, "data-rss")), &rss) == nil && (rss.Title != "" || rss.Description != "") {
		title := rss.Title
		if title == "" {
			title = squash(r.label.String())
		}
		return []feedItem{{title: title, id: attr(tok, "id"), text: rss.Description}}
	}
	if len(r.heads) == 0 {
		return []feedItem{{title: squash(r.label.String()), id: attr(tok, "id"), text: paragraphs(r.intro.String())}}
	}
	items := make([]feedItem, len(r.heads))
	for i, h := range r.heads {
		items[i] = feedItem{title: squash(h.title.String()), id: h.id, text: paragraphs(h.text.String())}
	}
	return items
}

// updateReader reads an update's section: its label, the text before
// its first heading, and each heading with the text under it.
type updateReader struct {
	z     *html.Tokenizer
	label strings.Builder
	intro strings.Builder
	heads []*feedHead
}

type feedHead struct {
	id          string
	title, text strings.Builder
}

func (r *updateReader) read() {
	depth := 1
	skip := 0      // the depth of an element left out, 0 outside one
	labelAt := 0   // the depth of the label, 0 outside it
	headingAt := 0 // the depth of a heading being read, 0 outside one
	for depth > 0 {
		tt := r.z.Next()
		switch tt {
		case html.ErrorToken:
			return
		case html.StartTagToken:
			t := r.z.Token()
			depth++
			switch {
			case skip > 0:
			case t.Data == "div" && attr(t, "class") == "update-label":
				labelAt = depth
			case (t.Data == "h2" || t.Data == "h3") && attr(t, "id") != "" && headingAt == 0 && labelAt == 0:
				headingAt = depth
				r.heads = append(r.heads, &feedHead{id: attr(t, "id")})
			case leftOut(t):
				skip = depth
			case isBlock(t.Data):
				r.text().WriteString("\n")
			}
		case html.EndTagToken:
			switch depth {
			case skip:
				skip = 0
			case labelAt:
				labelAt = 0
			case headingAt:
				headingAt = 0
			}
			depth--
		case html.TextToken:
			switch {
			case skip > 0:
			case labelAt > 0:
				r.label.Write(r.z.Text())
			case headingAt > 0:
				r.heads[len(r.heads)-1].title.Write(r.z.Text())
			default:
				r.text().Write(r.z.Text())
			}
		}
	}
}

// text is where the update's prose goes now: under its last heading, or
// before the first.
func (r *updateReader) text() *strings.Builder {
	if n := len(r.heads); n > 0 {
		return &r.heads[n-1].text
	}
	return &r.intro
}

// leftOut reports the elements whose text is not an entry's: code,
// what components draw (elements with a class), the update's tags and
// description, scripts, styles and drawings.
func leftOut(t html.Token) bool {
	switch t.Data {
	case "pre", "code", "script", "style", "svg", "figure", "table", "details", "iframe", "video":
		return true
	}
	switch class := attr(t, "class"); class {
	case "", "update-label", "update-body":
		return false
	default: // a component's, or the update's tags and description
		return true
	}
}

// isBlock reports the elements whose text starts a line of its own.
func isBlock(name string) bool {
	switch name {
	case "p", "li", "ul", "ol", "blockquote", "br", "div", "h4", "h5", "h6":
		return true
	}
	return false
}

// attr is tok's attribute key, or "".
func attr(tok html.Token, key string) string {
	for _, a := range tok.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// squash makes runs of white space one space.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// paragraphs is text with each line's white space squashed and empty
// lines dropped.
func paragraphs(s string) string {
	var out []string
	for line := range strings.Lines(s) {
		if l := squash(line); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// cdata writes s as character data: a "]]>" in it is split across two
// sections, and characters XML does not allow are left out.
func cdata(s string) string {
	return "<![CDATA[" + strings.ReplaceAll(xmlChars(s), "]]>", "]]]]><![CDATA[>") + "]]>"
}

// xmlText escapes s for XML text and attribute values.
func xmlText(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(xmlChars(s))) // a bytes.Buffer does not fail
	return b.String()
}

// xmlChars leaves out the characters XML 1.0 does not allow.
func xmlChars(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r != 0xFFFE && r != 0xFFFF && (r < 0xD800 || r > 0xDFFF) {
			return r
		}
		return -1
	}, s)
}
