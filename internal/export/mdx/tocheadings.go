package mdx

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
)

// WithComponentHeadings returns the table of contents of a page whose
// custom components were expanded into rendered: the Markdown headings hs
// with, in document order, the h2 and h3 elements with an id that the
// components wrote. A component heading whose id another heading of the
// page already has is renumbered (-2, -3, …) in the HTML too, so every
// entry leads to its own heading. A page without component headings
// returns rendered and hs unchanged.
func WithComponentHeadings(rendered []byte, hs []Heading) ([]byte, []Heading) {
	used := make(map[string]bool, len(hs))
	for _, h := range hs {
		used[h.ID] = true
	}
	var (
		out   []Heading
		next  int // the next Markdown heading expected in rendered
		added bool
		buf   bytes.Buffer
		last  int // rendered[:last] is written to buf
		pos   int
	)
	z := html.NewTokenizer(bytes.NewReader(rendered))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		start := pos
		pos += len(z.Raw())
		if tt != html.StartTagToken {
			continue
		}
		tok := z.Token()
		if tok.Data != "h2" && tok.Data != "h3" {
			continue
		}
		ai := -1
		for i, a := range tok.Attr {
			if a.Key == "id" && a.Val != "" {
				ai = i
			}
		}
		if ai < 0 {
			continue
		}
		id, level := tok.Attr[ai].Val, int(tok.Data[1]-'0')
		if next < len(hs) && hs[next].ID == id && hs[next].Level == level {
			// A Markdown heading, in its place. The expanded HTML no
			// longer says which elements a component wrote, so one of
			// the same level and id as the next Markdown heading is
			// taken for it: that keeps every Markdown heading's id.
			out = append(out, hs[next])
			next++
			continue
		}
		if base := id; used[base] {
			id = uniqueID(used, base)
			tok.Attr[ai].Val = id
			buf.Write(rendered[last:start])
			buf.WriteString(tok.String()) // x/net/html escapes the attributes
			last = pos
		}
		used[id] = true
		added = true
		out = append(out, Heading{Level: level, ID: id, Text: elementText(z, tok.Data, &pos)})
	}
	if !added {
		return rendered, hs
	}
	out = append(out, hs[next:]...) // none unless a component dropped one
	if last == 0 {
		return rendered, out
	}
	buf.Write(rendered[last:])
	return buf.Bytes(), out
}

// elementText reads the tokens up to the end of the element named tag
// and returns the text in it, with runs of white space made one space;
// pos advances over what was read.
func elementText(z *html.Tokenizer, tag string, pos *int) string {
	var b strings.Builder
	depth := 1
	for depth > 0 {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		*pos += len(z.Raw())
		switch tt {
		case html.TextToken:
			b.Write(z.Text())
		case html.StartTagToken:
			if name, _ := z.TagName(); string(name) == tag {
				depth++
			}
		case html.EndTagToken:
			if name, _ := z.TagName(); string(name) == tag {
				depth--
			}
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}
