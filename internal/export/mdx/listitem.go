package mdx

import "strings"

// A component written inside a list item, indented to the item's
// content, belongs to the item in MDX:
//
//	- Install the CLI.
//
//	  <Note>It needs Node.js 20.</Note>
//
// The preprocessor writes a component's tags as blocks of their own and
// takes the indentation off its content, which would end the list. So it
// follows the list items of the top level, and writes an element that
// starts inside one with the item's indentation before every line.

// followList notes the list item a top-level line starts or continues.
func (m *mdx) followList(line string) {
	if strings.TrimSpace(line) == "" {
		m.list.blank = m.item > 0
		return
	}
	prev := m.item
	if col := listContent(line); col > 0 {
		m.item = col
	} else if line[0] != ' ' && line[0] != '\t' {
		m.item = 0 // back at the margin: the list is over
	}
	m.noteListLine(prev)
}

// listPrefix returns the indentation that keeps an element starting on
// line inside the current list item, or "" when it is not in one.
func (m *mdx) listPrefix(line string) string {
	ws := len(line) - len(strings.TrimLeft(line, " "))
	if m.item == 0 || ws < m.item {
		return ""
	}
	return strings.Repeat(" ", m.item)
}

// listContent returns the column where the content of the list item that
// line starts begins ("- ", "10. ", "  * "), or 0 when line starts none.
func listContent(line string) int {
	i := len(line) - len(strings.TrimLeft(line, " "))
	if i > 3+8 { // deeper than any nesting authors write by hand
		return 0
	}
	j := i
	switch {
	case j < len(line) && (line[j] == '-' || line[j] == '*' || line[j] == '+'):
		j++
	default:
		for j < len(line) && j-i < 9 && line[j] >= '0' && line[j] <= '9' {
			j++
		}
		if j == i || j >= len(line) || (line[j] != '.' && line[j] != ')') {
			return 0
		}
		j++
	}
	if j >= len(line) || line[j] != ' ' {
		return 0
	}
	k := j
	for k < len(line) && line[k] == ' ' && k-j < 4 {
		k++
	}
	return k
}

// indexOutsideCode is strings.Index outside code spans: `{/* x */}` in
// backticks is text, not a comment.
func indexOutsideCode(line, needle string) int {
	for i := 0; i < len(line); i++ {
		if line[i] == '`' {
			run := i
			for run < len(line) && line[run] == '`' {
				run++
			}
			ticks := line[i:run]
			if end := strings.Index(line[run:], ticks); end >= 0 {
				i = run + end + len(ticks) - 1
				continue
			}
			i = run - 1
			continue
		}
		if strings.HasPrefix(line[i:], needle) {
			return i
		}
	}
	return -1
}
