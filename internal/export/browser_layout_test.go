package export

import (
	"context"
	"encoding/base64"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/demosite"
)

// Widths the layout is checked at: a phone (an iPhone's 390 CSS pixels)
// and a desktop.
const (
	phoneWidth   = 390
	desktopWidth = 1400
)

// setViewport sizes the page as a device of that width would: a phone
// width also gets a touch screen's mobile viewport.
func (b *browser) setViewport(width, height int) error {
	return b.call("Emulation.setDeviceMetricsOverride", map[string]any{
		"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 800}, nil)
}

// screenshot writes a PNG of the page to file: all of it, or (for a
// dialog over the page) what the viewport shows.
func (b *browser) screenshot(file string, whole bool) error {
	var shot struct{ Data string }
	if err := b.call("Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": whole}, &shot); err != nil {
		return err
	}
	data, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil {
		return err
	}
	return os.WriteFile(file, data, 0o644)
}

// openFile loads a page of the bundle dir and waits until it has run its
// scripts.
func (b *browser) openFile(ctx context.Context, dir, page string) error {
	u := (&url.URL{Scheme: "file", Path: filepath.Join(dir, filepath.FromSlash(page))}).String()
	if err := b.call("Page.navigate", map[string]any{"url": u}, nil); err != nil {
		return err
	}
	return b.waitFor(ctx, `decodeURIComponent(location.pathname).endsWith(`+strconv.Quote("/"+page)+`) && document.readyState === "complete"`)
}

// layoutBox is where an element of the page sits, in CSS pixels of the
// viewport.
type layoutBox struct {
	Left, Right, Top, Bottom float64
	Found                    bool
}

// box measures the first element that selector matches.
func (b *browser) box(selector string) (layoutBox, error) {
	var r layoutBox
	err := b.eval(`(function () {
		var e = document.querySelector(`+strconv.Quote(selector)+`);
		if (!e) return {Found: false};
		var r = e.getBoundingClientRect();
		return {Left: r.left, Right: r.right, Top: r.top, Bottom: r.bottom, Found: true};
	})()`, &r)
	return r, err
}

// TestBrowser_layoutScreenshots opens a home page, a guide and API pages
// (an MDX page with its own examples and a page generated from a spec)
// at phone and desktop width, keeps a screenshot of each, light and dark, as a test
// artifact (go test -artifacts keeps them under the output directory; the
// path is logged), and checks the layout a reader sees: on the desktop
// an API page reads in two columns, the examples on the right staying in
// view as the reference scrolls, and the "Try it" button opens the
// playground in a dialog; at phone width one column in the order title,
// endpoint, examples, reference, and the menu button opens the
// navigation.
func TestBrowser_layoutScreenshots(t *testing.T) {
	bin := chromium(t)
	demo, _ := exportTo(t, Request{Source: demosite.FS(), Kind: KindAirGapped, Features: []string{"playground"}})
	api, _ := exportTo(t, Request{Source: apiSite(), Kind: KindAirGapped, Features: []string{"playground"}})
	shots := t.ArtifactDir()
	t.Logf("screenshots in %s", shots)
	b, ctx, must := browserSession(t, bin, 120*time.Second)
	pages := []struct{ name, dir, page string }{
		{"home", demo, "index.html"},
		{"guide", demo, "guides/webhooks.html"},
		{"api-mdx", demo, "api-reference/rates/create.html"},
		{"api-openapi", api, "api-reference/pets/create-a-pet.html"},
	}
	for _, width := range []int{phoneWidth, desktopWidth} {
		must(b.setViewport(width, 900))
		for _, p := range pages {
			must(b.openFile(ctx, p.dir, p.page))
			must(b.screenshot(filepath.Join(shots, fmt.Sprintf("%s-%d.png", p.name, width)), true))
			// The same page in dark mode, as its toggle sets it.
			must(b.eval(`document.documentElement.dataset.theme = "dark"`, nil))
			must(b.screenshot(filepath.Join(shots, fmt.Sprintf("%s-%d-dark.png", p.name, width)), true))
		}
	}

	// Desktop: the examples beside the reference, and still in view after
	// scrolling to the responses.
	must(b.setViewport(desktopWidth, 900))
	for _, page := range []struct{ dir, page string }{{demo, "api-reference/rates/create.html"}, {api, "api-reference/pets/create-a-pet.html"}} {
		must(b.openFile(ctx, page.dir, page.page))
		body, err := b.box(".page-cols > .cols-body")
		must(err)
		ex, err := b.box(".api-examples")
		must(err)
		if !body.Found || !ex.Found || ex.Left < body.Right || ex.Top > body.Top {
			t.Errorf("%s at %dpx: reference %+v, examples %+v; want the examples in a column right of the reference, from its top", page.page, desktopWidth, body, ex)
		}
		var toc bool
		must(b.eval(`!!document.querySelector(".toc")`, &toc))
		if toc {
			t.Errorf("%s: a table of contents beside the examples column", page.page)
		}
	}
	must(b.eval(`window.scrollTo(0, document.querySelector("#responses").offsetTop)`, nil))
	must(b.waitFor(ctx, `window.scrollY > 200`))
	ex, err := b.box(".api-examples")
	must(err)
	if ex.Top < 0 || ex.Top > 120 {
		t.Errorf("after scrolling to the responses the examples column is at top %.0f; want it pinned under the top bar", ex.Top)
	}
	var tabs []string
	must(b.eval(`Array.from(document.querySelectorAll(".api-example-request .tab-buttons button")).map(function (b) { return b.textContent; })`, &tabs))
	if len(tabs) < 3 || tabs[0] != "cURL" {
		t.Errorf("request example tabs %q, want one per language starting with cURL", tabs)
	}
	// The playground is a dialog the "Try it" button opens, not a panel
	// in the flow of the page.
	var shut bool
	must(b.eval(`!document.querySelector(".playground").open && document.querySelector(".playground").getBoundingClientRect().height === 0`, &shut))
	if !shut {
		t.Error("the playground shows before Try it is pressed")
	}
	must(b.eval(`document.querySelector(".endpoint .try-it").click()`, nil))
	must(b.waitFor(ctx, `document.querySelector(".playground").open && document.activeElement && document.querySelector(".playground").contains(document.activeElement)`))
	must(b.screenshot(filepath.Join(shots, fmt.Sprintf("api-openapi-try-it-%d.png", desktopWidth)), false))
	must(b.eval(`document.querySelector(".playground .pg-close").click()`, nil))
	must(b.waitFor(ctx, `!document.querySelector(".playground").open`))

	// Phone: one column in reading order, and the menu opens.
	must(b.setViewport(phoneWidth, 800))
	must(b.openFile(ctx, api, "api-reference/pets/create-a-pet.html"))
	var order []string
	must(b.eval(`Array.from(document.querySelectorAll(".page-head, .cols-top, .api-examples, .cols-body")).map(function (e) {
		return [e.getBoundingClientRect().top, e.className || e.id];
	}).sort(function (a, b) { return a[0] - b[0]; }).map(function (x) { return x[1]; })`, &order))
	if want := "page-head cols-top api-examples cols-body"; strings.Join(order, " ") != want {
		t.Errorf("at %dpx the parts read %q, want %q", phoneWidth, strings.Join(order, " "), want)
	}
	var sidebar [2]string
	must(b.eval(`[getComputedStyle(document.querySelector(".sidebar")).display,
		(document.querySelector(".menu-toggle").click(), getComputedStyle(document.querySelector(".sidebar")).display)]`, &sidebar))
	if sidebar[0] != "none" || sidebar[1] == "none" {
		t.Errorf("at %dpx the sidebar is %q, then %q after the menu button; want hidden, then shown", phoneWidth, sidebar[0], sidebar[1])
	}
	must(b.screenshot(filepath.Join(shots, fmt.Sprintf("api-openapi-menu-%d.png", phoneWidth)), false))
	must(b.eval(`document.querySelector(".menu-toggle").click(), document.querySelector(".endpoint .try-it").click()`, nil))
	must(b.waitFor(ctx, `document.querySelector(".playground").open`))
	dlg, err := b.box(".playground")
	must(err)
	if dlg.Left < 0 || dlg.Right > phoneWidth {
		t.Errorf("at %dpx the Try it dialog spans %.0f..%.0f", phoneWidth, dlg.Left, dlg.Right)
	}
	must(b.screenshot(filepath.Join(shots, fmt.Sprintf("api-openapi-try-it-%d.png", phoneWidth)), false))
}

// overflowScript lists what makes the open page wider than the screen:
// the page's scroll width, and the outermost elements that reach past
// its right edge. It also lists every code block and table whose content
// is wider than its box but that does not scroll (it would be cut off).
const overflowScript = `(function () {
	var root = document.scrollingElement, w = root.clientWidth, out = {Scroll: root.scrollWidth, Client: w, Wide: [], Clipped: []};
	function name(e) {
		var s = e.tagName.toLowerCase();
		if (e.id) s += "#" + e.id;
		if (typeof e.className === "string" && e.className) s += "." + e.className.trim().split(/\s+/).join(".");
		return s;
	}
	if (out.Scroll > w) {
		Array.from(document.body.querySelectorAll("*")).forEach(function (e) {
			if (e.getBoundingClientRect().right <= w + 1 || !e.getClientRects().length) return;
			var p = e.parentElement;
			if (p && p !== document.body && p.getBoundingClientRect().right > w + 1) return;
			if (out.Wide.length < 8) out.Wide.push(name(e) + " (" + Math.round(e.getBoundingClientRect().right) + "px)");
		});
	}
	Array.from(document.querySelectorAll("pre, table")).forEach(function (e) {
		if (!e.getClientRects().length || e.scrollWidth <= e.clientWidth + 1) return;
		var x = getComputedStyle(e).overflowX;
		if (x !== "auto" && x !== "scroll") out.Clipped.push(name(e) + " (overflow-x " + x + ")");
	});
	return out;
})()`

// TestBrowser_noHorizontalOverflowAtPhoneWidth opens every page of the
// fixture sites at phone width, in Chromium, from file://, and lists each
// page that scrolls sideways (with the elements that reach past the
// screen's edge), and each code block or table that is wider than its box
// without scrolling in it.
func TestBrowser_noHorizontalOverflowAtPhoneWidth(t *testing.T) {
	bin := chromium(t)
	sources := map[string]fs.FS{"demosite": demosite.FS(), "fixture": fixture(), "apisite": apiSite(), "docsrepo": docsRepo()}
	b, ctx, must := browserSession(t, bin, 240*time.Second)
	must(b.setViewport(phoneWidth, 800))
	names := make([]string, 0, len(sources))
	for name := range sources {
		names = append(names, name)
	}
	sort.Strings(names)
	checked := 0
	for _, name := range names {
		dir, m := exportTo(t, Request{Source: sources[name], Kind: KindAirGapped, Features: []string{"playground"}})
		for _, f := range m.Files {
			if !strings.HasSuffix(f.Path, ".html") {
				continue
			}
			if strings.Contains(readOut(t, dir, f.Path), `http-equiv="refresh"`) {
				continue // a redirect stub, replaced at once
			}
			must(b.openFile(ctx, dir, f.Path))
			var got struct {
				Scroll, Client int
				Wide, Clipped  []string
			}
			must(b.eval(overflowScript, &got))
			checked++
			if got.Scroll > got.Client {
				t.Errorf("%s/%s scrolls sideways at %dpx (%dpx wide); past the edge: %s", name, f.Path, phoneWidth, got.Scroll, strings.Join(got.Wide, ", "))
			}
			if len(got.Clipped) > 0 {
				t.Errorf("%s/%s: wider than their box without scrolling: %s", name, f.Path, strings.Join(got.Clipped, ", "))
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d pages checked; the fixtures have more", checked)
	}
	t.Logf("%d pages checked at %dpx", checked, phoneWidth)
}

// TestBrowser_apiPageWithoutScript opens an endpoint page with script
// turned off: it must still read in full, every example shown (the
// request in each language, each named example of a status), with no
// "Try it" button and no empty playground.
func TestBrowser_apiPageWithoutScript(t *testing.T) {
	bin := chromium(t)
	api, _ := exportTo(t, Request{Source: apiSite(), Kind: KindAirGapped, Features: []string{"playground"}})
	b, ctx, must := browserSession(t, bin, 60*time.Second)
	must(b.call("Emulation.setScriptExecutionDisabled", map[string]any{"value": true}, nil))
	for _, width := range []int{phoneWidth, desktopWidth} {
		must(b.setViewport(width, 900))
		must(b.openFile(ctx, api, "api-reference/pets/create-a-pet.html"))
		var got struct {
			Script, TryIt, Panel bool
			Shown, Blocks        int
			Titles               []string
		}
		must(b.eval(`(function () {
			var blocks = Array.from(document.querySelectorAll(".api-examples .code-block"));
			var shown = blocks.filter(function (e) { return e.getClientRects().length > 0; });
			return {Script: document.documentElement.classList.contains("js"), TryIt: !!document.querySelector(".try-it"),
				Panel: document.querySelector(".playground").getClientRects().length > 0,
				Shown: shown.length, Blocks: blocks.length,
				Titles: shown.map(function (e) { return e.getAttribute("data-title"); })};
		})()`, &got))
		if got.Script {
			t.Fatal("script ran although it is turned off")
		}
		if got.TryIt || got.Panel || got.Shown != got.Blocks || strings.Join(got.Titles, ",") != "cURL,Python,JavaScript,201 dog,201 cat,400" {
			t.Errorf("at %dpx without script: Try it %v, panel shown %v, examples shown %q (%d of %d); want no Try it, no panel, every example",
				width, got.TryIt, got.Panel, got.Titles, got.Shown, got.Blocks)
		}
	}
}
