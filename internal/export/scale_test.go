package export

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// hostilePages generate pages of about n bytes in the shapes that once
// made rendering quadratic: broken component tags, deep nesting, many
// delimiters in one paragraph.
var hostilePages = map[string]func(n int) string{
	"unterminated attr":  func(n int) string { return "x " + strings.Repeat("<Tag attr={ ", n/12) },
	"nested braces":      func(n int) string { return strings.Repeat("<A b={ ", n/14) + strings.Repeat("} ", n/14) + "!" },
	"unterminated quote": func(n int) string { return "x " + strings.Repeat(`<A b="`, n/6) },
	"tag lines":          func(n int) string { return strings.Repeat("<A b={ "+strings.Repeat("y", 1000)+"\n", n/1008) },
	"props braces":       func(n int) string { return strings.Repeat("{", n) },
	"block quotes":       func(n int) string { return strings.Repeat(">", n) + " x" },
	"inline lists":       func(n int) string { return strings.Repeat("- ", n/2) + "x" },
	"indented lists": func(n int) string {
		var b strings.Builder
		for i := 0; b.Len() < n; i++ {
			b.WriteString(strings.Repeat("  ", i%100) + "- a\n")
		}
		return b.String()
	},
	"brackets":   func(n int) string { return strings.Repeat("[", n) },
	"emphasis":   func(n int) string { return strings.Repeat("*a_", n/3) },
	"links":      func(n int) string { return strings.Repeat("[a](", n/4) },
	"components": func(n int) string { return strings.Repeat("<Note>\n", n/7) },
	"html":       func(n int) string { return strings.Repeat("<div>", n/5) },
}

// renderCost is the time of one render of page, measured as the best of
// three batches of renders of at least 20 ms each: the minimum is what the
// algorithm costs, without the noise of a shared machine.
func renderCost(md interface{ render(string) }, page string) time.Duration {
	best := time.Duration(1 << 62)
	for range 3 {
		start, n := time.Now(), 0
		for n == 0 || time.Since(start) < 20*time.Millisecond {
			md.render(page)
			n++
		}
		best = min(best, time.Since(start)/time.Duration(n))
	}
	return best
}

type pageRenderer struct{ buf bytes.Buffer }

func (r *pageRenderer) render(page string) {
	r.buf.Reset()
	out := boundMarkdown(preprocess(page, nil, map[string]string{}, 0))
	_, _ = markdownToHTML(testMarkdown, []byte(out), &r.buf)
}

var testMarkdown = newMarkdown()

// TestRender_linearInPageSize renders each hostile shape at two sizes:
// doubling the page must at most about double the time (2.5x allowed for
// noise), where a quadratic step shows 4x. A ratio is measured up to
// five times and the best kept, so one descheduled run cannot fail it.
func TestRender_linearInPageSize(t *testing.T) {
	if testing.Short() {
		t.Skip("renders about 20 MB of hostile pages")
	}
	const n = 128 << 10
	r := &pageRenderer{}
	for name, gen := range hostilePages {
		small, large := gen(n), gen(2*n)
		ratio := 1e9
		for range 5 {
			ratio = min(ratio, float64(renderCost(r, large))/float64(max(renderCost(r, small), time.Microsecond)))
			if ratio <= 2.5 {
				break
			}
		}
		t.Logf("%-20s 2x input: %.2fx time", name, ratio)
		if ratio > 2.5 {
			t.Errorf("%s: doubling the page multiplies the render time by %.2f, want at most 2.5", name, ratio)
		}
	}
}
