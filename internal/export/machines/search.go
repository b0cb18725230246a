package machines

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
)

// SearchEntry is one page in the offline search index. Field names are
// short because the index is shipped to the browser as is. The page's
// text is cut into sections at its headings, so that a search can rank
// a heading above body text and show the sections that match under
// their page (app.js).
type SearchEntry struct {
	Title   string `json:"t"`
	URL     string `json:"u"`
	Section string `json:"s,omitempty"`
	// Parts are the page's sections: heading text, anchor and the text
	// under the heading; the first has no heading (the page's lead).
	Parts [][3]string `json:"x"`
}

// maxSearchBody bounds the text indexed per page, so a site of long pages
// still loads its index quickly; the start of a page is what searchers
// most often mean. maxSearchParts bounds the sections of a page.
const (
	maxSearchBody  = 6000
	maxSearchParts = 200
)

// headingOpen finds the opening tag of a heading with an id in rendered
// content.
var headingOpen = regexp.MustCompile(`<h[1-6][^>]*\sid="([^"]+)"[^>]*>`)

// NewSearchEntry is the entry of a page titled title at url (relative
// to the bundle root): lead is text that belongs to the page's lead
// section besides its content (an endpoint's path and parameters, the
// description); hs are its headings and content its rendered HTML.
func NewSearchEntry(title, url string, lead []string, hs []mdx.Heading, content []byte) SearchEntry {
	e := SearchEntry{Title: title, URL: url}
	text := map[string]string{} // heading id -> its section's text
	locs := headingOpen.FindAllSubmatchIndex(content, -1)
	budget := maxSearchBody
	end := len(content)
	if len(locs) > 0 {
		end = locs[0][0]
	}
	intro := visibleText(content[:end], budget)
	budget -= len(intro)
	e.Parts = append(e.Parts, [3]string{"", "", strings.TrimSpace(strings.Join(append(lead, intro), " "))})
	for k, l := range locs {
		from, to := l[1], len(content)
		if k+1 < len(locs) {
			to = locs[k+1][0]
		}
		// The heading's own text ends at its closing tag.
		if c := bytes.Index(content[from:to], []byte("</h")); c >= 0 {
			from += c
		}
		t := ""
		if budget > 0 {
			t = visibleText(content[from:to], budget)
			budget -= len(t)
		}
		text[string(content[l[2]:l[3]])] = t
	}
	for _, h := range hs {
		if len(e.Parts) >= maxSearchParts {
			break
		}
		e.Parts = append(e.Parts, [3]string{h.Text, h.ID, text[h.ID]})
	}
	return e
}

// visibleText strips tags from rendered HTML and collapses whitespace,
// keeping at most limit bytes of text (cut at a rune boundary).
func visibleText(b []byte, limit int) string {
	var out strings.Builder
	out.Grow(min(len(b), limit))
	space := false
	for i := 0; i < len(b) && out.Len() < limit; {
		c := b[i]
		if c == '<' {
			end := bytes.IndexByte(b[i:], '>')
			if end < 0 {
				break
			}
			// Block-level tags separate words.
			space = true
			i += end + 1
			continue
		}
		if c == ' ' || c == '\n' || c == '\t' || c == '\r' {
			space = true
			i++
			continue
		}
		if space && out.Len() > 0 {
			out.WriteByte(' ')
		}
		space = false
		next := bytes.IndexAny(b[i:], "< \n\t\r")
		if next < 0 {
			next = len(b) - i
		}
		out.Write(b[i : i+next])
		i += next
	}
	s := out.String()
	if len(s) > limit {
		s = s[:limit]
		for len(s) > 0 && !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
	}
	return html.UnescapeString(s)
}
