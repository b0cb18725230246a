package mdx

import (
	"strings"
	"testing"
)

// TestUnrendered: Mermaid fences and display math are reported with the
// line of the first, not dropped silently; code that merely shows them
// (inside another fence) is not.
func TestUnrendered(t *testing.T) {
	src := "# T\n\n```mermaid\ngraph TD\n```\n\n````md\n```mermaid\nnot a diagram\n```\n$$inside code$$\n````\n\n$$e^{2.5}$$\n\n~~~ Mermaid title\nsequenceDiagram\n~~~\n"
	got := strings.Join(Unrendered(src, 5), "\n")
	for _, want := range []string{"2 Mermaid diagrams (first at line 7) are shown as code", "1 line of LaTeX math (first at line 18) is shown as typed"} {
		if !strings.Contains(got, want) {
			t.Errorf("got %q, want it to contain %q", got, want)
		}
	}
	if got := Unrendered("plain text, $5 and $6\n", 1); len(got) != 0 {
		t.Errorf("prices are reported as math: %q", got)
	}
}
