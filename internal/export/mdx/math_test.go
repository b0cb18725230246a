package mdx

import (
	"errors"
	"strings"
	"testing"
)

// TestMath_typesetAtExportTime: inline and display formulas become
// KaTeX's markup; prices, code, escaped dollars and an unclosed block
// stay text.
func TestMath_typesetAtExportTime(t *testing.T) {
	src := "The theorem: $(a^2 + b^2 = c^2)$ holds.\n\n$$\nE = mc^2\n$$\n\n$$ \\int_0^1 x\\,dx $$\n\n" +
		"It costs $5 and $6, or \\$7. Code: `$x$`.\n\n```tex\n$$not math$$\n```\n\n<Note>\n  Inside: $x_1$\n</Note>\n"
	got, warns := renderPage(t, src, nil)
	if len(warns) > 0 {
		t.Errorf("warnings: %q", warns)
	}
	if n := strings.Count(got, `<span class="katex">`); n != 4 {
		t.Errorf("%d formulas typeset, want 4:\n%s", n, got)
	}
	if n := strings.Count(got, `<span class="katex-display">`); n != 2 {
		t.Errorf("%d display blocks, want 2", n)
	}
	inOrder(t, got, []string{
		"<p>The theorem: <span class=\"katex\">", "</span> holds.</p>",
		`<span class="katex-display">`, "E = mc^2", // the MathML annotation keeps the TeX
		"It costs $5 and $6, or $7. Code: <code>$x$</code>.",
		"not math",
		`callout-body`, "Inside: <span class=\"katex\">",
	}, []string{"$$\nE"})
}

// TestMath_refusedFormulaIsWarned: a formula KaTeX refuses is shown as
// typed, and the warning names the page, the line and the formula.
func TestMath_refusedFormulaIsWarned(t *testing.T) {
	got, warns := renderPage(t, "# T\n\nGood $x$ and bad $\\frac{1}{$ here.\n", nil)
	if !strings.Contains(got, `$\frac{1}{$ here.`) || strings.Count(got, `class="katex"`) != 1 {
		t.Errorf("got:\n%s", got)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], `$\frac{1}{$ (line 3 of guides/page.mdx) could not be typeset`) {
		t.Errorf("warnings: %q", warns)
	}
}

// TestMath_linearOnManyDollars: a line of thousands of dollars that
// never close is read once, not once per dollar.
func TestMath_linearOnManyDollars(t *testing.T) {
	load := func(string) (string, error) { return "", errors.New("no files") }
	line := strings.Repeat("$a ", 50000) + "\n"
	p := PreprocessPageIn(line, load, "p.mdx", 1, EnglishLabels)
	if p.HasComponents() {
		t.Error("dollars that never close were read as formulas")
	}
}

// TestMath_unclosedBlockIsText: $$ that never closes is text, kept
// whole.
func TestMath_unclosedBlockIsText(t *testing.T) {
	got, _ := renderPage(t, "$$\nx = 1\n\nMore text.\n", nil)
	inOrder(t, got, []string{"$$", "x = 1", "More text."}, []string{"katex"})
}

// TestMath_offBySetting: with docs.json styling.latex false, dollars
// are text on the page and in snippets it inlines.
func TestMath_offBySetting(t *testing.T) {
	load := func(string) (string, error) { return "Snippet $y$.\n", nil }
	src := "import Part from \"/snippets/part.mdx\"\n\nCosts $x$ here.\n\n$$\nE = mc^2\n$$\n\n<Part />\n"
	p := PreprocessPageWith(src, load, "p.mdx", 1, PageOptions{Labels: EnglishLabels, NoMath: true})
	if p.HasComponents() || !strings.Contains(p.Markdown, "Costs $x$ here.") || !strings.Contains(p.Markdown, "$$\nE = mc^2\n$$") ||
		!strings.Contains(p.Markdown, "Snippet $y$.") {
		t.Errorf("math was read:\n%s", p.Markdown)
	}
	if on := PreprocessPageWith(src, load, "p.mdx", 1, PageOptions{Labels: EnglishLabels}); !on.HasComponents() {
		t.Error("without the setting, no formula was read")
	}
}
