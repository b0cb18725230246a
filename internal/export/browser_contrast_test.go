package export

import (
	"fmt"
	"net/url"
	"path/filepath"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/theme"
)

// TestBrowser_contrastInBothModes opens a page of a site whose primary
// colour is a bright yellow (1.2:1 on white) in Chromium, and reads the
// computed colours of a link, the body text and the banner in light and
// dark mode: each reaches WCAG AA's 4.5:1 on its background. Then a
// strict dark site keeps dark mode even when a reader's stored choice
// says light, and has no toggle.
func TestBrowser_contrastInBothModes(t *testing.T) {
	bin := chromium(t)
	src := mapFS(map[string]string{
		"docs.json": `{"name": "Bright", "colors": {"primary": "#FFE600", "light": "#1e3a8a"}, "banner": {"content": "News"},
			"navigation": {"pages": ["index"]}}`,
		"index.mdx": "---\ntitle: Home\n---\n\nBody text with [a link](https://example.com/) in it.\n",
	})
	dir, _ := exportTo(t, Request{Source: src, Kind: KindAirGapped})
	b, ctx, must := browserSession(t, bin, 90*time.Second)
	open := func(dir string) {
		u := (&url.URL{Scheme: "file", Path: filepath.Join(dir, "index.html")}).String()
		must(b.call("Page.navigate", map[string]any{"url": u}, nil))
		must(b.waitFor(ctx, `document.readyState === "complete" && document.documentElement.classList.contains("js")`))
	}
	color := func(expr string) string { // #rrggbb
		var s string
		must(b.eval(expr, &s))
		var r, g, bl int
		if _, err := fmt.Sscanf(s, "rgb(%d, %d, %d)", &r, &g, &bl); err != nil {
			t.Fatalf("%s = %q: %v", expr, s, err)
		}
		return fmt.Sprintf("#%02x%02x%02x", r, g, bl)
	}
	open(dir)
	for _, mode := range []string{"light", "dark"} {
		must(b.eval(`document.documentElement.dataset.theme = "`+mode+`"`, nil))
		bg := color(`getComputedStyle(document.body).backgroundColor`)
		for _, c := range []struct{ what, fg, bg string }{
			{"link", `getComputedStyle(document.querySelector(".prose a")).color`, ""},
			{"body text", `getComputedStyle(document.querySelector(".prose p")).color`, ""},
			{"banner text", `getComputedStyle(document.querySelector(".banner-body")).color`, `getComputedStyle(document.querySelector(".banner")).backgroundColor`},
		} {
			back := bg
			if c.bg != "" {
				back = color(c.bg)
			}
			fg := color(c.fg)
			if r, ok := theme.ContrastRatio(fg, back); !ok || r < theme.MinTextContrast {
				t.Errorf("%s mode: %s %s on %s reads at %.2f:1", mode, c.what, fg, back, r)
			} else {
				t.Logf("%s mode: %s %s on %s: %.2f:1", mode, c.what, fg, back, r)
			}
		}
	}

	src["docs.json"].Data = []byte(`{"name": "Night", "appearance": {"default": "dark", "strict": true}, "navigation": {"pages": ["index"]}}`)
	strict, _ := exportTo(t, Request{Source: src, Kind: KindAirGapped})
	must(b.eval(`localStorage.setItem("theme", "light")`, nil))
	open(strict)
	var shown string
	must(b.eval(`document.documentElement.dataset.theme + (document.querySelector(".theme-toggle") ? " toggle" : "")`, &shown))
	if shown != "dark" {
		t.Errorf("strict dark site with a stored light choice: theme %q", shown)
	}
	if bg := color(`getComputedStyle(document.body).backgroundColor`); func() bool { l, ok := theme.Luminance(bg); return !ok || l > 0.05 }() {
		t.Errorf("strict dark site paints a light background %s", bg)
	}
}

// TestBrowser_followsSystemMode: without appearance.default and without a
// reader's choice, a page opens in the system's mode (set before the first
// paint, by the head script) and follows it when it changes; once the
// reader picks a mode with the toggle, the system no longer moves it.
func TestBrowser_followsSystemMode(t *testing.T) {
	bin := chromium(t)
	src := mapFS(map[string]string{
		"docs.json": `{"name": "Plain", "navigation": {"pages": ["index"]}}`,
		"index.mdx": "---\ntitle: Home\n---\n\nBody.\n",
	})
	dir, _ := exportTo(t, Request{Source: src, Kind: KindAirGapped})
	b, ctx, must := browserSession(t, bin, 60*time.Second)
	system := func(mode string) {
		must(b.call("Emulation.setEmulatedMedia", map[string]any{"features": []map[string]string{{"name": "prefers-color-scheme", "value": mode}}}, nil))
	}
	system("dark")
	u := (&url.URL{Scheme: "file", Path: filepath.Join(dir, "index.html")}).String()
	must(b.call("Page.navigate", map[string]any{"url": u}, nil))
	must(b.waitFor(ctx, `document.readyState === "complete" && document.documentElement.classList.contains("js")`))
	must(b.eval(`localStorage.removeItem("theme")`, nil))
	must(b.call("Page.reload", map[string]any{}, nil))
	must(b.waitFor(ctx, `document.readyState === "complete" && document.documentElement.classList.contains("js")`))
	var theme string
	must(b.eval(`document.documentElement.dataset.theme`, &theme))
	if theme != "dark" {
		t.Fatalf("system dark: page opened %q", theme)
	}
	system("light")
	must(b.waitFor(ctx, `document.documentElement.dataset.theme === "light"`))
	must(b.eval(`document.querySelector(".theme-toggle").click()`, nil))
	must(b.waitFor(ctx, `document.documentElement.dataset.theme === "dark"`))
	system("dark")
	system("light")
	must(b.pause(100 * time.Millisecond)) // the page's change listener runs, if it would
	must(b.eval(`document.documentElement.dataset.theme`, &theme))
	if theme != "dark" {
		t.Errorf("after the reader chose dark, a system change moved the page to %q", theme)
	}
}
