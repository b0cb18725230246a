package icons

import (
	"bytes"
	"html"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// A renderer that does not know the export's library (MDX renders each
// page on its own) writes a slot where an icon goes; Fill draws the slots
// of a finished page.
const (
	slotOpen  = `<i data-icon="`
	slotType  = `" data-icon-type="`
	slotIn    = `" data-icon-in="`
	slotClose = `"></i>`
)

// Slot is the placeholder of icon r used in component in ("Card").
func Slot(r Ref, in string) markup.HTML {
	var b markup.Builder
	b.Markup(slotOpen)
	b.Text(r.Name)
	b.Markup(slotType)
	b.Text(r.Type)
	b.Markup(slotIn)
	b.Text(in)
	b.Markup(slotClose)
	return b.Fragment()
}

// Fill replaces the slots in page with what draw returns for each, given
// the icon and the component it is used in. A page without slots is
// returned as it is; text that only looks like a slot is left alone.
func Fill(page []byte, draw func(r Ref, in string) markup.HTML) []byte {
	i := bytes.Index(page, []byte(slotOpen))
	if i < 0 {
		return page
	}
	out := make([]byte, 0, len(page)+len(page)/8)
	for i >= 0 {
		out = append(out, page[:i]...)
		rest := page[i+len(slotOpen):]
		name, rest, ok1 := cutAttr(rest, slotType)
		typ, rest, ok2 := cutAttr(rest, slotIn)
		in, rest, ok3 := cutAttr(rest, slotClose)
		if ok1 && ok2 && ok3 {
			out = append(out, draw(Ref{Name: name, Type: typ}, in).String()...)
			page = rest
		} else {
			out = append(out, slotOpen...)
			page = page[i+len(slotOpen):]
		}
		i = bytes.Index(page, []byte(slotOpen))
	}
	return append(out, page...)
}

// cutAttr reads an escaped attribute value up to end, which must come
// before the next tag starts.
func cutAttr(b []byte, end string) (string, []byte, bool) {
	v, rest, ok := bytes.Cut(b, []byte(end))
	if !ok || bytes.ContainsAny(v, `<>"`) {
		return "", b, false
	}
	return html.UnescapeString(string(v)), rest, true
}
