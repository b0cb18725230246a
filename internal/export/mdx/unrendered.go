package mdx

import (
	"strconv"
	"strings"
)

// Unrendered lists what a page's source holds that the export shows
// without rendering it as the platform does, so that the job says so
// instead of dropping it silently: Mermaid diagrams (fences whose
// language is mermaid) stay code blocks, and display math ($$…$$ outside
// code, the <Latex> component) stays as typed. Each entry names the line
// of the first occurrence; firstLine is the line src starts on.
func Unrendered(src string, firstLine int) []string {
	var fence codeFence
	var mermaid, math, mermaidAt, mathAt int
	n := firstLine - 1
	for line := range strings.Lines(src) {
		n++
		trimmed := strings.TrimSpace(line)
		if fence.inside() {
			fence.close(trimmed)
			continue
		}
		if fence.open(trimmed) {
			lang, _, _ := strings.Cut(strings.TrimLeft(trimmed[len(fence):], " "), " ")
			if strings.EqualFold(lang, "mermaid") {
				if mermaid++; mermaid == 1 {
					mermaidAt = n
				}
			}
			continue
		}
		if strings.Contains(trimmed, "$$") || strings.HasPrefix(trimmed, "<Latex") {
			if math++; math == 1 {
				mathAt = n
			}
		}
	}
	var out []string
	if mermaid > 0 {
		out = append(out, plural(mermaid, "Mermaid diagram")+" (first at line "+strconv.Itoa(mermaidAt)+") "+isAre(mermaid)+" shown as code: the export does not draw Mermaid diagrams yet")
	}
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
