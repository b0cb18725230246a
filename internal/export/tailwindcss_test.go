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
		"index.mdx": "import { Hero } from \"/snippets/hero.jsx\"\n\n# Home\n\n" +
			"<div className=\"flex gap-4 md:flex-col my-callout bg-blue-550 bg-sky-100 dark:bg-slate-800\">\n  <span className=\"text-sm font-semibold text-zinc-950/80\">A</span>\n  <span>B</span>\n</div>\n\n" +
			"Inline <span className=\"italic dark:hidden\">styled</span> text.\n\n" +
			"<Hero title=\"Welcome\" />\n\n<Note className=\"tracking-wide\">Noted.</Note>\n",
		"snippets/hero.jsx": "export const Hero = ({ title }) => (\n  <div className=\"hero-box rounded-xl shadow-lg rotate-1 text-gray-600 dark:text-gray-300 border border-gray-200\">\n    <h2 className=\"leading-tight\">{title}</h2>\n  </div>\n);\n",
		"style.css":         ".my-callout { padding: 1rem; }\n.my-callout span + span { color: rgb(1, 2, 3); }\n.dark .my-callout span + span { color: rgb(4, 5, 6); }\n",
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
		".text-sm{font-size:0.875rem;line-height:1.25rem}", ".font-semibold{font-weight:600}", ".italic{font-style:italic}",
		".bg-sky-100{--tw-bg-opacity:1;background-color:rgb(224 242 254 / var(--tw-bg-opacity, 1))}",
		".text-zinc-950\\/80{color:rgb(9 9 11 / 0.8)}",
		// A custom component's classes, and a platform component's.
		".rounded-xl{border-radius:0.75rem}", ".leading-tight{line-height:1.25}", ".tracking-wide{letter-spacing:0.025em}",
		"--tw-shadow:0 10px 15px -3px rgb(0 0 0 / 0.1)",
		// rotate-1 reads the base layer's variables, so they are written.
		"*, ::before, ::after{--tw-border-spacing-x:0;"} {
		if !strings.Contains(css, want) {
			t.Errorf("the stylesheet lacks %s", want)
		}
	}
	if strings.Contains(css, ".grid{") || strings.Contains(css, ".my-callout{") {
		t.Error("the stylesheet holds classes no page uses")
	}
	joined := strings.Join(warnings, "\n")
	if !strings.Contains(joined, "1 Tailwind CSS classes used in className are not written") || !strings.Contains(joined, "bg-blue-550") ||
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
	type styles struct{ Display, Gap, Weight, Italic, Background, Custom, HeroColor, HeroShadow, HeroTransform, HeroRadius string }
	read := func() (got styles) {
		must(b.eval(`(() => { const d = document.querySelector(".my-callout"), s = getComputedStyle(d), h = getComputedStyle(document.querySelector(".hero-box"));
		return {Display: s.display, Gap: s.columnGap, Weight: getComputedStyle(d.querySelector(".font-semibold")).fontWeight,
			Italic: getComputedStyle(document.querySelector(".italic")).display, Background: s.backgroundColor,
			Custom: getComputedStyle(d.querySelector("span + span")).color,
			HeroColor: h.color, HeroShadow: h.boxShadow, HeroTransform: h.transform, HeroRadius: h.borderTopLeftRadius} })()`, &got))
		return got
	}
	light := read()
	if light.Display != "flex" || light.Gap != "16px" || light.Weight != "600" || light.Italic != "inline" ||
		light.Background != "rgb(224, 242, 254)" || light.Custom != "rgb(1, 2, 3)" || light.HeroColor != "rgb(75, 85, 99)" ||
		!strings.Contains(light.HeroShadow, "rgba(0, 0, 0, 0.1) 0px 10px 15px -3px") || light.HeroTransform == "none" || light.HeroRadius != "12px" {
		t.Errorf("light: %+v", light)
	}
	// The reader's switch: data-theme and the root's class "dark", which
	// the site's own CSS selects on.
	must(b.eval(`document.querySelector(".theme-toggle").click()`, nil))
	dark := read()
	if dark.Italic != "none" || dark.Background != "rgb(30, 41, 59)" || dark.Custom != "rgb(4, 5, 6)" || dark.HeroColor != "rgb(209, 213, 219)" {
		t.Errorf("dark: %+v", dark)
	}
}
