package export

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/theme"
)

// TestBrowser_codeTokensReadableInBothModes opens a page with highlighted
// JSON, YAML and Python in Chromium and reads the computed colour of
// every highlighted token against its code block's background, in light
// and dark mode: each reaches 4.5:1. JSON's braces, commas and colons
// were near-black on the dark code background before.
func TestBrowser_codeTokensReadableInBothModes(t *testing.T) {
	bin := chromium(t)
	src := mapFS(map[string]string{
		"docs.json": `{"name": "Code", "navigation": {"pages": ["index"]}}`,
		"index.mdx": "---\ntitle: Home\n---\n\n```json\n{\"id\": 7, \"tags\": [\"a\", \"b\"], \"ok\": true, \"none\": null, \"x\": 2.5}\n```\n\n" +
			"```yaml\nname: shop # a comment\nitems:\n  - 1\n  - \"two\"\n```\n\n" +
			"```python\n@decorator\ndef f(x: int) -> str:\n    return len(\"s\") + x  # sum\n```\n",
	})
	dir, _ := exportTo(t, Request{Source: src, Kind: KindAirGapped})
	b, ctx, must := browserSession(t, bin, 90*time.Second)
	u := (&url.URL{Scheme: "file", Path: filepath.Join(dir, "index.html")}).String()
	must(b.call("Page.navigate", map[string]any{"url": u}, nil))
	must(b.waitFor(ctx, `document.readyState === "complete" && document.documentElement.classList.contains("js")`))
	hex := func(s string) string {
		var r, g, bl int
		if _, err := fmt.Sscanf(s, "rgb(%d, %d, %d)", &r, &g, &bl); err != nil {
			t.Fatalf("colour %q: %v", s, err)
		}
		return fmt.Sprintf("#%02x%02x%02x", r, g, bl)
	}
	// Every token span: its class, text, colour, and the first opaque
	// background among it and its ancestors.
	const read = `JSON.stringify([...document.querySelectorAll(".code-block .chroma span[class]")].filter(s => s.textContent.trim() && !s.children.length).map(s => {
		let bg = "", e = s;
		for (; e && !bg; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor; if (c !== "rgba(0, 0, 0, 0)" && c !== "transparent") bg = c; }
		return [s.className, s.textContent, getComputedStyle(s).color, bg];
	}))`
	for _, mode := range []string{"light", "dark"} {
		must(b.eval(`document.documentElement.dataset.theme = "`+mode+`"`, nil))
		var raw string
		must(b.eval(read, &raw))
		var tokens [][4]string
		if err := json.Unmarshal([]byte(raw), &tokens); err != nil {
			t.Fatal(err)
		}
		if len(tokens) < 30 {
			t.Fatalf("%s mode: only %d highlighted tokens on the page", mode, len(tokens))
		}
		punct, worst := 0, 21.0
		for _, tok := range tokens {
			fg, bg := hex(tok[2]), hex(tok[3])
			r, ok := theme.ContrastRatio(fg, bg)
			if !ok || r < theme.MinTextContrast {
				t.Errorf("%s mode: .%s %q is %s on %s, %.2f:1", mode, tok[0], tok[1], fg, bg, r)
			}
			worst = min(worst, r)
			if tok[0] == "p" {
				punct++
			}
		}
		if punct == 0 {
			t.Errorf("%s mode: no punctuation token (.p) found", mode)
		}
		t.Logf("%s mode: %d tokens, lowest %.2f:1", mode, len(tokens), worst)
	}
}
