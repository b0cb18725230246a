package export

import (
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestBrowser_diagramControls: from file://, a diagram taller than
// 120 px has the zoom and pan controls of the platform's diagrams in the
// corner its placement names (bottom-right by default); a small one has
// none unless its fence says actions, and actions={false} hides them on
// a tall one. The buttons move the drawing, reset puts it back, a theme
// switch keeps the view, and the labels are in the page's language.
func TestBrowser_diagramControls(t *testing.T) {
	bin := chromium(t)
	tall := "flowchart TB\n  A --> B\n  B --> C\n  C --> D\n  D --> E\n"
	small := "flowchart LR\n  A --> B\n"
	page := "---\ntitle: Diagrams\n---\n\n" +
		"```mermaid placement=\"top-left\"\n" + tall + "```\n\n" +
		"```mermaid\n" + small + "```\n\n" +
		"```mermaid actions\n" + small + "```\n\n" +
		"```mermaid actions={false}\n" + tall + "```\n"
	dir, _ := exportTo(t, Request{Kind: KindAirGapped, Source: mapFS(map[string]string{
		"docs.json":    `{"name": "D", "navigation": {"languages": [{"language": "en", "pages": ["index"]}, {"language": "fr", "pages": ["fr/index"]}]}}`,
		"index.mdx":    page,
		"fr/index.mdx": page,
	})})
	if html := readFile(t, filepath.Join(dir, "index.html")); !strings.Contains(html, `<div class="mermaid-diagram" data-placement="top-left">`) ||
		!strings.Contains(html, `<div class="mermaid-diagram" data-actions="true">`) || !strings.Contains(html, `<div class="mermaid-diagram" data-actions="false">`) {
		t.Fatalf("the fences' options are not on the diagrams:\n%s", html)
	}
	b, ctx, must := browserSession(t, bin, 90*time.Second)
	open := func(page string) {
		u := (&url.URL{Scheme: "file", Path: filepath.Join(dir, page)}).String()
		must(b.call("Page.navigate", map[string]any{"url": u}, nil))
		must(b.waitFor(ctx, `document.readyState === "complete" && document.querySelectorAll("pre.mermaid[data-processed] svg").length === 4 && document.querySelectorAll(".diagram-controls").length > 0`))
	}
	open("index.html")
	var placed []string
	must(b.eval(`[...document.querySelectorAll(".mermaid-diagram")].map(d => { const c = d.querySelector(".diagram-controls"); return c ? c.className.replace("diagram-controls ", "") : "none"; })`, &placed))
	if want := []string{"top-left", "none", "bottom-right", "none"}; !slices.Equal(placed, want) {
		t.Errorf("controls: %q, want %q", placed, want)
	}
	transform := func() string {
		var s string
		must(b.eval(`document.querySelector(".mermaid-diagram svg").style.transform`, &s))
		return s
	}
	must(b.eval(`document.querySelector(".diagram-zoomIn").click(); document.querySelector(".diagram-moveRight").click(); document.querySelector(".diagram-moveUp").click()`, nil))
	if got := transform(); got != "translate(40px, -40px) scale(1.25)" {
		t.Errorf("after zoom in, right and up: %q", got)
	}
	must(b.eval(`document.querySelector(".theme-toggle").click()`, nil))
	must(b.waitFor(ctx, `document.documentElement.dataset.theme === "dark" && document.querySelector(".mermaid-diagram svg").style.transform !== ""`))
	if got := transform(); got != "translate(40px, -40px) scale(1.25)" {
		t.Errorf("after a theme switch: %q", got)
	}
	must(b.eval(`document.querySelector(".diagram-resetView").click()`, nil))
	if got := transform(); got != "translate(0px, 0px) scale(1)" {
		t.Errorf("after reset: %q", got)
	}
	open("fr/index.html")
	var label string
	must(b.eval(`document.querySelector(".diagram-zoomIn").getAttribute("aria-label")`, &label))
	if label != "Zoom avant" {
		t.Errorf("French page: zoom in is labelled %q", label)
	}
}
