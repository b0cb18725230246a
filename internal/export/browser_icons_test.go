package export

import (
	"net/url"
	"path/filepath"
	"testing"
	"time"
)

// TestBrowser_icons opens an air-gapped export of the icons fixture from
// file:// and measures what Chromium draws: the icons of a card, a tab
// button (copied there by app.js), a sidebar group and <Icon size={32}>
// are SVG elements of non-zero size whose shapes have area and stay
// inside their viewBox (nothing clipped), painted in the colour of the
// text around them.
func TestBrowser_icons(t *testing.T) {
	bin := chromium(t)
	dir, _ := exportTo(t, Request{Source: iconsFixture(t), Kind: KindAirGapped})
	b, ctx, must := browserSession(t, bin, 60*time.Second)
	u := (&url.URL{Scheme: "file", Path: filepath.Join(dir, "index.html")}).String()
	must(b.call("Page.navigate", map[string]any{"url": u}, nil))
	must(b.waitFor(ctx, `document.readyState === "complete" && document.documentElement.classList.contains("js") && !!document.querySelector(".tab-buttons")`))
	type drawn struct {
		Tag           string
		W, H          float64 // the <svg> box on the page
		ShapeW        float64 // the shapes' bounding box, in viewBox units
		ShapeH        float64
		Inside        bool // the shapes' box lies within the viewBox
		SameColour    bool // fill or stroke is the colour of the parent
		Found         bool
		ViewBoxString string
	}
	measure := `(sel) => {
		const s = document.querySelector(sel);
		if (!s) return {Found: false};
		const r = s.getBoundingClientRect(), bb = s.getBBox(), vb = s.viewBox.baseVal;
		const cs = getComputedStyle(s), colour = getComputedStyle(s.parentElement).color;
		const paint = cs.fill !== "none" ? cs.fill : cs.stroke;
		return {Found: true, Tag: s.tagName, W: r.width, H: r.height, ShapeW: bb.width, ShapeH: bb.height,
			Inside: bb.x >= vb.x - 0.5 && bb.y >= vb.y - 0.5 && bb.x + bb.width <= vb.x + vb.width + 0.5 && bb.y + bb.height <= vb.y + vb.height + 0.5,
			SameColour: paint === colour, ViewBoxString: s.getAttribute("viewBox")};
	}`
	for _, c := range []struct {
		what, sel string
		size      float64
	}{
		{"card", `.card-icon > svg.i`, 20},
		{"tab button", `.tab-buttons button > svg.i`, 0},
		{"sidebar group", `.nav-group-title > svg.i`, 0},
		{"badge star (reaches past Font Awesome's trimmed box)", `.badge > svg.i`, 0},
		{"Icon size={32}", `span.icon > svg.i`, 32},
	} {
		var d drawn
		must(b.eval(`(`+measure+`)(`+jsString(c.sel)+`)`, &d))
		switch {
		case !d.Found:
			t.Errorf("%s: no %s on the page", c.what, c.sel)
		case d.Tag != "svg" || d.W <= 0 || d.H <= 0 || d.ShapeW <= 0 || d.ShapeH <= 0:
			t.Errorf("%s: drawn as %+v, want an <svg> of non-zero size with shapes", c.what, d)
		case c.size > 0 && (d.W != c.size || d.H != c.size):
			t.Errorf("%s: %gx%g px, want %g", c.what, d.W, d.H, c.size)
		case !d.Inside:
			t.Errorf("%s: the shapes reach past the viewBox %s and are clipped: %+v", c.what, d.ViewBoxString, d)
		case !d.SameColour:
			t.Errorf("%s: not painted in currentColor: %+v", c.what, d)
		}
	}
	// An icon the page shows more than once is a <use> of its one
	// definition; it is drawn, and takes the text's colour in both modes.
	var modes []struct {
		Found, Same bool
		W, Area     float64
		Colour      string
	}
	must(b.eval(`["light", "dark"].map((mode) => {
		document.documentElement.dataset.theme = mode;
		const u = document.querySelector(".card-icon > svg.i > use[href^='#i:']");
		if (!u) return {Found: false};
		const s = u.parentElement, bb = u.getBBox(), colour = getComputedStyle(s.parentElement).color;
		return {Found: !!document.getElementById(u.getAttribute("href").slice(1)), W: s.getBoundingClientRect().width,
			Area: bb.width * bb.height, Colour: colour, Same: getComputedStyle(u).fill === colour};
	})`, &modes))
	if len(modes) != 2 || !modes[0].Found || modes[0].Colour == modes[1].Colour {
		t.Errorf("no card icon drawn through its definition, or the modes share a colour: %+v", modes)
	}
	for _, m := range modes {
		if m.W <= 0 || m.Area <= 0 || !m.Same {
			t.Errorf("icon through its definition: %+v, want drawn in the text's colour", m)
		}
	}
	// The unknown name and the remote image (air-gapped) leave their
	// cards without an icon box taking room.
	var empties int
	must(b.eval(`Array.from(document.querySelectorAll(".card-icon")).filter(e => !e.firstChild && e.getBoundingClientRect().height === 0).length`, &empties))
	if empties != 2 {
		t.Errorf("%d empty icon boxes hidden, want 2 (the unknown name, the remote image)", empties)
	}
}
