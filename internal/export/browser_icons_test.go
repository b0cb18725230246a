package export

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/png"
	"testing"
	"time"
)

// iconShot is an icon by name as Chromium lays it out and paints it.
type iconShot struct {
	Found      bool
	Tag        string
	X, Y, W, H float64 // the span's box, in CSS pixels of the document
	Mask       bool    // its mask is an SVG data URL of the stylesheet
	ShapeW     float64 // the mask's shapes' bounding box, in viewBox units
	ShapeH     float64
	Inside     bool   // the shapes' box lies within the viewBox
	ViewBox    string // the mask's viewBox
	Background string // the span's computed background colour
	Text       string // the colour of the text around it
}

// measureIcon is a script measuring the first element a selector
// matches, scrolled into view, as an iconShot. The mask's SVG is parsed
// back from the computed mask-image and measured in a detached copy, so
// a drawing reaching past its viewBox (clipped) is caught.
const measureIcon = `(sel) => {
	const s = document.querySelector(sel);
	if (!s) return {Found: false};
	s.scrollIntoView({block: "center", inline: "center"});
	const r = s.getBoundingClientRect(), cs = getComputedStyle(s);
	const out = {Found: true, Tag: s.tagName, X: r.x + window.scrollX, Y: r.y + window.scrollY, W: r.width, H: r.height,
		Background: cs.backgroundColor, Text: getComputedStyle(s.parentElement).color};
	const m = /^url\("data:image\/svg\+xml,(.*)"\)$/.exec(cs.maskImage || cs.webkitMaskImage || "");
	if (!m) return out;
	const doc = new DOMParser().parseFromString(decodeURIComponent(m[1]), "image/svg+xml");
	if (doc.documentElement.tagName !== "svg") return out;
	const svg = document.importNode(doc.documentElement, true);
	svg.setAttribute("width", "64"); svg.setAttribute("height", "64");
	svg.style.cssText = "position:absolute;left:-9999px;top:0";
	document.body.appendChild(svg);
	const bb = svg.getBBox(), vb = svg.viewBox.baseVal;
	svg.remove();
	return Object.assign(out, {Mask: true, ShapeW: bb.width, ShapeH: bb.height, ViewBox: doc.documentElement.getAttribute("viewBox"),
		Inside: bb.x >= vb.x - 0.5 && bb.y >= vb.y - 0.5 && bb.x + bb.width <= vb.x + vb.width + 0.5 && bb.y + bb.height <= vb.y + vb.height + 0.5});
}`

// TestBrowser_icons opens an air-gapped export of the icons fixture from
// file:// and looks at what Chromium paints for the icons by name of a
// card, a tab button (copied there by app.js), a sidebar group and page,
// a navigation tab, an anchor, a step,
// an accordion, a callout, a badge and <Icon size={32} color>: each is a
// span of non-zero size masked by its drawing from the site stylesheet
// (whose shapes have area and stay inside their viewBox), and a
// screenshot of it shows the colour of the text around it on part, not
// all, of its box, in light and in dark mode, and in CanvasText under
// forced colours. The plain fixture's top bar link and footer social
// icons, on a page and on the 404 page, are checked the same way.
func TestBrowser_icons(t *testing.T) {
	bin := chromium(t)
	dir, _ := exportTo(t, Request{Source: iconsFixture(t), Kind: KindAirGapped})
	b, ctx, must := browserSession(t, bin, 90*time.Second)
	must(b.setViewport(desktopWidth, 900))
	must(b.openFile(ctx, dir, "index.html"))
	must(b.waitFor(ctx, `document.documentElement.classList.contains("js") && !!document.querySelector(".tab-buttons")`))
	cases := []struct {
		what, sel string
		size      float64
		colour    string // the text colour the icon takes, when the page sets it
	}{
		{"card", `.card-icon > span.i`, 20, ""},
		{"tab button", `.tab-buttons button > span.i`, 0, ""},
		{"sidebar group", `.nav-group-title > span.i`, 0, ""},
		{"sidebar page", `.nav-list a[aria-current="page"] > span.i`, 0, ""},
		{"navigation tab", `.tabbar a[aria-current] > span.i`, 0, ""},
		{"anchor", `.anchors a > span.i`, 0, ""},
		{"step", `.step-icon > span.i`, 0, ""},
		{"accordion", `summary > span.i`, 0, ""},
		{"callout", `.callout-icon > span.i`, 0, ""},
		{"badge star (reaches past Font Awesome's trimmed box)", `.badge > span.i`, 0, ""},
		{"Icon size={32}", `span.icon > span.i`, 32, "rgb(255, 0, 0)"},
	}
	textColours := map[string]map[string]string{}
	for _, mode := range []string{"light", "dark"} {
		must(b.eval(`document.documentElement.dataset.theme = `+jsString(mode), nil))
		for _, c := range cases {
			var d iconShot
			must(b.eval(`(`+measureIcon+`)(`+jsString(c.sel)+`)`, &d))
			what := mode + ": " + c.what
			switch {
			case !d.Found:
				t.Errorf("%s: no %s on the page", what, c.sel)
				continue
			case d.Tag != "SPAN" || d.W <= 0 || d.H <= 0:
				t.Errorf("%s: laid out as %+v, want a span of non-zero size", what, d)
				continue
			case !d.Mask || d.ShapeW <= 0 || d.ShapeH <= 0:
				t.Errorf("%s: not masked by a drawing with shapes: %+v", what, d)
			case !d.Inside:
				t.Errorf("%s: the shapes reach past the viewBox %s and are clipped: %+v", what, d.ViewBox, d)
			case c.size > 0 && (d.W != c.size || d.H != c.size):
				t.Errorf("%s: %gx%g px, want %g", what, d.W, d.H, c.size)
			case d.Background != d.Text || c.colour != "" && d.Text != c.colour:
				t.Errorf("%s: painted %s on text of %s, want the text's colour %s", what, d.Background, d.Text, c.colour)
			}
			if textColours[c.what] == nil {
				textColours[c.what] = map[string]string{}
			}
			textColours[c.what][mode] = d.Text
			ink, total, err := inkInShot(b, d, d.Text)
			must(err)
			// The drawing's shapes take the text colour on part of the
			// box; a missing mask would paint all of it, a missing
			// drawing none.
			if ink*100 < total*3 || ink*100 > total*95 {
				t.Errorf("%s: %d of %d pixels in the text's colour %s, want some but not all", what, ink, total, d.Text)
			}
		}
	}
	if m := textColours["sidebar group"]; m["light"] == m["dark"] {
		t.Errorf("the sidebar's text has one colour in both modes (%v): the mode test proves nothing", m)
	}
	// Under forced colours (Windows High Contrast) backgrounds are the
	// system's: the icons paint in its text colour instead of vanishing.
	must(b.call("Emulation.setEmulatedMedia", map[string]any{"features": []map[string]string{{"name": "forced-colors", "value": "active"}}}, nil))
	var canvasText string
	must(b.eval(`(() => { const e = document.createElement("span"); e.style.color = "CanvasText"; document.body.appendChild(e);
		const c = getComputedStyle(e).color; e.remove(); return c; })()`, &canvasText))
	for _, c := range cases[:3] {
		var d iconShot
		must(b.eval(`(`+measureIcon+`)(`+jsString(c.sel)+`)`, &d))
		if !d.Found || d.W <= 0 || d.Background != canvasText {
			t.Errorf("forced colours: %s: %+v, want painted in CanvasText %s", c.what, d, canvasText)
			continue
		}
		ink, total, err := inkInShot(b, d, canvasText)
		must(err)
		if ink*100 < total*3 || ink*100 > total*95 {
			t.Errorf("forced colours: %s: %d of %d pixels in CanvasText %s, want some but not all", c.what, ink, total, canvasText)
		}
	}
	must(b.call("Emulation.setEmulatedMedia", map[string]any{"features": []map[string]string{}}, nil))
	// The unknown name and the remote image (air-gapped) leave their
	// cards without an icon box taking room.
	var empties int
	must(b.eval(`Array.from(document.querySelectorAll(".card-icon")).filter(e => !e.firstChild && e.getBoundingClientRect().height === 0).length`, &empties))
	if empties != 2 {
		t.Errorf("%d empty icon boxes hidden, want 2 (the unknown name, the remote image)", empties)
	}
	// The top bar's and footer's icons, on a page and on the 404 page,
	// of the plain fixture: its stylesheet holds their masks too.
	plain, _ := exportTo(t, Request{Source: dirFS(t, "testdata/fixture"), Kind: KindAirGapped})
	for _, c := range []struct {
		page, what, sel string
		size            float64
	}{
		{"index.html", "navbar link", `.navbar-links a > span.i`, 0},
		{"index.html", "footer social", `.footer > a > span.i`, 18},
		{"404.html", "navbar link", `.navbar-links a > span.i`, 0},
	} {
		must(b.openFile(ctx, plain, c.page))
		var d iconShot
		must(b.eval(`(`+measureIcon+`)(`+jsString(c.sel)+`)`, &d))
		what := c.page + ": " + c.what
		if !d.Found || !d.Mask || d.W <= 0 || c.size > 0 && d.W != c.size || d.Background != d.Text {
			t.Errorf("%s: %+v, want a masked span in the text's colour", what, d)
			continue
		}
		ink, total, err := inkInShot(b, d, d.Text)
		must(err)
		if ink*100 < total*3 || ink*100 > total*95 {
			t.Errorf("%s: %d of %d pixels in the text's colour %s, want some but not all", what, ink, total, d.Text)
		}
	}
}

// inkInShot takes a screenshot of the box of d, at twice its size, and
// counts its pixels and those within a small distance of colour, a CSS
// rgb() value.
func inkInShot(b *browser, d iconShot, colour string) (ink, total int, err error) {
	var shot struct{ Data string }
	clip := map[string]any{"x": d.X, "y": d.Y, "width": d.W, "height": d.H, "scale": 2}
	if err := b.call("Page.captureScreenshot", map[string]any{"format": "png", "clip": clip}, &shot); err != nil {
		return 0, 0, err
	}
	data, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil {
		return 0, 0, err
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return 0, 0, err
	}
	var want [3]int
	if _, err := fmt.Sscanf(colour, "rgb(%d, %d, %d)", &want[0], &want[1], &want[2]); err != nil {
		return 0, 0, fmt.Errorf("colour %q: %w", colour, err)
	}
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			total++
			if near(img, x, y, want) {
				ink++
			}
		}
	}
	return ink, total, nil
}

// near reports whether the pixel at x, y is within 24 per channel of c.
func near(img image.Image, x, y int, c [3]int) bool {
	r, g, bl, _ := img.At(x, y).RGBA()
	for i, v := range []uint32{r >> 8, g >> 8, bl >> 8} {
		if d := int(v) - c[i]; d < -24 || d > 24 {
			return false
		}
	}
	return true
}
