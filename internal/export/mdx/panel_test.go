package mdx

import "testing"

func TestSplitPanel(t *testing.T) {
	for _, c := range []struct{ name, in, panel, rest string }{
		{"none", `<p>a</p>`, ``, `<p>a</p>`},
		{"one", `<p>a</p><aside class="side-panel"><div class="callout"><p>pin</p></div></aside><p>b</p>`,
			`<div class="callout"><p>pin</p></div>`, `<p>a</p><p>b</p>`},
		{"nested aside", `<aside class="side-panel"><aside class="x">in</aside>more</aside>after`, `<aside class="x">in</aside>more`, `after`},
		{"two in order", `<aside class="side-panel">1</aside>mid<aside class="side-panel">2</aside>`, `12`, `mid`},
		{"other asides stay", `<aside class="note">n</aside>`, ``, `<aside class="note">n</aside>`},
		{"unterminated", `x<aside class="side-panel"><p>open`, `<p>open`, `x`},
	} {
		t.Run(c.name, func(t *testing.T) {
			panel, rest := SplitPanel([]byte(c.in))
			if string(panel) != c.panel || string(rest) != c.rest {
				t.Errorf("panel %q rest %q, want %q and %q", panel, rest, c.panel, c.rest)
			}
		})
	}
}
