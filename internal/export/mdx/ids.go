package mdx

import (
	"strconv"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/yuin/goldmark/ast"
)

// headingIDs makes the ids of a page's headings as the platform does:
// letters and digits of any script are kept (lower-cased), every run of
// anything else becomes one hyphen, hyphens at the ends are dropped, and
// a repeated id is numbered (-1, -2, …). The id comes from the text a
// reader sees in the heading (headingText), never from its markup: a
// code span gives its code, a link its text and not its address, a
// component its text and not its tag. One is made per page: ids are
// unique within it.
type headingIDs struct {
	used map[string]bool
}

func newHeadingIDs() *headingIDs { return &headingIDs{used: map[string]bool{}} }

// next returns the id of the next heading, whose text is text.
func (h *headingIDs) next(text string) string {
	id := markup.TextSlug(text)
	if id == "" {
		id = "heading"
	}
	base := id
	for i := 1; h.used[id]; i++ {
		id = base + "-" + strconv.Itoa(i)
	}
	h.used[id] = true
	return id
}

// HeadingSlug is the id of a heading whose text is s (see headingIDs).
func HeadingSlug(s string) string { return markup.TextSlug(s) }

// headingText is the text a reader sees in heading h: its text and code
// spans, the text of its links and of what its inline HTML encloses.
// Tags, link addresses and images are left out.
func headingText(h *ast.Heading, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(h, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Image:
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			b.Write(t.Value(src))
			if t.SoftLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			if !t.IsCode() { // code strings are markup put in by inlineHeading
				b.Write(t.Value)
			}
		}
		return ast.WalkContinue, nil
	})
	return strings.TrimSpace(b.String())
}

// blockTags are the elements that may not stand inside a heading, whose
// content is phrasing only. A component written on a heading's line
// (<Card>, <Check>, one the export does not know) renders as one of them;
// there it is written as a span with the same attributes instead, so the
// heading stays one line of text and valid HTML.
var blockTags = map[string]bool{
	"address": true, "article": true, "aside": true, "blockquote": true, "dd": true, "details": true,
	"dialog": true, "div": true, "dl": true, "dt": true, "fieldset": true, "figcaption": true,
	"figure": true, "footer": true, "form": true, "h1": true, "h2": true, "h3": true, "h4": true,
	"h5": true, "h6": true, "header": true, "hgroup": true, "li": true, "main": true, "menu": true,
	"nav": true, "ol": true, "p": true, "pre": true, "section": true, "summary": true, "table": true,
	"tbody": true, "td": true, "tfoot": true, "th": true, "thead": true, "tr": true, "ul": true,
}

// inlineHeading rewrites the block elements among the inline HTML of
// heading h as spans (see blockTags).
func inlineHeading(h *ast.Heading, src []byte) {
	var raws []*ast.RawHTML
	_ = ast.Walk(h, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if r, ok := c.(*ast.RawHTML); ok && entering {
			raws = append(raws, r)
		}
		return ast.WalkContinue, nil
	})
	for _, r := range raws {
		var tag []byte
		for i := 0; i < r.Segments.Len(); i++ {
			seg := r.Segments.At(i)
			tag = append(tag, seg.Value(src)...)
		}
		if span, ok := asSpan(tag); ok {
			s := ast.NewString(span)
			s.SetCode(true) // written as is, like the raw HTML it replaces
			r.Parent().ReplaceChild(r.Parent(), r, s)
		}
	}
}

// asSpan returns tag (one start or end tag) renamed to span when it opens
// or closes a block element.
func asSpan(tag []byte) ([]byte, bool) {
	if len(tag) < 3 || tag[0] != '<' {
		return nil, false
	}
	start := 1
	if tag[1] == '/' {
		start = 2
	}
	end := start
	for end < len(tag) && (tag[end] >= 'a' && tag[end] <= 'z' || tag[end] >= 'A' && tag[end] <= 'Z' || tag[end] >= '0' && tag[end] <= '9') {
		end++
	}
	if end == start || end < len(tag) && !strings.ContainsRune(" \t\n\r\f/>", rune(tag[end])) ||
		!blockTags[strings.ToLower(string(tag[start:end]))] {
		return nil, false
	}
	out := make([]byte, 0, len(tag)+4)
	out = append(out, tag[:start]...)
	out = append(out, "span"...)
	return append(out, tag[end:]...), true
}
