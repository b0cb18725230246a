package mdx

import "strings"

// codeFence follows fenced code blocks through a page line by line: it
// holds the open fence's marker ("```", "~~~~", ...), or "" outside code.
// A fence closes at a line of at least as many of its characters and
// nothing else, as in CommonMark.
type codeFence string

// inside reports whether a fenced block is open.
func (f codeFence) inside() bool { return f != "" }

// close reads a trimmed line inside a block and closes the block if the
// line is its closing fence.
func (f *codeFence) close(trimmed string) {
	if strings.HasPrefix(trimmed, string(*f)) && strings.Trim(trimmed, string((*f)[:1])) == "" {
		*f = ""
	}
}

// open reads a trimmed line outside code and reports whether it opens a
// fenced block.
func (f *codeFence) open(trimmed string) bool {
	if !strings.HasPrefix(trimmed, "```") && !strings.HasPrefix(trimmed, "~~~") {
		return false
	}
	*f = codeFence(trimmed[:len(trimmed)-len(strings.TrimLeft(trimmed, trimmed[:1]))])
	return true
}
