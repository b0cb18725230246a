package export

import (
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func tailwindSource() Request {
	return Request{Kind: KindAirGapped, Source: mapFS(map[string]string{
		"docs.json": `{"name": "TW", "navigation": {"pages": ["index"]}}`,
		"index.mdx": "# Home\n\n<div className=\"flex gap-4 md:flex-col my-callout bg-blue-500\">\n  <span className=\"text-sm font-semibold\">A</span>\n  <span>B</span>\n</div>\n\n" +
			"Inline <span className=\"italic dark:hidden\">styled</span> text.\n",
		"style.css": ".my-callout { padding: 1rem; }\n",
	})}
}

// TestExport_tailwindClasses: the Tailwind classes pages use in className
// are written into the site's stylesheet, and only those; a Tailwind
// class the export does not write is a warning, a site's own class is
// not.
func TestExport_tailwindClasses(t *testing.T) {
	req := tailwindSource()
	var warnings []string
	req.Warn = func(w Warning) { warnings = append(warnings, w.Message) }
	dir, _ := exportTo(t, req)
	css := readOut(t, dir, "_static/style.css")
	for _, want := range []string{".flex{display:flex}", ".gap-4{gap:1rem}", "@media (min-width: 768px){.md\\:flex-col{flex-direction:column}}",
		".text-sm{font-size:0.875rem;line-height:1.25rem}", ".font-semibold{font-weight:600}", ".italic{font-style:italic}"} {
		if !strings.Contains(css, want) {
			t.Errorf("the stylesheet lacks %s", want)
		}
	}
	if strings.Contains(css, ".grid{") || strings.Contains(css, ".my-callout{") {
		t.Error("the stylesheet holds classes no page uses")
	}
	joined := strings.Join(warnings, "\n")
	if !strings.Contains(joined, "1 Tailwind CSS classes used in className are not written") || !strings.Contains(joined, "bg-blue-500") ||
		strings.Contains(joined, "my-callout") {
		t.Errorf("warnings: %q", warnings)
	}
}

// TestBrowser_tailwindClasses: from file://, the classes take effect, and
// dark: variants follow the reader's theme.
func TestBrowser_tailwindClasses(t *testing.T) {
	bin := chromium(t)
	dir, _ := exportTo(t, tailwindSource())
	b, ctx, must := browserSession(t, bin, 60*time.Second)
	u := (&url.URL{Scheme: "file", Path: filepath.Join(dir, "index.html")}).String()
	must(b.call("Page.navigate", map[string]any{"url": u}, nil))
	must(b.waitFor(ctx, `document.readyState === "complete"`))
	var got struct{ Display, Gap, Weight, Italic string }
	must(b.eval(`(() => { const d = document.querySelector(".my-callout"), s = getComputedStyle(d);
		return {Display: s.display, Gap: s.columnGap, Weight: getComputedStyle(d.querySelector(".font-semibold")).fontWeight,
			Italic: getComputedStyle(document.querySelector(".italic")).display} })()`, &got))
	if got.Display != "flex" || got.Gap != "16px" || got.Weight != "600" || got.Italic != "inline" {
		t.Errorf("light: %+v", got)
	}
	must(b.eval(`document.documentElement.dataset.theme = "dark"`, nil))
	var hidden string
	must(b.eval(`getComputedStyle(document.querySelector(".italic")).display`, &hidden))
	if hidden != "none" {
		t.Errorf("dark: dark:hidden shows as %s", hidden)
	}
}
