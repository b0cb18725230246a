package jsx

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

func mathPage(t *testing.T, budget time.Duration) *Page {
	t.Helper()
	m := NewModules(Options{
		Load: func(string) (string, error) { return "", errors.New("no files") },
		ESM:  func(s string) string { return s },
		Builtin: func(string, map[string]string, map[string]markup.HTML) (markup.HTML, markup.HTML) {
			return markup.HTML{}, markup.HTML{}
		},
		Budget: budget,
	})
	t.Cleanup(m.Close)
	p := m.NewPage(context.Background(), nil)
	t.Cleanup(p.Close)
	return p
}

// TestMath_typeset: KaTeX typesets inline and display formulas into its
// HTML and MathML, which pass the markup check; a formula KaTeX refuses
// says why; \href stays off.
func TestMath_typeset(t *testing.T) {
	p := mathPage(t, 0)
	h, err := p.Math(`e^{2.5} + \frac{a}{b}`, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<span class="katex">`, `<math xmlns="http://www.w3.org/1998/Math/MathML">`, `<mfrac>`, `2.5`} {
		if !strings.Contains(h.String(), want) {
			t.Errorf("inline: no %s in %s", want, h)
		}
	}
	h, err = p.Math(`\sqrt{x^2 + y^2}`, true)
	if err != nil || !strings.Contains(h.String(), `class="katex-display"`) || !strings.Contains(h.String(), "<svg") {
		t.Errorf("display: %v %s", err, h)
	}
	if _, err := p.Math(`\frac{1}{`, false); err == nil || !strings.Contains(err.Error(), "expected '}'") {
		t.Errorf("an unclosed group: %v", err)
	}
	h, err = p.Math(`\href{javascript:alert(1)}{x}`, false)
	if err == nil && (strings.Contains(h.String(), "<a ") || strings.Contains(h.String(), " href=")) {
		t.Errorf("\\href made a link: %s", h)
	}
}

// TestMath_boundedByTheBudget: a macro that expands forever is stopped
// (by KaTeX's own expansion bound, or the page's budget) and the next
// formula of the page still gets an answer or the budget's error, never
// a hang.
func TestMath_boundedByTheBudget(t *testing.T) {
	p := mathPage(t, 2*time.Second)
	start := time.Now()
	_, err := p.Math(`\def\a{\a\a}\a`, false)
	if err == nil {
		t.Fatal("an endless macro was typeset")
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("an endless macro held the page for %v", d)
	}
	t.Logf("an endless macro: %v", err)
}

func TestTexAllowed_refusesOtherMarkup(t *testing.T) {
	for _, s := range []string{
		`<span class="katex"><script>alert(1)</script></span>`,
		`<span onclick="x">a</span>`,
		`<span style="background:url(https://x.example/)">a</span>`,
		`<a href="https://x.example/">a</a>`,
		`<img src="x">`,
	} {
		if h, err := texAllowed(s); err == nil {
			t.Errorf("%s passed as %s", s, h)
		}
	}
	if h, err := texAllowed(`<span class="mord" style="height:0.8em;">x &lt; y</span>`); err != nil || h.String() != `<span class="mord" style="height:0.8em;">x &lt; y</span>` {
		t.Errorf("KaTeX's own markup: %v %s", err, h)
	}
}
