package mdx

import (
	"bytes"
	"fmt"
	"html"
	"strings"
)

// Math, as the platform writes it: $…$ in running text, $$…$$ alone on
// its lines for a display block. KaTeX typesets each formula at export
// time in the component evaluator (jsx.Page.Math), so a page needs no
// script to show it, only KaTeX's stylesheet and fonts (HasMath). A
// formula KaTeX refuses shows as typed, with a warning naming the page,
// the line and the formula.
//
// An inline formula follows the rules that keep prices prose: the
// opening $ is not followed by a space, the closing one is not preceded
// by a space nor followed by a digit ("$5 and $6" is text), no code span
// starts inside it, and \$ is a dollar sign. Code spans and fences hold
// no math.

// maxMathLines and maxMathBytes bound a display block; one that does not
// close within them is text.
const (
	maxMathLines = 500
	maxMathBytes = 64 << 10
	// mathLookahead bounds how far an inline formula's closing $ is
	// looked for, which keeps a line of many $ linear.
	mathLookahead = 4 << 10
)

// addFormula records a formula of the page and returns its markers; ok
// is false past maxUses.
func (m *mdx) addFormula(tex string, display bool) (string, bool) {
	if !m.roomForUse() {
		return "", false
	}
	c := m.comp
	c.uses = append(c.uses, use{selfClosing: true, tex: tex, display: display, file: m.file, line: m.lineNo})
	return c.markers(len(c.uses) - 1), true
}

// formula returns what use u, a formula, shows: KaTeX's typesetting, or
// the formula as typed with a warning.
func (x *expander) formula(u use) string {
	out, err := x.ev.Math(u.tex, u.display)
	if err == nil {
		return out.String()
	}
	delim := "$"
	if u.display {
		delim = "$$"
	}
	x.warn(WarnMath, fmt.Sprintf("the formula %s%s%s (line %d of %s) could not be typeset (%s); it is shown as typed",
		delim, clip(u.tex, 120), delim, u.line, u.file, err))
	return html.EscapeString(delim + u.tex + delim)
}

// inlineFormula returns the end (past the closing $) and the TeX of an
// inline formula starting at line[i], a $; ok is false when none does.
func inlineFormula(line string, i int) (end int, tex string, ok bool) {
	n := 1
	if i+1 < len(line) && line[i+1] == '$' {
		n = 2
	}
	open := i + n
	if open >= len(line) || (n == 1 && isSpace(line[open])) || line[open] == '$' {
		return 0, "", false
	}
	limit := min(len(line), open+mathLookahead)
	for k := open; k < limit; k++ {
		switch line[k] {
		case '\\':
			k++ // an escaped character, \$ included
		case '`':
			return 0, "", false // a code span starts: no formula runs into it
		case '$':
			run := k
			for run < len(line) && line[run] == '$' {
				run++
			}
			if run-k == n && !isSpace(line[k-1]) && (n == 2 || run >= len(line) || line[run] < '0' || line[run] > '9') {
				return run, line[open:k], true
			}
			k = run - 1
		}
	}
	return 0, "", false
}

// mathBlockLine reads a line while a display block is open.
func (m *mdx) mathBlockLine(line string) {
	trimmed := strings.TrimSpace(line)
	if body, ok := strings.CutSuffix(trimmed, "$$"); ok {
		m.math = append(m.math, body)
		tex := strings.TrimSpace(strings.Join(m.math, "\n"))
		m.math, m.inMath = nil, false
		m.displayFormula(tex)
		return
	}
	m.math = append(m.math, line)
	if len(m.math) > maxMathLines || len(strings.Join(m.math, "\n")) > maxMathBytes {
		m.flushMath()
	}
}

// flushMath writes a display block that never closed as the text it was.
func (m *mdx) flushMath() {
	lines := m.math
	m.math, m.inMath = nil, false
	m.text("$$")
	for _, l := range lines {
		m.text(l)
	}
}

// displayFormula writes a display block.
func (m *mdx) displayFormula(tex string) {
	if tex == "" {
		return
	}
	if markers, ok := m.addFormula(tex, true); ok {
		m.block(markers)
		return
	}
	m.text("$$" + tex + "$$")
}

// startMath reads a line that may open a display block: $$ alone, or
// $$ … $$ on one line. It reports whether it took the line.
func (m *mdx) startMath(trimmed string) bool {
	if m.comp == nil || m.noMath || !strings.HasPrefix(trimmed, "$$") {
		return false
	}
	if trimmed == "$$" {
		m.inMath = true
		return true
	}
	if len(trimmed) > 4 && strings.HasSuffix(trimmed, "$$") && !strings.Contains(trimmed[2:len(trimmed)-2], "$$") {
		m.displayFormula(strings.TrimSpace(trimmed[2 : len(trimmed)-2]))
		return true
	}
	return false
}

// HasMath reports whether a rendered page holds a typeset formula, so
// that it links KaTeX's stylesheet.
func HasMath(rendered []byte) bool {
	return bytes.Contains(rendered, []byte(`<span class="katex">`))
}
