package mdx

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/yuin/goldmark/ast"
)

// headingIDs makes the ids of a page's headings as the platform
// documents them (HeadingSlug), numbering a repeated id -2, -3, … across
// the whole page, headings that components write included
// (WithComponentHeadings). The id comes from the text a reader sees in
// the heading (headingText), never from its markup: a code span gives its
// code, a link its text and not its address, a component its text and
// not its tag. A heading may name its own id, `## Title {#my-id}`.
type headingIDs struct {
	used map[string]bool
}

func newHeadingIDs() *headingIDs { return &headingIDs{used: map[string]bool{}} }

// next returns the id of the next heading, whose text is text.
func (h *headingIDs) next(text string) string {
	id := HeadingSlug(text)
	if id == "" {
		id = "heading"
	}
	return uniqueID(h.used, id)
}

// uniqueID returns base, or base-2, base-3, … when taken, and marks the
// result as used.
func uniqueID(used map[string]bool, base string) string {
	id := base
	for i := 2; used[id]; i++ {
		id = base + "-" + strconv.Itoa(i)
	}
	used[id] = true
	return id
}

// HeadingSlug is the id the platform generates for a heading whose text
// is s: letters (of any script, lower-cased), digits and marks are kept;
// each run of white space becomes a hyphen, and so does a period; a
// straight apostrophe becomes a right single quotation mark and stays, as
// do slashes, ampersands, hyphens and underscores; parentheses and any
// other punctuation or symbol are dropped. Hyphens at either end go.
// "What's new" is "what’s-new", "Read/write access" "read/write-access",
// "Fees & billing" "fees-&-billing", "Config.json options"
// "config-json-options".
func HeadingSlug(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(s) {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space {
			b.WriteByte('-')
			space = false
		}
		switch {
		case unicode.IsLetter(r), unicode.IsNumber(r), unicode.Is(unicode.Mn, r), unicode.Is(unicode.Mc, r):
			b.WriteRune(r)
		case r == '.':
			b.WriteByte('-')
		case r == '\'' || r == '’':
			b.WriteRune('’')
		case r == '/', r == '&', r == '-', r == '_':
			b.WriteRune(r)
		}
	}
	return strings.Trim(b.String(), "-")
}

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
