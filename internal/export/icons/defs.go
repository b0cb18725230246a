package icons

import (
	"bytes"
	"html"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// An icon drawn by Draw is a <use> of its shapes. Defs then writes the
// shapes of an icon a page shows more than once (the sidebar's, a card's
// and a step's) once, at the top of the body, and those of an icon it
// shows once in place of the <use>, where they cost least. <use> of an
// element of the same document works from file:// as from a server, and
// the shapes take the paint of each use, in either colour mode.
const (
	useOpen  = `<use href="#i:`
	useClose = `"/>`
	defsTag  = `<svg class="i-defs" width="0" height="0" aria-hidden="true" focusable="false"><defs>`
	defsEnd  = `</defs></svg>`
)

// Defs completes the icons of a finished page: each one it shows more
// than once is defined once, in the order of first use, right after
// <body> (or first, in a page without one); each one it shows once gets
// its shapes in place. A page without icons is returned as it is; a use
// of an icon this Set never drew is left alone.
func (s *Set) Defs(page []byte) []byte {
	if !bytes.Contains(page, []byte(useOpen)) {
		return page
	}
	var ids []string
	uses := map[string]int{}
	for rest := page; ; {
		_, id, after := nextUse(rest)
		if after == nil {
			break
		}
		if id != "" {
			if uses[id] == 0 {
				ids = append(ids, id)
			}
			uses[id]++
		}
		rest = after
	}
	s.mu.Lock()
	defs := make(map[string]markup.HTML, len(ids))
	for _, id := range ids {
		if d, ok := s.defs[id]; ok {
			defs[id] = d
		}
	}
	s.mu.Unlock()
	// An icon shown once gets its shapes in place of its use.
	out := make([]byte, 0, len(page)+len(page)/4)
	for {
		i, id, after := nextUse(page)
		if after == nil {
			out = append(out, page...)
			break
		}
		if d, ok := defs[id]; ok && uses[id] == 1 {
			out = append(out, page[:i]...)
			out = append(out, d.String()...)
		} else {
			out = append(out, page[:len(page)-len(after)]...)
		}
		page = after
	}
	// The others are defined once, at the top of the body.
	var top markup.Builder
	for _, id := range ids {
		if d, ok := defs[id]; ok && uses[id] > 1 {
			top.Markup(`<g`)
			top.Attr("id", id)
			top.Markup(`>`)
			top.HTML(d)
			top.Markup(`</g>`)
		}
	}
	if top.Len() == 0 {
		return out
	}
	at := 0
	if i := bytes.Index(out, []byte("<body")); i >= 0 {
		if j := bytes.IndexByte(out[i:], '>'); j >= 0 {
			at = i + j + 1
		}
	}
	defsHTML := defsTag + top.String() + defsEnd
	done := make([]byte, 0, len(out)+len(defsHTML))
	done = append(done, out[:at]...)
	done = append(done, defsHTML...)
	return append(done, out[at:]...)
}

// nextUse finds the next use of an icon in page: where it starts, its id
// ("" for text that only looks like a use) and the page after it; after
// is nil when there is none.
func nextUse(page []byte) (at int, id string, after []byte) {
	i := bytes.Index(page, []byte(useOpen))
	if i < 0 {
		return 0, "", nil
	}
	rest := page[i+len(`<use href="#`):]
	end := bytes.Index(rest, []byte(useClose))
	if end < 0 || bytes.ContainsAny(rest[:end], `<>"`) {
		return i, "", page[i+len(useOpen):]
	}
	return i, html.UnescapeString(string(rest[:end])), rest[end+len(useClose):]
}
