package mdx

import (
	"strings"
	"testing"
)

// TestUnrendered: display math is reported with the line of the first,
// not dropped silently; code that merely shows it (inside a fence) is
// not, and Mermaid diagrams, which are drawn, are not either.
func TestUnrendered(t *testing.T) {
	src := "# T\n\n```mermaid\ngraph TD\n```\n\n````md\n```mermaid\nnot a diagram\n```\n$$inside code$$\n````\n\n$$e^{2.5}$$\n\n~~~ Mermaid title\nsequenceDiagram\n~~~\n"
	got := strings.Join(Unrendered(src, 5), "\n")
	if strings.Contains(got, "Mermaid") {
		t.Errorf("diagrams are reported as left out: %q", got)
	}
	for _, want := range []string{"1 line of LaTeX math (first at line 18) is shown as typed"} {
		if !strings.Contains(got, want) {
			t.Errorf("got %q, want it to contain %q", got, want)
		}
	}
	if got := Unrendered("plain text, $5 and $6\n", 1); len(got) != 0 {
		t.Errorf("prices are reported as math: %q", got)
	}
}
