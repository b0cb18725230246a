package export

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/demosite"
)

// contrastScript lists every piece of text on the page, with the colour
// it is drawn in against the background it is drawn on, that reads below
// 4.5:1. Colours are read back from a canvas, so any CSS colour syntax
// counts; translucent colours are blended over what is below them. Text
// hidden from sight (display, visibility, clipping to a pixel, no size)
// and text on a background image are left out.
const contrastScript = `(function () {
	var cv = document.createElement("canvas"); cv.width = cv.height = 1;
	var cx = cv.getContext("2d", {willReadFrequently: true});
	function rgba(c) { cx.clearRect(0, 0, 1, 1); cx.fillStyle = "#000"; cx.fillStyle = c; cx.fillRect(0, 0, 1, 1); var d = cx.getImageData(0, 0, 1, 1).data; return [d[0], d[1], d[2], d[3] / 255]; }
	function over(top, below) { var a = top[3]; return [top[0] * a + below[0] * (1 - a), top[1] * a + below[1] * (1 - a), top[2] * a + below[2] * (1 - a), 1]; }
	function lum(c) { return c.slice(0, 3).map(function (v) { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }).reduce(function (s, v, i) { return s + v * [0.2126, 0.7152, 0.0722][i]; }, 0); }
	// back is what e's text is drawn on, or null over an image.
	function back(e) {
		var layers = [];
		for (var n = e; n && n.nodeType === 1; n = n.parentElement) {
			var st = getComputedStyle(n);
			if (st.backgroundImage && st.backgroundImage !== "none") return null;
			var c = rgba(st.backgroundColor);
			if (c[3] > 0) { layers.push(c); if (c[3] === 1) break; }
		}
		var base = [255, 255, 255, 1];
		for (var i = layers.length - 1; i >= 0; i--) base = over(layers[i], base);
		return base;
	}
	function name(e) {
		var s = e.tagName.toLowerCase();
		if (typeof e.className === "string" && e.className.trim()) s += "." + e.className.trim().split(/\s+/).join(".");
		var p = e.parentElement;
		if (p && p !== document.body && typeof p.className === "string" && p.className.trim()) s = "." + p.className.trim().split(/\s+/)[0] + " > " + s;
		return s;
	}
	var out = [], seen = {}, checked = 0;
	var walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	for (var t = walk.nextNode(); t; t = walk.nextNode()) {
		if (!t.nodeValue.trim()) continue;
		var e = t.parentElement;
		if (!e || e.closest("script, style, textarea, svg, [hidden], .md-source")) continue;
		var st = getComputedStyle(e), r = e.getBoundingClientRect();
		if (st.visibility !== "visible" || r.width < 2 || r.height < 2 || +st.opacity === 0 || !e.getClientRects().length) continue;
		var hiddenBy = false;
		for (var n = e; n && n.nodeType === 1; n = n.parentElement) {
			var s2 = getComputedStyle(n);
			if (+s2.opacity === 0 || s2.clipPath === "inset(50%)" || (s2.position === "absolute" && s2.clip && s2.clip !== "auto")) { hiddenBy = true; break; }
		}
		if (hiddenBy) continue;
		var bg = back(e);
		if (!bg) continue;
		var fg = rgba(st.color);
		if (fg[3] < 1) fg = over(fg, bg);
		var l1 = lum(fg), l2 = lum(bg), ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
		checked++;
		if (ratio < 4.5) {
			var k = name(e);
			if (seen[k]) continue;
			seen[k] = 1;
			out.push(k + " " + JSON.stringify(t.nodeValue.trim().slice(0, 30)) + " " + ratio.toFixed(2) + ":1");
		}
	}
	return {Checked: checked, Low: out};
})()`

// TestBrowser_contrastOfEveryPageKind opens every kind of page a bundle
// has (home, a guide, a page of components, an MDX API page, a page from
// a spec, an MDX page of a spec's operation, a schema page, the
// not-found page), from file://, in light and
// dark mode, with the search results and a switcher menu open, and reads
// the contrast of every piece of text on it (body, links, code tokens,
// callouts, cards, tabs, badges, menus): each reaches 4.5:1.
func TestBrowser_contrastOfEveryPageKind(t *testing.T) {
	bin := chromium(t)
	demo, _ := exportTo(t, Request{Source: demosite.FS(), Kind: KindAirGapped, Features: []string{"playground"}})
	api, _ := exportTo(t, Request{Source: apiSite(), Kind: KindAirGapped, Features: []string{"playground"}})
	fix, _ := exportTo(t, Request{Source: fixture(), Kind: KindAirGapped})
	sw, _ := exportTo(t, Request{Source: mapFS(switcherSite()), Kind: KindAirGapped})
	repo, _ := exportTo(t, Request{Source: docsRepo(), Kind: KindAirGapped})
	b, ctx, must := browserSession(t, bin, 4*time.Minute)
	must(b.setViewport(desktopWidth, 1000))
	pages := []struct{ kind, dir, page, search string }{
		{"home", demo, "index.html", "webhook"},
		{"guide", demo, "guides/webhooks.html", ""},
		{"components", fix, "components.html", ""},
		{"api-mdx", demo, "api-reference/rates/create.html", ""},
		{"api-openapi", api, "api-reference/pets/create-a-pet.html", ""},
		{"api-mdx-spec", api, "reference/item.html", ""},
		{"schema", repo, "en/schemas/pet.html", ""},
		{"not-found", demo, "404.html", ""},
		{"switcher", sw, "en/v2/guide/setup.html", ""},
	}
	for _, mode := range []string{"light", "dark"} {
		total := 0
		for _, p := range pages {
			must(b.openFile(ctx, p.dir, p.page))
			must(b.waitFor(ctx, `document.documentElement.classList.contains("js")`))
			must(b.eval(`document.documentElement.dataset.theme = "`+mode+`"`, nil))
			if p.search != "" {
				runSearch(ctx, t, b, p.search)
			}
			must(b.eval(`(document.querySelector("details.switch") || {}).open = true`, nil))
			var got struct {
				Checked int
				Low     []string
			}
			must(b.eval(contrastScript, &got))
			total += got.Checked
			if got.Checked < 10 {
				t.Errorf("%s mode, %s (%s): only %d pieces of text checked", mode, p.kind, p.page, got.Checked)
			}
			if len(got.Low) > 0 {
				t.Errorf("%s mode, %s (%s): below 4.5:1:\n  %s", mode, p.kind, p.page, strings.Join(got.Low, "\n  "))
			}
		}
		t.Logf("%s mode: %s pieces of text checked on %d page kinds", mode, fmt.Sprint(total), len(pages))
	}
}
