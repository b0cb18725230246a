package mdx

import "strings"

// MDX reads a lower-case tag as JSX like any other: a tag alone on its
// line opens an element whose lines are Markdown, as a component's are
// (`<div id="overview">` / `## Overview` / `</div>` is a div holding a
// heading). CommonMark would read the same lines as one raw HTML block,
// heading marks and all, so the preprocessor writes such an element as
// it writes a component: its tags as blocks of their own and its
// content between them.

// rawText are the elements whose content is not Markdown: code and
// text kept as written, and what browsers read as scripts or styles.
var rawText = map[string]bool{"pre": true, "code": true, "script": true, "style": true, "textarea": true, "math": true, "svg": true}

// void are the elements that never have content.
var void = map[string]bool{"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true,
	"img": true, "input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true}

// htmlLine writes a line that starts with a lower-case tag t, n bytes of
// it.
func (m *mdx) htmlLine(t jsxTag, line string, n int) {
	rest := strings.TrimSpace(line[n:])
	m.frameVideo(&t)
	tag := htmlTag(t, line[:n])
	if v, ok := t.attrs["className"]; ok {
		m.noteClasses(`"` + v + `"`)
	}
	switch {
	case rawText[t.name]:
		m.text(tag + line[n:])
	case t.closing && rest == "" && m.isOpen(t.name):
		m.blockTag(t)
	case t.closing:
		m.text(tag + line[n:])
	case rest == "" && (t.selfClosing || void[t.name]):
		m.block(tag)
	case rest == "":
		m.openHTML(t, tag)
	case !t.selfClosing && !void[t.name] && strings.HasSuffix(rest, "</"+t.name+">") && onlyElement(t.name, rest):
		// <p>One line of <b>content</b></p>
		m.openHTML(t, tag)
		m.unwrapNext()
		m.text(strings.TrimSuffix(rest, "</"+t.name+">"))
		m.blockTag(jsxTag{name: t.name, closing: true})
	default:
		if onlyElements(line) {
			m.unwrapNext()
		}
		m.text(tag + line[n:])
	}
}

// frameVideo gives a <video autoPlay> inside a <Frame> the attributes
// the platform's frame adds to it, playsInline, loop and muted, unless the
// author wrote them (autoPlay on its own does not play on phones, nor
// with sound anywhere).
func (m *mdx) frameVideo(t *jsxTag) {
	if t.name != "video" || t.closing || !m.isOpen("Frame") || !attrOn(t.attrs, "autoplay") {
		return
	}
	for _, k := range []string{"playsInline", "loop", "muted"} {
		if _, ok := attrFold(t.attrs, k); !ok {
			t.attrs[k] = "true"
			t.changed = true
		}
	}
}

// attrFold finds attribute name in any letter case, as HTML does.
func attrFold(attrs map[string]string, name string) (string, bool) {
	for k, v := range attrs {
		if strings.EqualFold(k, name) {
			return v, true
		}
	}
	return "", false
}

// attrOn reports a boolean attribute that is present and not {false}.
func attrOn(attrs map[string]string, name string) bool {
	v, ok := attrFold(attrs, name)
	return ok && v != "false"
}

// openHTML opens element t, written as tag, whose lines are Markdown.
func (m *mdx) openHTML(t jsxTag, tag string) {
	if len(m.stack) >= maxNesting {
		m.text(tag)
		return
	}
	m.block(tag)
	m.stack = append(m.stack, openBlock{name: t.name, close: "</" + t.name + ">", indent: -1})
}

// isOpen reports whether an element named name is open.
func (m *mdx) isOpen(name string) bool {
	for _, b := range m.stack {
		if b.name == name {
			return true
		}
	}
	return false
}

// onlyElement reports whether rest, the line after an opening tag of
// name, closes that element only at its end: "<b>x</b> and <b>y</b>"
// is a paragraph, "<b>x <b>y</b> z</b>" one element.
func onlyElement(name, rest string) bool {
	return closeOf(name, rest) == len(rest)
}

// closeOf returns where the element named name, opened just before s,
// ends in s (past its closing tag), or -1 when s does not close it.
func closeOf(name, s string) int {
	depth := 1
	open, closing := "<"+name, "</"+name+">"
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], closing):
			depth--
			i += len(closing)
			if depth == 0 {
				return i
			}
		case strings.HasPrefix(s[i:], open) && i+len(open) < len(s) && (s[i+len(open)] == '>' || isSpace(s[i+len(open)])):
			depth++
			i += len(open)
		default:
			i++
		}
	}
	return -1
}

// onlyElements reports whether line is nothing but elements and the
// white space between them: MDX reads such a paragraph as the elements
// themselves ("<Badge>a</Badge> <Badge>b</Badge>").
func onlyElements(line string) bool {
	for i := 0; ; {
		for i < len(line) && isSpace(line[i]) {
			i++
		}
		if i == len(line) {
			return true
		}
		if !isComponentStart(line[i:]) && !isHTMLStart(line[i:]) {
			return false
		}
		t, n, ok := parseTag(line[i:])
		if !ok || t.closing {
			return false
		}
		i += n
		if t.selfClosing || void[t.name] {
			continue
		}
		end := closeOf(t.name, line[i:])
		if end < 0 {
			return false
		}
		i += end
	}
}

// noteClasses records the class names of a className attribute whose
// value starts s ("a b" or 'a b'), so the export can write the Tailwind
// CSS the page uses.
func (m *mdx) noteClasses(s string) {
	if m.comp == nil || s == "" || (s[0] != '"' && s[0] != '\'') {
		return
	}
	end := strings.IndexByte(s[1:], s[0])
	if end < 0 {
		return
	}
	for _, c := range strings.Fields(s[1 : 1+end]) {
		if len(m.comp.classes) >= maxClasses {
			return
		}
		m.comp.classes = append(m.comp.classes, c)
	}
}

// maxClasses bounds the class names one page records.
const maxClasses = 4096

// Classes are the class names the page's authors wrote in className:
// on elements and the platform's components in the page, and, once
// Expand has run, on the elements its custom components render.
func (p *Page) Classes() []string {
	if p.comp == nil {
		return nil
	}
	return p.comp.classes
}
