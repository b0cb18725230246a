package export

import "strings"

// The Markdown parser's cost grows with the square of some input shapes:
// deeply nested block quotes and lists, and many emphasis or link
// delimiters in one paragraph. No real page comes near these bounds;
// beyond them the extra markers are escaped and render as the characters
// written, which keeps a hostile page linear to render.
const (
	maxBlockDepth       = 32  // block quote and list markers opening one line
	maxIndent           = 128 // leading spaces kept outside code fences
	maxParagraphDelims  = 512 // emphasis and link delimiters per paragraph
	boundDelimiterBytes = "*_~[]"
)

// boundMarkdown applies the bounds above to preprocessed Markdown, in one
// pass. Fenced code and HTML lines pass unchanged: escapes there would show.
func boundMarkdown(md string) string {
	var b strings.Builder
	changed := false
	fence := ""
	delims := 0
	rest := md
	for len(rest) > 0 {
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i+1], rest[i+1:]
		} else {
			rest = ""
		}
		out := line
		trimmed := strings.TrimLeft(line, " \t")
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[:3]
		case strings.TrimSpace(line) == "":
			delims = 0 // a blank line ends the paragraph
		case strings.HasPrefix(trimmed, "<"):
		default:
			out = boundLine(line, &delims)
		}
		if out != line && !changed {
			changed = true
			b.Grow(len(md) + 64)
			b.WriteString(md[:len(md)-len(rest)-len(line)])
		}
		if changed {
			b.WriteString(out)
		}
	}
	if !changed {
		return md
	}
	return b.String()
}

// boundLine bounds one line of a paragraph; delims counts the paragraph's
// delimiters so far.
func boundLine(line string, delims *int) string {
	// Indentation past maxIndent nests nothing a reader could see.
	ws := len(line) - len(strings.TrimLeft(line, " \t"))
	trimmed := ws > maxIndent
	if trimmed {
		line = line[:maxIndent] + line[ws:]
	}
	// Count container markers opening the line: "> - > 1. > ...".
	depth, i := 0, min(ws, maxIndent)
	for i < len(line) {
		j := i
		switch c := line[i]; {
		case c == '>':
			j = i + 1
		case (c == '-' || c == '*' || c == '+') && i+1 < len(line) && (line[i+1] == ' ' || line[i+1] == '\t'):
			j = i + 1
		case c >= '0' && c <= '9':
			for j < len(line) && j-i < 9 && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j >= len(line) || (line[j] != '.' && line[j] != ')') {
				j = i
				break
			}
			j++
		}
		if j == i {
			break
		}
		if depth++; depth > maxBlockDepth {
			// Escaping the next marker ends the nesting there.
			return escapeRest(line, i, true, delims)
		}
		for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
			j++
		}
		i = j
	}
	if !trimmed && *delims+strings.Count(line, "*")+strings.Count(line, "_") < maxParagraphDelims &&
		!strings.ContainsAny(line, "~[]") {
		*delims += strings.Count(line, "*") + strings.Count(line, "_")
		return line
	}
	return escapeRest(line, i, false, delims)
}

// escapeRest copies line, escaping the container marker at from when
// marker is set and every delimiter past the paragraph's budget; code
// spans are left alone, since a backslash in them would show.
func escapeRest(line string, from int, marker bool, delims *int) string {
	b := make([]byte, 0, len(line)+16)
	b = append(b, line[:from]...)
	if marker {
		b = append(b, '\\')
	}
	inCode := false
	for k := from; k < len(line); k++ {
		c := line[k]
		switch {
		case c == '`':
			inCode = !inCode
		case !inCode && c == '\\' && k+1 < len(line):
			b = append(b, c, line[k+1]) // an escape stays an escape
			k++
			continue
		case !inCode && strings.IndexByte(boundDelimiterBytes, c) >= 0:
			if *delims++; *delims > maxParagraphDelims {
				b = append(b, '\\')
			}
		}
		b = append(b, c)
	}
	return string(b)
}
