package export

import (
	"bytes"
	"encoding/json"
	"html"
	"strings"
	"unicode/utf8"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
)

// searchEntry is one page in the offline search index. Field names are
// short because the index is shipped to the browser as is.
type searchEntry struct {
	Title    string      `json:"t"`
	URL      string      `json:"u"`
	Section  string      `json:"s,omitempty"`
	Headings [][2]string `json:"h,omitempty"` // text, anchor
	Body     string      `json:"b"`
}

// maxSearchBody bounds the text indexed per page, so a site of long pages
// still loads its index quickly; the start of a page is what searchers
// most often mean.
const maxSearchBody = 6000

func newSearchEntry(p *page, hs []mdx.Heading, content []byte) searchEntry {
	e := searchEntry{Title: p.title, URL: markup.Path("", p.out, "").String(), Body: visibleText(content, maxSearchBody)}
	if p.fm.Description != "" {
		e.Body = p.fm.Description + " " + e.Body
	}
	if p.api != nil {
		// Readers search endpoints by path and parameter names too.
		e.Body = p.api.SearchText() + " " + e.Body
	} else if p.schema != nil {
		e.Body = p.schema.SearchText() + " " + e.Body
	}
	for _, h := range hs {
		e.Headings = append(e.Headings, [2]string{h.Text, h.ID})
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

// searchIndexJS renders the index as a script that assigns a global. A
// script, unlike fetch or XHR, loads from file:// in every browser.
func (j *pipeline) searchIndexJS() ([]byte, error) {
	entries := make([]searchEntry, 0, len(j.entries))
	for i, e := range j.entries {
		if e.URL == "" {
			continue // noindex pages
		}
		if s := j.frame.section(j.pages[i]); s != nil && s.label != "" {
			e.Section = s.label
		}
		entries = append(entries, e)
	}
	var b bytes.Buffer
	b.WriteString("window.__docsSearchIndex=")
	enc := json.NewEncoder(&b)
	// HTML escaping keeps "</script>" sequences in page text harmless.
	enc.SetEscapeHTML(true)
	if err := enc.Encode(entries); err != nil {
		return nil, err
	}
	b.WriteString(";\n")
	return b.Bytes(), nil
}
