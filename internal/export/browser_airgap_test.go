package export

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
)

// TestBrowser_airGappedLoadsNothingRemote opens every page of a bundle
// made from sources full of remote embeds (YouTube and Vimeo iframes,
// videos, a remote script, stylesheets, CSS url()s, images) from file://
// in Chromium with the network logged, and asserts that no request
// leaves file:// and that the pages' CSP refused nothing; then that a
// remote load attempted by script is refused and seen, which shows both
// checks can fail.
func TestBrowser_airGappedLoadsNothingRemote(t *testing.T) {
	bin := chromium(t)
	dir, m := exportTo(t, Request{Source: os.DirFS("testdata/airgap"), Kind: KindAirGapped})
	b := startBrowser(t, bin)
	tr, err := watch(b)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	pages := visitAll(ctx, t, b, dir, m)
	// Search loads its index under the policy, too.
	if err := b.eval(`(function () {
		var i = document.getElementById("search-input");
		i.value = "offline";
		i.dispatchEvent(new Event("input"));
	})()`, nil); err != nil {
		t.Fatal(err)
	}
	if err := b.waitFor(ctx, `document.querySelectorAll("#search-results a").length > 0`); err != nil {
		t.Fatal(err)
	}
	var placeholders int
	if err := b.eval(`0`, nil); err != nil { // flush the events of the last page
		t.Fatal(err)
	}
	if len(tr.requests) < len(pages) {
		t.Fatalf("network log saw %d requests for %d pages; it is not recording", len(tr.requests), len(pages))
	}
	if out := tr.leaving(); len(out) > 0 {
		t.Errorf("requests left file://: %q", out)
	}
	if len(tr.violations) > 0 {
		t.Errorf("CSP violations: %q", tr.violations)
	}

	// The videos page shows its embeds as placeholders a reader can copy.
	u := (&url.URL{Scheme: "file", Path: filepath.Join(dir, "guides/videos.html")}).String()
	if err := b.call("Page.navigate", map[string]any{"url": u}, nil); err != nil {
		t.Fatal(err)
	}
	if err := b.waitFor(ctx, `location.pathname.endsWith("/guides/videos.html") && document.readyState === "complete"`); err != nil {
		t.Fatal(err)
	}
	if err := b.eval(`document.querySelectorAll(".remote-embed-url").length`, &placeholders); err != nil {
		t.Fatal(err)
	}
	if placeholders < 7 {
		t.Errorf("videos page shows %d remote addresses, want the 8 of its embeds", placeholders)
	}

	// A remote image added by script is refused by the CSP and logged;
	// 127.0.0.1 keeps the probe on this machine even if it were not.
	before := len(tr.violations)
	if err := b.eval(`var img = new Image(); img.src = "http://127.0.0.1:9/csp-probe.png"; document.body.appendChild(img); 0`, nil); err != nil {
		t.Fatal(err)
	}
	if err := b.waitFor(ctx, `true`); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(tr.violations) == before && time.Now().Before(deadline) {
		if err := b.eval(`0`, nil); err != nil {
			t.Fatal(err)
		}
	}
	if len(tr.violations) == before || !strings.Contains(strings.Join(tr.violations[before:], " "), "csp-probe.png") {
		t.Errorf("a remote image added by script raised no CSP violation (log: %q); the CSP or the check is not working", tr.violations)
	}
}

// visitAll opens every HTML page of a bundle in b from file:// and waits
// until each has run app.js (or, for a redirect page, is about to move
// on); it returns the pages in order.
func visitAll(ctx context.Context, t *testing.T, b *browser, dir string, m *bundle.Manifest) []string {
	t.Helper()
	var pages []string
	for _, f := range m.Files {
		if strings.HasSuffix(f.Path, ".html") {
			pages = append(pages, f.Path)
		}
	}
	slices.Sort(pages)
	if len(pages) < 4 {
		t.Fatalf("bundle has pages %q; the fixture has more", pages)
	}
	for _, p := range pages {
		u := (&url.URL{Scheme: "file", Path: filepath.Join(dir, p)}).String()
		if err := b.call("Page.navigate", map[string]any{"url": u}, nil); err != nil {
			t.Fatal(err)
		}
		if err := b.waitFor(ctx, `document.readyState === "complete" && (document.documentElement.classList.contains("js") || !!document.querySelector("meta[http-equiv=refresh]"))`); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
	}
	return pages
}

// TestBrowser_docsRepoAirGapped opens every page of the air-gapped export
// of the docs repository fixture (endpoint pages, videos, both languages)
// in Chromium with the network logged: no request leaves file://, the CSP
// refuses nothing, and the endpoint pages' own script ran.
func TestBrowser_docsRepoAirGapped(t *testing.T) {
	bin := chromium(t)
	dir, m := exportTo(t, Request{Source: docsRepo(), Kind: KindAirGapped})
	b := startBrowser(t, bin)
	tr, err := watch(b)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	pages := visitAll(ctx, t, b, dir, m)
	// An endpoint page shows its reference without the Try it panel,
	// which an air-gapped export without the playground feature lacks.
	u := (&url.URL{Scheme: "file", Path: filepath.Join(dir, "en/api-reference/pets/create-a-pet.html")}).String()
	if err := b.call("Page.navigate", map[string]any{"url": u}, nil); err != nil {
		t.Fatal(err)
	}
	if err := b.waitFor(ctx, `location.pathname.endsWith("/create-a-pet.html") && document.readyState === "complete" && document.documentElement.classList.contains("js")`); err != nil {
		t.Fatal(err)
	}
	var state struct {
		Fields, Send int
	}
	if err := b.eval(`({Fields: document.querySelectorAll(".api-reference .field").length, Send: document.querySelectorAll(".playground, #try-it").length})`, &state); err != nil {
		t.Fatal(err)
	}
	if state.Fields < 5 || state.Send != 0 {
		t.Errorf("create-a-pet: %d fields and %d Send controls, want the reference without a playground", state.Fields, state.Send)
	}
	if len(tr.requests) < len(pages) {
		t.Fatalf("network log saw %d requests for %d pages; it is not recording", len(tr.requests), len(pages))
	}
	if out := tr.leaving(); len(out) > 0 {
		t.Errorf("requests left file://: %q", out)
	}
	if len(tr.violations) > 0 {
		t.Errorf("CSP violations: %q", tr.violations)
	}
}

// TestBrowser_airGappedStaysInItsDirectory opens, from file://, an
// air-gapped bundle whose page tries every way out of the bundle's
// directory that needs no script of its own: a meta refresh to another
// host, a root-relative script (file:///x.js on the reader's disk), a
// backslashed host, <base>, a ping on a link that is clicked, a form
// posting elsewhere that is submitted, and a docs.json redirect to
// another host. The network log must show no request that is not a file
// inside the bundle's directory.
func TestBrowser_airGappedStaysInItsDirectory(t *testing.T) {
	bin := chromium(t)
	const away = "http://127.0.0.1:9" // nothing listens there; the log sees the attempt
	src := mapFS(map[string]string{
		"docs.json": `{"name": "Gap", "navigation": {"pages": ["index", "leaky", "comma", "space"]},
			"redirects": [{"source": "/away", "destination": "` + away + `/redirected"}]}`,
		"index.mdx": "---\ntitle: Home\n---\n\nHello.\n",
		"leaky.mdx": "---\ntitle: Leaky\n---\n\n" +
			`<meta http-equiv="refresh" content="0; url=` + away + `/refresh" />` + "\n\n" +
			`<script src="/x.js"></script>` + "\n\n" +
			`<img src="\\127.0.0.1\share\x.png" alt="unc" />` + "\n\n" +
			`<base href="` + away + `/base/" />` + "\n\n" +
			`<img src="images/relative.png" alt="relative to base" />` + "\n\n" +
			`<a id="ping" href="#top" ping="` + away + `/ping">ping</a>` + "\n\n" +
			`<form id="f" action="` + away + `/form"><button>go</button></form>` + "\n\n" +
			// Scripts that climb out of the bundle to a file of the reader's
			// disk, in each spelling a browser reads as "..".
			`<script src="../climb.js"></script>` + "\n\n" +
			`<script src="%2e%2E/encoded.js"></script>` + "\n\n" +
			`<script src="..\backslash.js"></script>` + "\n\n" +
			`<script src="&#46;&#46;/entity.js"></script>` + "\n\n" +
			`<iframe srcdoc="<script src='../srcdoc.js'></script>"></iframe>` + "\n",
		// Meta refreshes spelt with a comma or a bare space before the
		// address, which a browser follows.
		"comma.mdx": "---\ntitle: Comma\n---\n\n" + `<meta http-equiv="refresh" content="0,url=` + away + `/comma" />` + "\n",
		"space.mdx": "---\ntitle: Space\n---\n\n" + `<meta http-equiv="refresh" content="0 ` + away + `/space" />` + "\n",
	})
	dir, _ := exportTo(t, Request{Source: src, Kind: KindAirGapped})
	// The files the climbing scripts name exist next to the bundle, so
	// that a script that ran would be seen: each sets the title.
	for _, name := range []string{"climb.js", "encoded.js", "backslash.js", "entity.js", "srcdoc.js"} {
		js := `document.title = "ran ` + name + `";`
		if err := os.WriteFile(filepath.Join(filepath.Dir(dir), name), []byte(js), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	b := startBrowser(t, bin)
	tr, err := watch(b)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for _, page := range []string{"leaky.html", "away.html", "comma.html", "space.html"} {
		u := (&url.URL{Scheme: "file", Path: filepath.Join(dir, page)}).String()
		if err := b.call("Page.navigate", map[string]any{"url": u}, nil); err != nil {
			t.Fatal(err)
		}
		if err := b.waitFor(ctx, `document.readyState === "complete"`); err != nil {
			t.Fatal(err)
		}
	}
	// Back on the leaky page, click the pinging link and submit the form.
	u := (&url.URL{Scheme: "file", Path: filepath.Join(dir, "leaky.html")}).String()
	if err := b.call("Page.navigate", map[string]any{"url": u}, nil); err != nil {
		t.Fatal(err)
	}
	if err := b.waitFor(ctx, `document.readyState === "complete" && location.pathname.endsWith("/leaky.html")`); err != nil {
		t.Fatal(err)
	}
	if err := b.eval(`document.getElementById("ping").click(); var f = document.getElementById("f"); if (f) f.requestSubmit(); 0`, nil); err != nil {
		t.Fatal(err)
	}
	// Let the browser act on what was clicked before reading the log.
	if err := b.pause(300 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if len(tr.requests) < 2 {
		t.Fatalf("network log saw %d requests; it is not recording", len(tr.requests))
	}
	inside := (&url.URL{Scheme: "file", Path: dir + "/"}).String()
	for _, r := range tr.requests {
		if !strings.HasPrefix(r, inside) {
			t.Errorf("request outside the bundle directory: %s", r)
		}
	}
}
