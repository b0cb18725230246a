package icons

import (
	"sort"
	"strconv"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// By default an icon a page shows is an empty <span> whose class names
// the drawing, and the site's stylesheet (Set.CSS) holds each drawing
// once, as an SVG data URL the span uses as a CSS mask over its
// currentColor background. A site whose pages show the same icons (the
// sidebar's, on every page) so carries their shapes once, not once per
// page: inline drawings more than doubled the archive per page of an
// icon-heavy site. Masks work from file:// (an external <use href> does
// not) and take the text's colour in either mode; the pages' policy
// allows data: images. A Set made with Inline draws inline SVG instead
// (Defs).

// maskSpec is what the stylesheet needs of a drawing.
type maskSpec struct {
	paint string // "stroke" or fill
	d     drawing
}

// maskUse is the span of drawing id.
func maskUse(id string) markup.HTML {
	var b markup.Builder
	b.Markup(`<span class="i `)
	b.Text(maskClass(id))
	b.Markup(`" aria-hidden="true"></span>`)
	return b.Fragment()
}

// maskClass is the class of drawing id ("i:fontawesome:12" ->
// "ic-fontawesome-12").
func maskClass(id string) string {
	return "ic-" + strings.ReplaceAll(strings.TrimPrefix(id, "i:"), ":", "-")
}

// CSS is the stylesheet of the drawings the Set has drawn as masks: one
// rule per drawing, in a stable order, setting the --i the span.i rule
// of the base stylesheet masks with. Call it once every page is drawn.
func (s *Set) CSS() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := make([]string, 0, len(s.masks))
	for id := range s.masks {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var b strings.Builder
	for _, id := range ids {
		m := s.masks[id]
		b.WriteString(".")
		b.WriteString(maskClass(id))
		b.WriteString(`{--i:url("data:image/svg+xml,`)
		writeURLData(&b, svgDocument(m))
		b.WriteString(`")}` + "\n")
	}
	return []byte(b.String())
}

// svgDocument is a drawing as a standalone SVG, painted black (a mask
// reads only its alpha).
func svgDocument(m maskSpec) string {
	var b strings.Builder
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="`)
	for i, v := range m.d.Box {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(v))
	}
	if m.paint == "stroke" {
		b.WriteString(`" fill="none" stroke="#000" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">`)
	} else {
		b.WriteString(`">`)
	}
	b.WriteString(shapes(m.d).String())
	b.WriteString(`</svg>`)
	return b.String()
}

// writeURLData writes s as the data of a data: URL inside a CSS string
// in double quotes: double quotes become single ones (the same in XML),
// and every byte that could end the string, the URL or the data, or is
// not printable ASCII, is percent-encoded.
func writeURLData(b *strings.Builder, s string) {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			b.WriteByte('\'')
		case c == '%' || c == '#' || c == '<' || c == '>' || c == '&' || c == '\\' || c == '(' || c == ')' || c < 0x20 || c >= 0x7f:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		default:
			b.WriteByte(c)
		}
	}
}
