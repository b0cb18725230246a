package mdx

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
)

// WithComponentHeadings returns the table of contents of a page whose
// components were expanded into rendered: the Markdown headings hs with,
// in document order, the h2 and h3 elements with an id that the
// components wrote (a custom component's heading, a step's title) and
// the labels of updates. A
// component heading whose id another heading of the page already has is
// renumbered (-2, -3, …) in the HTML too, so every entry leads to its
// own heading; so is an element whose id is one of auto, the ids made
// from components' titles (Page.AutoIDs), when an element before it has
// that id. A renumbered element's own anchor link (class "step-anchor")
// follows it. A page without either returns rendered and hs unchanged.
func WithComponentHeadings(rendered []byte, hs []Heading, auto []string) ([]byte, []Heading) {
	p := idPass{src: rendered, used: make(map[string]bool, len(hs)+len(auto))}
	for _, h := range hs {
		p.used[h.ID] = true
	}
	isAuto := make(map[string]bool, len(auto))
	for _, id := range auto {
		isAuto[id] = true
	}
	var (
		out   []Heading
		next  int // the next Markdown heading expected in rendered
		added bool
	)
	p.z = html.NewTokenizer(bytes.NewReader(rendered))
	for {
		tt := p.z.Next()
		if tt == html.ErrorToken {
			break
		}
		start := p.pos
		p.pos += len(p.z.Raw())
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		tok := p.z.Token()
		if p.anchor(start, tok) {
			continue
		}
		ai := attrIndex(tok, "id")
		if ai < 0 {
			continue
		}
		id := tok.Attr[ai].Val
		heading := (tok.Data == "h2" || tok.Data == "h3") && tt == html.StartTagToken
		level := 0
		if heading {
			level = int(tok.Data[1] - '0')
		}
		if heading && !isStepTitle(tok) && next < len(hs) && hs[next].ID == id && hs[next].Level == level {
			// A Markdown heading, in its place. The expanded HTML no
			// longer says which elements a component wrote, so one of
			// the same level and id as the next Markdown heading is
			// taken for it: that keeps every Markdown heading's id.
			out = append(out, hs[next])
			next++
			continue
		}
		update := tok.Data == "section" && hasClass(tok, "update")
		if !heading && !update && !isAuto[id] {
			p.used[id] = true // the author's own: kept, and kept from others
			continue
		}
		if p.used[id] {
			newID := uniqueID(p.used, id)
			tok.Attr[ai].Val = newID
			p.replace(start, tok)
			p.renamed = [2]string{id, newID}
			id = newID
		}
		p.used[id] = true
		switch {
		case heading:
			added = true
			out = append(out, Heading{Level: level, ID: id, Text: p.elementText(tok.Data)})
		case update:
			// Each update's label is an entry of the contents list, as on
			// the platform's changelogs.
			added = true
			out = append(out, Heading{Level: 2, ID: id, Text: p.updateLabel()})
		}
	}
	if !added && p.last == 0 {
		return rendered, hs
	}
	if added {
		hs = append(out, hs[next:]...) // none unless a component dropped one
	}
	if p.last == 0 {
		return rendered, hs
	}
	p.buf.Write(rendered[p.last:])
	return p.buf.Bytes(), hs
}

// idPass is WithComponentHeadings' walk over the rendered HTML: the
// tokenizer, the bytes read so far (pos) and the output, made only once
// something changes: buf holds src[:last] with the changes.
type idPass struct {
	src       []byte
	z         *html.Tokenizer
	pos, last int
	buf       bytes.Buffer
	used      map[string]bool
	// renamed is the last id renumbered, old and new, until its anchor
	// link is found.
	renamed [2]string
}

// replace writes tok in place of the token that starts at start and ends
// at pos.
func (p *idPass) replace(start int, tok html.Token) {
	p.buf.Write(p.src[p.last:start])
	p.buf.WriteString(tok.String()) // x/net/html escapes the attributes
	p.last = p.pos
}

// anchor points the anchor link of the element last renumbered at its
// new id, and reports whether tok was that link.
func (p *idPass) anchor(start int, tok html.Token) bool {
	if tok.Data != "a" || p.renamed[0] == "" {
		return false
	}
	href, class := attrIndex(tok, "href"), attrIndex(tok, "class")
	if href < 0 || class < 0 || tok.Attr[class].Val != "step-anchor" || tok.Attr[href].Val != "#"+p.renamed[0] {
		return false
	}
	tok.Attr[href].Val = "#" + p.renamed[1]
	p.replace(start, tok)
	p.renamed = [2]string{}
	return true
}

// updateLabel reads the label an update's section starts with and
// returns its text.
func (p *idPass) updateLabel() string {
	for {
		tt := p.z.Next()
		if tt == html.ErrorToken {
			return ""
		}
		p.pos += len(p.z.Raw())
		if tt != html.StartTagToken {
			continue
		}
		if tok := p.z.Token(); tok.Data == "div" && hasClass(tok, "update-label") {
			return p.elementText("div")
		}
		return "" // not drawn by components.update
	}
}

// isStepTitle reports a step's title, which is never a Markdown heading.
func isStepTitle(tok html.Token) bool { return hasClass(tok, "step-title") }

// hasClass reports whether tok's class attribute is exactly class, as the
// components write it.
func hasClass(tok html.Token, class string) bool {
	c := attrIndex(tok, "class")
	return c >= 0 && tok.Attr[c].Val == class
}

// attrIndex is the index of tok's attribute key, or -1.
func attrIndex(tok html.Token, key string) int {
	for i, a := range tok.Attr {
		if a.Key == key && (key != "id" || a.Val != "") {
			return i
		}
	}
	return -1
}

// elementText reads the tokens up to the end of the element named tag
// and returns the text in it, with runs of white space made one space;
// the anchor link in it follows a renumbered id.
func (p *idPass) elementText(tag string) string {
	var b strings.Builder
	depth := 1
	for depth > 0 {
		tt := p.z.Next()
		if tt == html.ErrorToken {
			break
		}
		start := p.pos
		p.pos += len(p.z.Raw())
		switch tt {
		case html.TextToken:
			b.Write(p.z.Text())
		case html.StartTagToken:
			tok := p.z.Token()
			if tok.Data == tag {
				depth++
			}
			p.anchor(start, tok)
		case html.EndTagToken:
			if name, _ := p.z.TagName(); string(name) == tag {
				depth--
			}
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}
