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
	tag := htmlTag(t, line[:n])
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
		m.text(tag + line[n:])
	}
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
	depth := 1
	open, closing := "<"+name, "</"+name+">"
	for i := 0; i < len(rest); {
		switch {
		case strings.HasPrefix(rest[i:], closing):
			depth--
			if depth == 0 {
				return i+len(closing) == len(rest)
			}
			i += len(closing)
		case strings.HasPrefix(rest[i:], open) && i+len(open) < len(rest) && (rest[i+len(open)] == '>' || isSpace(rest[i+len(open)])):
			depth++
			i += len(open)
		default:
			i++
		}
	}
	return false
}
