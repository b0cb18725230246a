package export

import (
	"net/url"
	"path/filepath"
	"sync"
	"testing"
	"testing/fstest"
	"time"
)

// TestBrowser_bannerDismissed clicks the close button of a dismissible
// banner and checks it stays hidden on the next page, as the platform's
// banner does.
func TestBrowser_bannerDismissed(t *testing.T) {
	bin := chromium(t)
	src := fstest.MapFS{
		"docs.json": {Data: []byte(`{"banner": {"content": "Version 2 is out", "dismissible": true}, "navigation": {"pages": ["a", "b"]}}`)},
		"a.mdx":     mdxPage("A"),
		"b.mdx":     mdxPage("B"),
	}
	dir, _ := exportTo(t, Request{Source: src, Kind: KindAirGapped})
	b, ctx, must := browserSession(t, bin, 60*time.Second)
	open := func(page string) {
		u := (&url.URL{Scheme: "file", Path: filepath.Join(dir, page)}).String()
		must(b.call("Page.navigate", map[string]any{"url": u}, nil))
		must(b.waitFor(ctx, `document.readyState === "complete" && document.documentElement.classList.contains("js") && location.pathname.endsWith("/`+page+`")`))
	}
	open("a.html")
	var hidden bool
	must(b.eval(`document.querySelector(".banner").hidden`, &hidden))
	if hidden {
		t.Fatal("the banner is hidden before it was dismissed")
	}
	must(b.eval(`document.querySelector(".banner-close").click()`, nil))
	must(b.waitFor(ctx, `document.querySelector(".banner").hidden`))
	open("b.html")
	must(b.eval(`document.querySelector(".banner").hidden`, &hidden))
	if !hidden {
		t.Error("a dismissed banner shows again on the next page")
	}
}

// TestBrowser_bannerTypeAndColor: a banner's type draws it amber
// (warning) or red (critical) and its color in each mode, with white
// text, as the platform's; a language's banner has its own; a type or
// colour the platform does not document is a warning and the banner
// keeps the brand colour.
func TestBrowser_bannerTypeAndColor(t *testing.T) {
	bin := chromium(t)
	src := fstest.MapFS{
		"docs.json": {Data: []byte(`{"name": "B", "banner": {"content": "Maintenance", "type": "warning"},
			"navigation": {"languages": [
				{"language": "en", "pages": ["a", "b"]},
				{"language": "fr", "banner": {"content": "Urgent", "type": "critical"}, "pages": ["fr/a"]},
				{"language": "es", "banner": {"content": "Propio", "color": {"light": "#7C3AED", "dark": "#5B21B6"}}, "pages": ["es/a"]},
				{"language": "de", "banner": {"content": "Falsch", "type": "loud", "color": {"light": "purple"}}, "pages": ["de/a"]}
			]}}`)},
		"a.mdx":    mdxPage("A"),
		"b.mdx":    mdxPage("B"),
		"fr/a.mdx": mdxPage("FA"),
		"es/a.mdx": mdxPage("EA"),
		"de/a.mdx": mdxPage("DA"),
	}
	var mu sync.Mutex
	var warns []string
	dir, _ := exportTo(t, Request{Source: src, Kind: KindAirGapped, Warn: func(wrn Warning) { s := wrn.Message; mu.Lock(); warns = append(warns, s); mu.Unlock() }})
	for _, want := range []string{
		`docs.json: navigation.languages[3].banner.type "loud" is not "info", "warning" or "critical"`,
		`docs.json: navigation.languages[3].banner.color.light "purple" is not a hex colour`,
	} {
		if !hasWarning(warns, want) {
			t.Errorf("no warning %q in %q", want, warns)
		}
	}
	b, ctx, must := browserSession(t, bin, 60*time.Second)
	colours := func(page string) (bg, fg string) {
		u := (&url.URL{Scheme: "file", Path: filepath.Join(dir, page)}).String()
		must(b.call("Page.navigate", map[string]any{"url": u}, nil))
		must(b.waitFor(ctx, `document.readyState === "complete" && location.pathname.endsWith("/`+page+`")`))
		var c []string
		must(b.eval(`(() => { const s = getComputedStyle(document.querySelector(".banner")); return [s.backgroundColor, s.color]; })()`, &c))
		return c[0], c[1]
	}
	brandBG, _ := colours("de/a.html")
	for _, c := range []struct{ page, bg string }{
		{"a.html", "rgb(180, 83, 9)"},
		{"fr/a.html", "rgb(185, 28, 28)"},
		{"es/a.html", "rgb(124, 58, 237)"},
	} {
		bg, fg := colours(c.page)
		if bg != c.bg || fg != "rgb(255, 255, 255)" {
			t.Errorf("%s: banner %s on %s, want white on %s", c.page, fg, bg, c.bg)
		}
		if bg == brandBG {
			t.Errorf("%s: the banner has the brand colour %s", c.page, bg)
		}
	}
	must(b.eval(`document.querySelector(".theme-toggle").click()`, nil))
	must(b.waitFor(ctx, `document.documentElement.dataset.theme === "dark"`))
	if bg, _ := colours("es/a.html"); bg != "rgb(91, 33, 182)" {
		t.Errorf("es/a.html in dark mode: banner on %s, want its dark colour", bg)
	}
}
