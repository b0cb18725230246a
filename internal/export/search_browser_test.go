package export

import (
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBrowser_searchShardsAndStems opens the search site from file://
// and from a server on 127.0.0.1 and checks what the split index and the
// stemmer give a reader: nothing of the index loads before the search
// box is used; a query loads the manifest, the term shards of the words
// it matched and the text shards of the pages it shows, not the rest;
// another form of a word finds it (rotating -> Rotate, configured ->
// Configuring) with the matching word marked in the snippet; one typo
// is forgiven from five letters and not below.
func TestBrowser_searchShardsAndStems(t *testing.T) {
	bin := chromium(t)
	src := searchSite()
	src["gateway.mdx"] = "---\ntitle: Gateway\n---\nThe gateway forwards calls.\n\n## Configuring the gateway\n\nSet the routes before the first call.\n"
	src["docs.json"] = strings.Replace(src["docs.json"], `"ninshou"]`, `"ninshou", "gateway"]`, 1)
	dir, _ := exportTo(t, Request{Source: mapFS(src), Kind: KindAirGapped})
	b, ctx, must := browserSession(t, bin, 2*time.Minute)

	// The same bundle served over HTTP, on the loopback only.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.FileServer(http.Dir(dir)), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })

	for _, base := range []string{
		(&url.URL{Scheme: "file", Path: filepath.Join(dir, "webhooks.html")}).String(),
		"http://" + ln.Addr().String() + "/webhooks.html",
	} {
		must(b.call("Page.navigate", map[string]any{"url": base}, nil))
		must(b.waitFor(ctx, `document.readyState === "complete" && document.documentElement.classList.contains("js")`))
		var before bool
		must(b.eval(`!window.__docsSearchShards && !window.__docsSearchEngine`, &before))
		if !before {
			t.Errorf("%s: the search index or engine loaded before the search box was used", base)
		}

		got := runSearch(ctx, t, b, "rotating")
		if len(got) == 0 || got[0].Title != "Authentication" || len(got[0].Sections) == 0 || got[0].Sections[0] != "Rotate a key" {
			t.Errorf("%s: rotating: %+v; want Authentication with its section Rotate a key", base, got)
		}
		var loaded struct {
			Terms []string `json:"terms"`
			Docs  []string `json:"docs"`
			All   int      `json:"all"`
			Mark  string   `json:"mark"`
		}
		must(b.eval(`(function () {
			var r = window.__docsSearchShards, k = Object.keys(r);
			return {terms: k.filter(function (n) { return n.indexOf("t-") === 0; }).sort(),
				docs: k.filter(function (n) { return n.indexOf("d-") === 0; }),
				all: r.manifest.shards.length,
				mark: (document.querySelector("#search-results .r-section mark") || {}).textContent || ""};
		})()`, &loaded))
		if strings.Join(loaded.Terms, " ") != "t-ro" || len(loaded.Docs) != 1 || loaded.All < 20 {
			t.Errorf("%s: rotating loaded term shards %q and text shards %q of %d term shards; want t-ro and d-0 only", base, loaded.Terms, loaded.Docs, loaded.All)
		}
		if loaded.Mark != "Rotate" {
			t.Errorf("%s: rotating: snippet marks %q, want Rotate", base, loaded.Mark)
		}

		got = runSearch(ctx, t, b, "configured gateway")
		if len(got) == 0 || got[0].Title != "Gateway" || len(got[0].Hrefs) < 2 || got[0].Hrefs[1] != "gateway.html#configuring-the-gateway" {
			t.Errorf("%s: configured gateway: %+v; want Gateway, linked to its heading Configuring the gateway", base, got)
		}
		if got := runSearch(ctx, t, b, "quata"); len(got) != 1 || got[0].Title != "Rate limits" {
			t.Errorf("%s: quata (one typo in five letters): %q, want Rate limits", base, titles(got))
		}
		if got := runSearch(ctx, t, b, "tokn"); len(got) != 0 {
			t.Errorf("%s: tokn (a typo in four letters) found %q; typos count from five letters", base, titles(got))
		}
	}
}
