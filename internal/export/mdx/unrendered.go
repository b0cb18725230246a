package mdx

import (
	"strconv"
	"strings"
)

// Unrendered lists what a page's source holds that the export shows
// without rendering it as the platform does, so that the job says so
// instead of dropping it silently: display math ($$…$$ outside code, the
// <Latex> component) stays as typed. Each entry names the line
// of the first occurrence; firstLine is the line src starts on.
func Unrendered(src string, firstLine int) []string {
	var fence codeFence
	var math, mathAt int
	n := firstLine - 1
	for line := range strings.Lines(src) {
		n++
		trimmed := strings.TrimSpace(line)
		if fence.inside() {
			fence.close(trimmed)
			continue
		}
		if fence.open(trimmed) {
			continue
		}
		if strings.Contains(trimmed, "$$") || strings.HasPrefix(trimmed, "<Latex") {
			if math++; math == 1 {
				mathAt = n
			}
		}
	}
	var out []string
	if math > 0 {
		out = append(out, plural(math, "line")+" of LaTeX math (first at line "+strconv.Itoa(mathAt)+") "+isAre(math)+" shown as typed: the export does not typeset LaTeX yet")
	}
	return out
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}
