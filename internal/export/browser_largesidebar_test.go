package export

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// sidebarState is what a reader sees of a large sidebar once the page has
// loaded.
type sidebarState struct {
	Links   int    // links in the sidebar
	Current string // the text of the link marked aria-current="page"
	Href    string // its resolved href
	Open    bool   // the <details> or group around it is open (none: true)
	Next    string // the resolved href of a link of another group
}

const sidebarStateJS = `(function () {
	var nav = document.getElementById("sidebar");
	var a = nav.querySelectorAll("a[href]");
	var cur = nav.querySelector("a[aria-current=page]");
	var open = true;
	for (var d = cur && cur.parentNode; d && d !== nav; d = d.parentNode) if (d.tagName === "DETAILS" && !d.open) open = false;
	var next = nav.querySelectorAll(".nav-group")[40].querySelector("a[href]");
	return {links: a.length, current: cur ? cur.textContent : "", href: cur ? cur.href : "", open: open, next: next.href};
})()`

// TestBrowser_largeSidebarFileAndHTTP opens an endpoint page of a large
// API tab in Chromium, from file:// and over HTTP under a base path: the
// sidebar script inserts every endpoint's link, relative to the page,
// marks the page's link and opens its group; clicking a link of another
// group leads there, where that link is marked; and nothing is refused by
// the CSP or throws.
func TestBrowser_largeSidebarFileAndHTTP(t *testing.T) {
	bin := chromium(t)
	const tags, ops = 60, 10
	dir, m := exportTo(t, Request{Source: largeAPISite(t, tags, ops), Kind: KindAirGapped})
	pages := endpointPages(t, dir, m)
	if len(pages) != tags*ops {
		t.Fatalf("endpoint pages = %d, want %d", len(pages), tags*ops)
	}
	srv := httptest.NewServer(http.StripPrefix("/docs", http.FileServer(http.Dir(dir))))
	t.Cleanup(srv.Close)

	b, ctx, must := browserSession(t, bin, 120*time.Second)
	tr, err := watch(b)
	must(err)
	var thrown []string
	security := b.onEvent
	b.onEvent = func(method string, params json.RawMessage) {
		security(method, params)
		switch method {
		case "Runtime.exceptionThrown":
			thrown = append(thrown, string(params))
		case "Runtime.consoleAPICalled":
			var p struct{ Type string }
			if json.Unmarshal(params, &p) == nil && (p.Type == "error" || p.Type == "warning") {
				thrown = append(thrown, string(params))
			}
		}
	}
	must(b.call("Runtime.enable", map[string]any{}, nil))
	must(b.setViewport(desktopWidth, 900))

	page := "api-reference/resource-007/get-the-item-5-of-resource-family-007.html"
	for _, base := range []string{
		(&url.URL{Scheme: "file", Path: filepath.Join(dir, filepath.FromSlash(page))}).String(),
		srv.URL + "/docs/" + page,
	} {
		must(b.call("Page.navigate", map[string]any{"url": base}, nil))
		must(b.waitFor(ctx, `location.href === `+strconv.Quote(base)+` && document.readyState === "complete"`))
		var s sidebarState
		must(b.eval(sidebarStateJS, &s))
		// Every endpoint, the guides tab's link and the 404 page's none.
		if s.Links < tags*ops || s.Current != "Get the item 5 of resource family 007" || s.Href != base || !s.Open {
			t.Errorf("%s: sidebar %+v; want all %d endpoint links and this page marked in an open group", base, s, tags*ops)
		}
		// The page's link is in view in the sidebar's own scroll.
		var inView bool
		must(b.eval(`(function () {
			var nav = document.getElementById("sidebar"), r = nav.querySelector("a[aria-current=page]").getBoundingClientRect(), n = nav.getBoundingClientRect();
			return r.top >= n.top && r.bottom <= n.bottom;
		})()`, &inView))
		if !inView {
			t.Errorf("%s: the current link is scrolled out of the sidebar's view", base)
		}
		// Follow a link of another group.
		must(b.eval(`document.getElementById("sidebar").querySelectorAll(".nav-group")[40].querySelector("a[href]").click()`, nil))
		must(b.waitFor(ctx, `location.href === `+strconv.Quote(s.Next)+` && document.readyState === "complete"`))
		var after sidebarState
		must(b.eval(sidebarStateJS, &after))
		if after.Href != s.Next || after.Links != s.Links || !strings.Contains(after.Current, "resource family 040") {
			t.Errorf("%s: after following %s the sidebar is %+v", base, s.Next, after)
		}
	}
	must(b.call("Runtime.evaluate", map[string]any{"expression": "0"}, nil)) // flush events
	if len(tr.violations) > 0 || len(thrown) > 0 {
		t.Errorf("CSP violations %q; errors %q", tr.violations, thrown)
	}
	for _, r := range tr.requests {
		// Chromium asks a server for its favicon by itself.
		if !strings.HasPrefix(r, "file://") && !strings.HasPrefix(r, "data:") && !strings.HasPrefix(r, srv.URL+"/docs/") && r != srv.URL+"/favicon.ico" {
			t.Errorf("request outside the bundle: %s", r)
		}
	}
}

// TestBrowser_largeSidebarWithoutScript opens an endpoint page of a large
// API tab in Chromium with script disabled: the sidebar shows the page's
// own group, the page marked, and each other group's title, and a title
// leads to its group's first page, whose own group is then listed.
func TestBrowser_largeSidebarWithoutScript(t *testing.T) {
	bin := chromium(t)
	const tags, ops = 60, 10
	dir, _ := exportTo(t, Request{Source: largeAPISite(t, tags, ops), Kind: KindAirGapped})
	b, ctx, must := browserSession(t, bin, 60*time.Second)
	must(b.call("Emulation.setScriptExecutionDisabled", map[string]any{"value": true}, nil))
	page := "api-reference/resource-007/get-the-item-5-of-resource-family-007.html"
	u := (&url.URL{Scheme: "file", Path: filepath.Join(dir, filepath.FromSlash(page))}).String()
	must(b.call("Page.navigate", map[string]any{"url": u}, nil))
	// Runtime.evaluate still runs the test's own expressions.
	must(b.waitFor(ctx, `location.href === `+strconv.Quote(u)+` && document.readyState === "complete"`))
	var s struct {
		Links, Titles int
		Current, Next string
	}
	state := `(function () {
		var nav = document.getElementById("sidebar");
		var cur = nav.querySelector("a[aria-current=page]");
		return {links: nav.querySelectorAll("a[href]").length, titles: nav.querySelectorAll(".nav-group-title a[href]").length,
			current: cur ? cur.textContent : "", next: nav.querySelectorAll(".nav-group-title a[href]")[30].href};
	})()`
	must(b.eval(state, &s))
	if s.Links != ops+tags-1 || s.Titles != tags-1 || s.Current != "Get the item 5 of resource family 007" {
		t.Errorf("sidebar without script: %+v; want %d links, %d group titles, this page marked", s, ops+tags-1, tags-1)
	}
	must(b.eval(`document.getElementById("sidebar").querySelectorAll(".nav-group-title a[href]")[30].click()`, nil))
	must(b.waitFor(ctx, `location.href === `+strconv.Quote(s.Next)+` && document.readyState === "complete"`))
	var after struct {
		Links, Titles int
		Current, Next string
	}
	must(b.eval(state, &after))
	if after.Links != ops+tags-1 || !strings.Contains(after.Current, "resource family 031") {
		t.Errorf("after following the title of group 31: %+v", after)
	}
}
