package mdx

import (
	"regexp"
	"strconv"
	"strings"
)

// A heading written as an element, `<h2>…</h2>` or the platform's
// `<Heading level={2}>…</Heading>` (create/text.mdx), is a heading like
// `## …`: it gets an id (its own `id` when it has one), an anchor link
// unless it says `noAnchor`, and a place in the table of contents. The
// preprocessor writes it as an ATX heading with goldmark's attribute
// block, which ToHTML reads.

// headingElem is a heading element being read, over one line or more.
type headingElem struct {
	level    int
	closeTag string
	id       string
	noAnchor bool
	text     []string
}

var headingOpen = regexp.MustCompile(`^<(h[1-6]|Heading)(?:[\s>/]|$)`)

// noAnchorAttr marks, in the attribute block, a heading without anchor;
// the heading filter of goldmark's renderer leaves it out of the HTML.
const noAnchorAttr = "noanchor"

// startHeading begins reading a heading element on line (trimmed); false
// when the line does not open one this way (the tag spans lines, or the
// element holds blocks), and the line is read as before.
func (m *mdx) startHeading(trimmed string) bool {
	if !headingOpen.MatchString(trimmed) {
		return false
	}
	t, n, ok := parseTag(trimmed)
	if !ok || t.closing || t.selfClosing {
		return false
	}
	h := &headingElem{closeTag: "</" + t.name + ">", id: t.attrs["id"]}
	if t.name == "Heading" {
		lvl, err := strconv.Atoi(strings.Trim(t.attrs["level"], "{} "))
		if err != nil || lvl < 1 || lvl > 6 {
			lvl = 2 // the component's default
		}
		h.level = lvl
	} else {
		h.level = int(t.name[1] - '0')
	}
	_, h.noAnchor = t.attrs["noAnchor"]
	if v := t.attrs["noAnchor"]; v == "false" || v == "{false}" {
		h.noAnchor = false
	}
	m.heading = h
	m.headingLine(trimmed[n:])
	return true
}

// headingLine reads one line of the heading element's content.
func (m *mdx) headingLine(line string) {
	h := m.heading
	before, _, closed := strings.Cut(line, h.closeTag)
	if s := strings.TrimSpace(before); s != "" {
		h.text = append(h.text, s)
	}
	if closed || len(h.text) > maxTagLines {
		m.heading = nil
		m.writeHeading(h)
	}
}

// writeHeading writes a heading element as an ATX heading.
func (m *mdx) writeHeading(h *headingElem) {
	var b strings.Builder
	b.WriteString(strings.Repeat("#", h.level))
	b.WriteByte(' ')
	b.WriteString(strings.Join(h.text, " "))
	var attrs []string
	if h.id != "" && !strings.ContainsAny(h.id, " \t{}\"") {
		attrs = append(attrs, "#"+h.id)
	}
	if h.noAnchor {
		attrs = append(attrs, noAnchorAttr+"=true")
	}
	if len(attrs) > 0 {
		b.WriteString(" {" + strings.Join(attrs, " ") + "}")
	}
	m.out.WriteString("\n")
	m.text(b.String())
	m.out.WriteString("\n")
}
