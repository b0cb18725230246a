package mdx

import "strings"

// The Markdown parser's cost grows with the square of some input shapes:
// deeply nested block quotes and lists, and many emphasis or link
// delimiters in one paragraph. No real page comes near these bounds;
// beyond them the extra markers are escaped and render as the characters
// written, which keeps a hostile page linear to render.
//
// The parser also keeps a record per line and per open block until the
// top-level block closes, so a long, deeply nested list holds about one
// record (24 bytes, grown in steps) per byte of the page. Past
// maxBlockRecords the top level is closed by an empty HTML comment between
// blank lines before the next line that starts at the margin: a list goes
// on as a second list (an ordered one from the same number), which a
// reader does not see. A page that never comes back to the margin is
// closed wherever it reaches four times the bound. Either way the memory
// of one render stays bounded.
const (
	maxBlockDepth       = 32      // block quote and list markers opening one line
	maxIndent           = 128     // leading spaces kept outside code fences
	maxParagraphDelims  = 512     // emphasis and link delimiters per paragraph
	maxBlockRecords     = 1 << 16 // line-and-open-block records per top-level block
	boundDelimiterBytes = "*_~[]"
	topLevelBreak       = "\n<!-- -->\n\n"
)

// Bound applies the bounds above to preprocessed Markdown, in one
// pass. Fenced code and HTML lines pass unchanged: escapes there would show.
func Bound(md string) string {
	var b strings.Builder
	changed := false
	fence := ""
	delims := 0
	records, blank := 0, true // records since the top level last closed
	rest := md
	for len(rest) > 0 {
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i+1], rest[i+1:]
		} else {
			rest = ""
		}
		out, before := line, ""
		trimmed := strings.TrimLeft(line, " \t")
		ws := len(line) - len(trimmed)
		wasBlank := blank
		blank = fence == "" && strings.TrimSpace(line) == ""
		if fence == "" && !blank {
			switch {
			case ws == 0 && (wasBlank || trimmed[0] == '#') && listMarkerEnd(trimmed, 0) == 0:
				records = 0 // a heading or a paragraph after a blank line closes the top level
			case records > maxBlockRecords && ws == 0, records > 4*maxBlockRecords:
				before, records = topLevelBreak, 0
			}
		}
		markers := 0
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[:3]
		case blank:
			delims = 0 // a blank line ends the paragraph
		case strings.HasPrefix(trimmed, "<"):
		default:
			out, markers = boundLine(line, &delims)
		}
		// Each list level takes two records and at least two columns.
		records += min(ws, maxIndent) + 2*markers + 2
		if (out != line || before != "") && !changed {
			changed = true
			b.Grow(len(md) + 64)
			b.WriteString(md[:len(md)-len(rest)-len(line)])
		}
		if changed {
			b.WriteString(before)
			b.WriteString(out)
		}
	}
	if !changed {
		return md
	}
	return b.String()
}

// boundLine bounds one line of a paragraph; delims counts the paragraph's
// delimiters so far. It also returns the number of container markers
// opening the line.
func boundLine(line string, delims *int) (string, int) {
	// Indentation past maxIndent nests nothing a reader could see.
	ws := len(line) - len(strings.TrimLeft(line, " \t"))
	trimmed := ws > maxIndent
	if trimmed {
		line = line[:maxIndent] + line[ws:]
	}
	// Count container markers opening the line: "> - > 1. > ...".
	depth, i := 0, min(ws, maxIndent)
	for i < len(line) {
		j := i + listMarkerEnd(line, i)
		if line[i] == '>' {
			j = i + 1
		}
		if j == i {
			break
		}
		if depth++; depth > maxBlockDepth {
			// Escaping the next marker ends the nesting there.
			return escapeRest(line, i, true, delims), depth
		}
		for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
			j++
		}
		i = j
	}
	if !trimmed && *delims+strings.Count(line, "*")+strings.Count(line, "_") < maxParagraphDelims &&
		!strings.ContainsAny(line, "~[]") {
		*delims += strings.Count(line, "*") + strings.Count(line, "_")
		return line, depth
	}
	return escapeRest(line, i, false, delims), depth
}

// listMarkerEnd is the length of the list marker ("-", "*", "+", "1." or
// "1)") at line[i:], or 0 if none starts there.
func listMarkerEnd(line string, i int) int {
	switch c := line[i]; {
	case (c == '-' || c == '*' || c == '+') && i+1 < len(line) && (line[i+1] == ' ' || line[i+1] == '\t'):
		return 1
	case c >= '0' && c <= '9':
		j := i
		for j < len(line) && j-i < 9 && line[j] >= '0' && line[j] <= '9' {
			j++
		}
		if j < len(line) && (line[j] == '.' || line[j] == ')') {
			return j + 1 - i
		}
	}
	return 0
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
