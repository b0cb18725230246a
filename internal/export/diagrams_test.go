package export

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDiagrams_onlyWherePagesHaveThem: a page with a Mermaid fence holds
// its source in pre.mermaid and loads the shipped Mermaid; a page without
// one loads nothing more, and a bundle without diagrams carries no
// Mermaid.
func TestDiagrams_onlyWherePagesHaveThem(t *testing.T) {
	src := mapFS(map[string]string{
		"docs.json":      `{"name": "D", "navigation": {"pages": ["index", "guide/flow"]}}`,
		"index.mdx":      "# Home\n\nNo diagram here.\n",
		"guide/flow.mdx": "# Flow\n\n```mermaid placement=\"top-right\"\nflowchart LR\n  A[Start] --> B{{\"<b>x</b>\"}}\n```\n",
	})
	dir, _ := exportTo(t, Request{Source: src, Kind: KindAirGapped})
	flow := readFile(t, filepath.Join(dir, "guide", "flow.html"))
	for _, want := range []string{
		`<div class="mermaid-diagram" data-placement="top-right"><pre class="mermaid">flowchart LR`,
		`B{{&#34;&lt;b&gt;x&lt;/b&gt;&#34;}}`,
		`<script src="../_static/mermaid/mermaid.min.js"></script><script src="../_static/mermaid-init.js"></script>`,
	} {
		if !strings.Contains(flow, want) {
			t.Errorf("guide/flow.html lacks %s", want)
		}
	}
	if home := readFile(t, filepath.Join(dir, "index.html")); strings.Contains(home, "mermaid") {
		t.Error("a page without a diagram loads Mermaid")
	}
	for _, f := range []string{"_static/mermaid/mermaid.min.js", "_static/mermaid/LICENSE", "_static/mermaid-init.js"} {
		if !fileExists(filepath.Join(dir, f)) {
			t.Errorf("the bundle lacks %s", f)
		}
	}
	plain, _ := exportTo(t, Request{Source: mapFS(map[string]string{"docs.json": `{"name": "P"}`, "index.mdx": "# Home\n"}), Kind: KindAirGapped})
	if fileExists(filepath.Join(plain, "_static/mermaid/mermaid.min.js")) {
		t.Error("a bundle without diagrams carries Mermaid")
	}
}

// TestBrowser_diagramsDrawnOffline opens a page with two diagrams from
// file:// in Chromium: both are drawn as SVG by the shipped Mermaid, in
// the light theme and again in the dark one when the reader switches,
// with no request leaving the bundle and no script error.
func TestBrowser_diagramsDrawnOffline(t *testing.T) {
	bin := chromium(t)
	src := mapFS(map[string]string{
		"docs.json": `{"name": "D", "navigation": {"pages": ["index"]}}`,
		"index.mdx": "# Home\n\n```mermaid\nflowchart LR\n  A[Start] --> B[End]\n```\n\nText.\n\n```mermaid\nsequenceDiagram\n  Alice->>Bob: Hi\n```\n",
	})
	dir, _ := exportTo(t, Request{Source: src, Kind: KindAirGapped})
	b, ctx, must := browserSession(t, bin, 90*time.Second)
	tr, err := watch(b)
	must(err)
	u := (&url.URL{Scheme: "file", Path: filepath.Join(dir, "index.html")}).String()
	must(b.call("Page.navigate", map[string]any{"url": u}, nil))
	drawn := `document.querySelectorAll("pre.mermaid[data-processed] svg").length === 2`
	must(b.waitFor(ctx, `document.readyState === "complete" && `+drawn))
	fill := func() string {
		var s string
		must(b.eval(`getComputedStyle(document.querySelector("pre.mermaid svg .node rect, pre.mermaid svg rect")).fill`, &s))
		return s
	}
	light := fill()
	must(b.eval(`document.documentElement.dataset.theme = "dark"`, nil))
	must(b.waitFor(ctx, drawn+` && getComputedStyle(document.querySelector("pre.mermaid svg .node rect, pre.mermaid svg rect")).fill !== `+jsString(light)))
	dark := fill()
	t.Logf("a node's fill: %s in light mode, %s in dark mode", light, dark)
	var errs string
	must(b.eval(`document.querySelectorAll("pre.mermaid svg [aria-roledescription=error], .error-icon").length + ""`, &errs))
	if errs != "0" {
		t.Errorf("%s diagrams show Mermaid's error", errs)
	}
	if out := tr.leaving(); len(out) > 0 {
		t.Errorf("requests left the bundle: %v", out)
	}
	if len(tr.violations) > 0 {
		t.Errorf("the page's policy refused: %v", tr.violations)
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// TestBrowser_mathTypesetOffline opens a page with inline and display
// math from file:// in Chromium: KaTeX's markup (typeset at export time)
// is styled by the bundle's stylesheet with its own fonts, in light and
// dark mode the formula's colour is the text's, and nothing leaves the
// bundle; a page without math links no KaTeX.
func TestBrowser_mathTypesetOffline(t *testing.T) {
	bin := chromium(t)
	src := mapFS(map[string]string{
		"docs.json": `{"name": "M", "navigation": {"pages": ["index", "plain"]}}`,
		"index.mdx": "# Home\n\nThe theorem $(a^2 + b^2 = c^2)$ holds.\n\n$$\n\\int_0^1 x^2\\,dx = \\frac{1}{3}\n$$\n",
		"plain.mdx": "# Plain\n\nNo math, only $5 and $6.\n",
	})
	dir, _ := exportTo(t, Request{Source: src, Kind: KindAirGapped})
	if plain := readFile(t, filepath.Join(dir, "plain.html")); strings.Contains(plain, "katex") {
		t.Error("a page without math links KaTeX")
	}
	if css := readFile(t, filepath.Join(dir, "_static/katex/katex.min.css")); strings.Contains(css, ".woff)") || strings.Contains(css, ".ttf)") {
		t.Error("the stylesheet names font files the bundle does not ship")
	}
	b, ctx, must := browserSession(t, bin, 90*time.Second)
	tr, err := watch(b)
	must(err)
	u := (&url.URL{Scheme: "file", Path: filepath.Join(dir, "index.html")}).String()
	must(b.call("Page.navigate", map[string]any{"url": u}, nil))
	must(b.waitFor(ctx, `document.readyState === "complete" && document.fonts.status === "loaded"`))
	var got struct {
		Formulas, Display  int
		MainFont, MathFont bool
		Family             string
	}
	must(b.eval(`({
		Formulas: document.querySelectorAll(".katex").length,
		Display: document.querySelectorAll(".katex-display").length,
		MainFont: [...document.fonts].some(f => f.family.includes("KaTeX_Main") && f.status === "loaded"),
		MathFont: [...document.fonts].some(f => f.family.includes("KaTeX_Math") && f.status === "loaded"),
		Family: getComputedStyle(document.querySelector(".katex")).fontFamily,
	})`, &got))
	if got.Formulas != 2 || got.Display != 1 || !got.MainFont || !got.MathFont || !strings.Contains(got.Family, "KaTeX_Main") {
		t.Errorf("typeset: %+v", got)
	}
	for _, mode := range []string{"light", "dark"} {
		must(b.eval(`document.documentElement.dataset.theme = "`+mode+`"`, nil))
		var same bool
		must(b.eval(`getComputedStyle(document.querySelector(".katex-html")).color === getComputedStyle(document.querySelector(".prose p")).color`, &same))
		if !same {
			t.Errorf("%s mode: a formula is not in the text's colour", mode)
		}
	}
	if out := tr.leaving(); len(out) > 0 {
		t.Errorf("requests left the bundle: %v", out)
	}
	if len(tr.violations) > 0 {
		t.Errorf("the page's policy refused: %v", tr.violations)
	}
}
