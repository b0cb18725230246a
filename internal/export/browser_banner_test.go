package export

import (
	"net/url"
	"path/filepath"
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
