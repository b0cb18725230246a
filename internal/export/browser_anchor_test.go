package export

import (
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestBrowser_parameterAnchors opens an endpoint page from file:// in
// Chromium: clicking a parameter's link icon goes to the parameter and
// copies its address, and that address opened afresh shows a nested
// property, its closed parents opened, as the target.
func TestBrowser_parameterAnchors(t *testing.T) {
	bin := chromium(t)
	dir, _ := exportTo(t, Request{Source: os.DirFS("testdata/apisite"), Kind: KindAirGapped})
	page := (&url.URL{Scheme: "file", Path: filepath.Join(dir, "api-reference/pets/create-a-pet.html")}).String()
	b, ctx, must := browserSession(t, bin, 90*time.Second)
	must(b.call("Page.navigate", map[string]any{"url": page}, nil))
	must(b.waitFor(ctx, `document.readyState === "complete" && !!document.querySelector(".field-anchor")`))
	// A page cannot read the clipboard back under file://; the test puts a
	// recorder where the page writes.
	must(b.eval(`(function () {
		window.copied = [];
		Object.defineProperty(navigator, "clipboard", {configurable: true, value: {writeText: function (s) { window.copied.push(s); return Promise.resolve(); }}});
		document.querySelector('#field-body-name .field-anchor').click();
	})()`, nil))
	must(b.waitFor(ctx, `location.hash === "#field-body-name" && window.copied.length === 1`))
	var clicked struct{ Target, Copied string }
	must(b.eval(`({Target: (document.querySelector(":target") || {}).id || "", Copied: window.copied[0]})`, &clicked))
	if clicked.Target != "field-body-name" || clicked.Copied != page+"#field-body-name" {
		t.Errorf("after the click: target %q, copied %q; want field-body-name and %s#field-body-name", clicked.Target, clicked.Copied, page)
	}

	nested := page + "#field-body-address-geo-lat"
	must(b.call("Page.navigate", map[string]any{"url": "about:blank"}, nil))
	must(b.waitFor(ctx, `location.href === "about:blank"`))
	must(b.call("Page.navigate", map[string]any{"url": nested}, nil))
	must(b.waitFor(ctx, `document.readyState === "complete" && location.hash === "#field-body-address-geo-lat"`))
	var opened struct {
		Target string
		Open   bool
		Href   string
	}
	must(b.eval(`(function () {
		var el = document.getElementById("field-body-address-geo-lat"), open = true;
		for (var d = el.closest("details"); d; d = d.parentElement.closest("details")) open = open && d.open;
		return {Target: (document.querySelector(":target") || {}).id || "", Open: open,
			Href: el.querySelector(".field-anchor").getAttribute("href")};
	})()`, &opened))
	if opened.Target != "field-body-address-geo-lat" || !opened.Open || opened.Href != "#field-body-address-geo-lat" {
		t.Errorf("nested parameter opened by its address: %+v; want it the target, its parents open, its link to itself", opened)
	}
}
