package jsx

import (
	"strings"
	"testing"
)

// renderTree writes host nodes, as prelude.js hands them over, as HTML.
func renderTree(t *testing.T, tree string) string {
	t.Helper()
	r := &renderer{limit: 1 << 20}
	out, err := r.html(tree)
	if err != nil {
		t.Fatalf("html(%s): %v", tree, err)
	}
	return out.String()
}

// TestRender_svgAnimationCannotSetScript: an SVG animation that would set
// a link's href (or another URL attribute, or a handler) to a script when
// it runs is left out; one that moves a shape, or sets a link to a safe
// place, stays.
func TestRender_svgAnimationCannotSetScript(t *testing.T) {
	link := func(anim string) string {
		return `[{"e": "svg", "p": {}, "c": [{"e": "a", "p": {"href": "#x"}, "c": [` + anim + `, {"e": "text", "p": {}, "c": ["click"]}]}]}]`
	}
	for _, anim := range []string{
		`{"e": "animate", "p": {"attributeName": "href", "to": "javascript:alert(1)", "begin": "0s", "fill": "freeze"}}`,
		`{"e": "set", "p": {"attributeName": "href", "to": "javascript:alert(1)"}}`,
		`{"e": "set", "p": {"attributename": "HREF", "TO": " JaVaScRiPt:alert(1)"}}`,
		`{"e": "set", "p": {"attributeName": "xlink:href", "to": "javascript:alert(1)"}}`,
		`{"e": "animate", "p": {"attributeName": "href", "values": "#a;javascript:alert(1)", "dur": "1s"}}`,
		`{"e": "animate", "p": {"attributeName": "href", "from": "data:text/html,<script>alert(1)</script>", "to": "#a"}}`,
		`{"e": "animateTransform", "p": {"attributeName": "href", "to": "javascript:alert(1)"}}`,
		`{"e": "animateMotion", "p": {"attributeName": "href", "by": "javascript:alert(1)"}}`,
		`{"e": "set", "p": {"attributeName": "onclick", "to": "alert(1)"}}`,
		`{"e": "set", "p": {"attributeName": "href", "to": ["javascript:alert(1)"]}}`,
	} {
		got := renderTree(t, link(anim))
		if strings.Contains(strings.ToLower(got), "javascript") || strings.Contains(got, "data:") || strings.Contains(got, "onclick") ||
			strings.Contains(strings.ToLower(got), "<animate") || strings.Contains(got, "<set") {
			t.Errorf("animation %s kept: %s", anim, got)
		}
		if !strings.Contains(got, `<a href="#x"><text>click</text></a>`) {
			t.Errorf("the link around animation %s is gone: %s", anim, got)
		}
	}
	for anim, want := range map[string]string{
		`{"e": "animate", "p": {"attributeName": "opacity", "from": "0", "to": "1", "dur": "1s"}}`: `<animate attributeName="opacity" dur="1s" from="0" to="1">`,
		`{"e": "set", "p": {"attributeName": "href", "to": "#b"}}`:                                 `<set attributeName="href" to="#b">`,
		`{"e": "animate", "p": {"attributeName": "href", "values": "a.html;https://x.test/"}}`:     `<animate attributeName="href" values="a.html;https://x.test/">`,
	} {
		if got := renderTree(t, link(anim)); !strings.Contains(got, want) {
			t.Errorf("animation %s: got %s, want %s in it", anim, got, want)
		}
	}
}

// TestRender_parsingElementsNeutralised: <plaintext> would turn the rest
// of the page into text, and <xmp> and <listing> read their content
// otherwise than everything else; they become <pre> with the same
// content. <noembed> and <noframes>, whose content a browser never
// shows, go.
func TestRender_parsingElementsNeutralised(t *testing.T) {
	for tag, want := range map[string]string{
		"plaintext": `<pre><b>a</b> &lt;i&gt;</pre><p>after</p>`,
		"PLAINTEXT": `<pre><b>a</b> &lt;i&gt;</pre><p>after</p>`,
		"xmp":       `<pre><b>a</b> &lt;i&gt;</pre><p>after</p>`,
		"listing":   `<pre><b>a</b> &lt;i&gt;</pre><p>after</p>`,
		"noembed":   `<p>after</p>`,
		"noframes":  `<p>after</p>`,
	} {
		got := renderTree(t, `[{"e": "`+tag+`", "p": {}, "c": [{"e": "b", "p": {}, "c": ["a"]}, " <i>"]}, {"e": "p", "p": {}, "c": ["after"]}]`)
		if got != want {
			t.Errorf("<%s>: got %s, want %s", tag, got, want)
		}
	}
}
