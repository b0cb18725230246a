package mdx

import (
	"errors"
	"strings"
	"testing"
)

func TestExpressions_evaluated(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
		not       []string
	}{
		{"inText", "export const slug = \"intro\"\n\nThe value is {1 + 1} and {slug.toUpperCase()}.",
			[]string{"<p>The value is 2 and INTRO.</p>"}, []string{"{"}},
		{"aloneIsABlock", "{[1, 2].map(n => <b key={n}>{n}</b>)}",
			[]string{"<b>1</b><b>2</b>"}, []string{"<p>"}},
		{"overLines", "export const plans = [{name: \"A\"}, {name: \"B\"}]\n\n{plans.map(p => (\n  <Card title={p.name}>\n    Plan {p.name}\n  </Card>\n))}\n\nAfter.",
			[]string{`<p class="card-title">A</p>`, "Plan A", `<p class="card-title">B</p>`, "Plan B", "<p>After.</p>"}, []string{"plans.map"}},
		{"jsxAsATitle", "<Card title={<span className=\"x\">Beta</span>} href=\"/b\">\nBody\n</Card>",
			[]string{`<a class="card-title card-link" href="/b"><span class="x">Beta</span></a>`}, []string{"&lt;span"}},
		{"jsxAsAnIcon", "<Card title=\"T\" icon={<svg viewBox=\"0 0 1 1\"><path d=\"M0 0\"/></svg>}>\nB\n</Card>",
			[]string{`<span class="card-icon"><svg viewBox="0 0 1 1"><path d="M0 0"></path></svg></span>`}, nil},
		{"fragmentAsALabel", "<Accordion title={<><Icon icon=\"rocket\" /> Start</>}>\nIn.\n</Accordion>",
			[]string{"<summary>", `<span class="icon"`, " Start</summary>"}, []string{"&lt;"}},
		{"computedHref", "export const slug = \"x\"\n\n<Card title=\"Go\" href={\"/docs/\" + slug}>\nB\n</Card>",
			[]string{`href="/docs/x"`}, nil},
		{"scriptInAValueIsLeftOut", "<Card title={<span onClick=\"alert(1)\">A<script>alert(2)</script></span>}>\nB\n</Card>",
			[]string{`<p class="card-title"><span>A</span></p>`}, []string{"alert"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, warnings := renderPage(t, tt.src, nil)
			if len(warnings) > 0 {
				t.Errorf("warnings: %q", warnings)
			}
			inOrder(t, got, tt.want, tt.not)
		})
	}
}

// TestExpressions_failureIsShownAndWarned: an expression that throws is
// shown as written, and the warning names the page, the line and the
// expression; the rest of the page renders.
func TestExpressions_failureIsShownAndWarned(t *testing.T) {
	got, warnings := renderPage(t, "# Title\n\nBefore {1 + 1}.\n\nAfter {nope.x} end.", nil)
	if !strings.Contains(got, "<p>Before 2.</p>") || !strings.Contains(got, "<p>After {nope.x} end.</p>") {
		t.Fatalf("got:\n%s", got)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "{nope.x}") || !strings.Contains(warnings[0], "line 5 of guides/page.mdx") ||
		!strings.Contains(warnings[0], "nope is not defined") {
		t.Fatalf("warnings: %q", warnings)
	}
}

// TestExpressions_literalsNeedNoEvaluator: literals and comments are
// read as written, so a page of them starts no evaluator.
func TestExpressions_literalsNeedNoEvaluator(t *testing.T) {
	load := func(string) (string, error) { return "", errors.New("no files") }
	p := PreprocessPageIn("A {\"b\"} {42} {/* c */} {true} {null}.\n\n<b>x</b>{\" \"}y", load, "p.mdx", 1, EnglishLabels)
	if p.HasComponents() {
		t.Fatalf("literals were sent to the evaluator:\n%s", p.Markdown)
	}
	if !strings.Contains(p.Markdown, "A b 42   .") {
		t.Fatalf("markdown:\n%s", p.Markdown)
	}
}
