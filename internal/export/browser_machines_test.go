package export

import (
	"context"
	"encoding/json"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// searchSite is a small site whose pages name one subject in different
// places: a title, a heading, body text.
func searchSite() map[string]string {
	return map[string]string{
		"docs.json":   `{"name": "Search test", "navigation": {"groups": [{"group": "Guides", "pages": ["rate-limits", "webhooks", "errors", "authentication", "ninshou"]}]}}`,
		"ninshou.mdx": "---\ntitle: 認証\n---\nAPIキーで呼び出しを認証します。\n\n## キーの更新\n\n古いキーは一日使えます。\n",
		"rate-limits.mdx": "---\ntitle: Rate limits\n---\nEach token has a quota. A request without authentication counts against the address.\n\n" +
			"## Headers\n\nThe response headers tell how much is left.\n",
		"webhooks.mdx": "---\ntitle: Webhooks\n---\nWebhooks send events to your endpoint.\n\n## Verify\n\nCheck the signature: authentication of the sender " +
			"uses the shared secret, and authentication fails when it does not match.\n",
		"errors.mdx": "---\ntitle: Errors\n---\nErrors have a code and a message.\n\n## Authentication errors\n\nA 401 means the key is missing.\n\n" +
			"## Validation errors\n\nA 422 lists the fields.\n",
		"authentication.mdx": "---\ntitle: Authentication\n---\nEvery call carries a key.\n\n## Create a key\n\nOpen the console and create one.\n\n" +
			"## Rotate a key\n\nRotate keys every ninety days; the old key keeps working for a day.\n",
	}
}

type searchGroup struct {
	Title    string   `json:"title"`
	Sections []string `json:"sections"`
	Hrefs    []string `json:"hrefs"`
}

// runSearch types q into the search box and returns the result groups.
func runSearch(ctx context.Context, t *testing.T, b *browser, q string) []searchGroup {
	t.Helper()
	qs, _ := json.Marshal(q)
	if err := b.eval(`(function () {
		var i = document.getElementById("search-input");
		i.focus(); i.value = `+string(qs)+`; i.dispatchEvent(new Event("input"));
	})()`, nil); err != nil {
		t.Fatal(err)
	}
	// The box records the query its results are for.
	if err := b.waitFor(ctx, `document.getElementById("search-results").dataset.q === `+string(qs)); err != nil {
		t.Fatal(err)
	}
	var groups []searchGroup
	if err := b.eval(`Array.from(document.querySelectorAll("#search-results .r-group")).map(function (g) {
		return {title: g.querySelector(".r-title").textContent,
			sections: Array.from(g.querySelectorAll(".r-head")).map(function (h) { return h.textContent; }),
			hrefs: Array.from(g.querySelectorAll("a")).map(function (a) { return a.getAttribute("href"); })};
	})`, &groups); err != nil {
		t.Fatal(err)
	}
	return groups
}

func titles(gs []searchGroup) []string {
	var out []string
	for _, g := range gs {
		out = append(out, g.Title)
	}
	return out
}

// TestBrowser_searchRanking opens a bundle from file:// and checks what
// a reader sees: a title match above a heading match above body text,
// prefixes and small typos found, one group per page with the matching
// sections under it.
func TestBrowser_searchRanking(t *testing.T) {
	bin := chromium(t)
	dir, _ := exportTo(t, Request{Source: mapFS(searchSite()), Kind: KindAirGapped})
	b, ctx, must := browserSession(t, bin, 90*time.Second)
	page := (&url.URL{Scheme: "file", Path: filepath.Join(dir, "webhooks.html")}).String()
	must(b.call("Page.navigate", map[string]any{"url": page}, nil))
	must(b.waitFor(ctx, `document.readyState === "complete" && document.documentElement.classList.contains("js")`))

	for _, tc := range []struct {
		q, why string
		want   []string // the first result groups, in order
	}{
		{"authentication", "title, then heading, then body", []string{"Authentication", "Errors", "Webhooks", "Rate limits"}},
		{"authen", "a prefix", []string{"Authentication", "Errors", "Webhooks", "Rate limits"}},
		{"authentcation", "one letter missing", []string{"Authentication", "Errors"}},
		{"authentcaton", "two edits in a long word", []string{"Authentication", "Errors"}},
		{"webhoks", "one letter missing in a short word", []string{"Webhooks"}},
		{"rotate key", "two words in one section", []string{"Authentication"}},
		{"認証", "Japanese, which has no spaces: inside the text", []string{"認証"}},
	} {
		got := titles(runSearch(ctx, t, b, tc.q))
		if len(got) < len(tc.want) || strings.Join(got[:len(tc.want)], "|") != strings.Join(tc.want, "|") {
			t.Errorf("%q (%s): results %q, want %q first", tc.q, tc.why, got, tc.want)
		}
	}
	if got := runSearch(ctx, t, b, "webho"); len(got) == 0 || got[0].Title != "Webhooks" {
		t.Errorf("prefix webho: %q", titles(got))
	}
	// A typo is small only: two edits in a six-letter word find nothing.
	if got := runSearch(ctx, t, b, "wbhok"); len(got) != 0 {
		t.Errorf("wbhok matched %q; a typo of two edits in a short word should not", titles(got))
	}

	if got := runSearch(ctx, t, b, "古いキー"); len(got) != 1 || got[0].Title != "認証" || strings.Join(got[0].Sections, "|") != "キーの更新" {
		t.Errorf("古いキー: %+v; want 認証 with its section キーの更新", got)
	}

	groups := runSearch(ctx, t, b, "key")
	seen := map[string]bool{}
	for _, g := range groups {
		if seen[g.Title] {
			t.Errorf("page %q is listed twice", g.Title)
		}
		seen[g.Title] = true
	}
	if len(groups) == 0 || groups[0].Title != "Authentication" ||
		strings.Join(groups[0].Sections, "|") != "Create a key|Rotate a key" {
		t.Fatalf("key: groups %+v; want Authentication first with its sections Create a key and Rotate a key", groups)
	}
	if h := groups[0].Hrefs; len(h) != 3 || h[0] != "authentication.html" || h[2] != "authentication.html#rotate-a-key" {
		t.Errorf("key: links %q; want the page, then each section's anchor", h)
	}
	must(b.eval(`document.querySelectorAll("#search-results .r-section")[1].click()`, nil))
	must(b.waitFor(ctx, `location.pathname.endsWith("/authentication.html") && location.hash === "#rotate-a-key"`))
}

// TestBrowser_copyPage copies a page as Markdown from file:// and reads
// the clipboard back; View as Markdown opens the copy.
func TestBrowser_copyPage(t *testing.T) {
	bin := chromium(t)
	dir, _ := exportTo(t, Request{Source: mapFS(searchSite()), Kind: KindCloud})
	b, ctx, must := browserSession(t, bin, 90*time.Second)
	page := (&url.URL{Scheme: "file", Path: filepath.Join(dir, "errors.html")}).String()
	must(b.call("Browser.grantPermissions", map[string]any{"permissions": []string{"clipboardReadWrite", "clipboardSanitizedWrite"}}, nil))
	must(b.call("Page.navigate", map[string]any{"url": page}, nil))
	must(b.waitFor(ctx, `document.readyState === "complete" && document.querySelector(".md-copy")`))
	must(b.call("Page.bringToFront", nil, nil))
	must(b.eval(`document.querySelector(".md-copy").click()`, nil))
	must(b.waitFor(ctx, `document.querySelector(".md-copy").textContent === "Copied"`))
	var got string
	var r struct {
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
	}
	must(b.call("Runtime.evaluate", map[string]any{"expression": "navigator.clipboard.readText()", "awaitPromise": true, "returnByValue": true}, &r))
	got = r.Result.Value
	want := readOut(t, dir, "errors.md")
	if got != want {
		t.Errorf("clipboard holds %q, want the page's Markdown %q", got, want)
	}
	if !strings.HasPrefix(got, "# Errors\n") || !strings.Contains(got, "## Authentication errors\n\nA 401 means the key is missing.") {
		t.Errorf("the Markdown copy is not the page: %q", got)
	}
	must(b.eval(`document.querySelector(".md-view").click()`, nil))
	must(b.waitFor(ctx, `location.pathname.endsWith("/errors.md") && document.body && document.body.innerText.indexOf("# Errors") === 0`))
}
