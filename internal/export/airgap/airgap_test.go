package airgap

import (
	"slices"
	"strings"
	"testing"
)

func TestOfflineHTML(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string // substrings of the output
		gone     []string // substrings that must not survive
		urls     []string
	}{
		{"youtube iframe", `<p>Watch:</p><iframe width="560" src="https://www.youtube.com/embed/abc?si=x&amp;t=1" title="Intro video" allowfullscreen></iframe><p>after</p>`,
			[]string{`<p>Watch:</p><span class="remote-embed" role="note">`, `Embedded page “Intro video” not included`,
				`<code class="remote-embed-url">https://www.youtube.com/embed/abc?si=x&amp;t=1</code></span><p>after</p>`},
			[]string{"<iframe"}, []string{"https://www.youtube.com/embed/abc?si=x&t=1"}},
		{"video with sources", `<video controls poster="/p.png"><source src="https://v.example/a.mp4" type="video/mp4"><track src="https://v.example/a.vtt">Your browser…</video>`,
			[]string{`Video not included`, `<code class="remote-embed-url">https://v.example/a.mp4</code> <code class="remote-embed-url">https://v.example/a.vtt</code>`},
			[]string{"<video", "<source", "Your browser"}, []string{"/p.png", "https://v.example/a.mp4", "https://v.example/a.vtt"}},
		// A page opened from file:// reads a root-relative address from the
		// root of the disk, and a backslashed host as a network share.
		{"root-relative script", `<script src="/x.js"></script>`, []string{`Script not included`}, []string{"<script"}, []string{"/x.js"}},
		{"UNC image", `<img src="\\\\host\\x.png" alt="x">`, []string{`Image “x” not included`}, []string{"<img"}, []string{`\\\\host\\x.png`}},
		{"meta refresh away", `<meta http-equiv="Refresh" content="0; URL='https://evil.example/'">`, nil, []string{"<meta"}, []string{"https://evil.example/"}},
		{"meta refresh inside stays", `<meta http-equiv="refresh" content="0; url=guide.html">`, []string{`url=guide.html`}, nil, nil},
		{"base", `<base href="https://evil.example/"><a href="a.html">a</a>`, []string{`<a href="a.html">a</a>`}, []string{"<base"}, []string{"<base href=https://evil.example/>"}},
		{"ping", `<a href="a.html" ping="https://track.example/p">a</a>`, []string{`<a href="a.html">a</a>`}, []string{"ping"}, []string{"ping https://track.example/p"}},
		{"form target", `<form action="https://evil.example/f"><button formaction="//evil.example/g">go</button></form>`, []string{`<form>`, `<button>go</button>`}, []string{"evil"}, []string{"https://evil.example/f", "//evil.example/g"}},
		{"local form target stays", `<form action="search.html"></form>`, []string{`<form action="search.html">`}, nil, nil},
		{"root-relative css made relative", `<div style="background:url(/img/a.png)">x</div>`, []string{`url(&#34;../img/a.png&#34;)`}, []string{"(/img"}, nil},
		{"local video stays", `<video controls src="media/a.mp4"><source src="../media/a.webm"></video>`,
			[]string{`<video controls src="media/a.mp4"><source src="../media/a.webm"></video>`}, nil, nil},
		{"nested object", `<object data="//cdn.example/x.swf"><object data="y.swf"></object><embed src="z"></object><p>k</p>`,
			[]string{`Embedded content not included`, `//cdn.example/x.swf</code></span><p>k</p>`}, []string{"<object", "<embed"}, []string{"//cdn.example/x.swf"}},
		{"audio and embed", `<audio src="http://a.example/s.ogg"></audio><embed src="https://e.example/e.pdf">`,
			[]string{"Audio not included", "Embedded content not included"}, []string{"<audio", "<embed"}, []string{"http://a.example/s.ogg", "https://e.example/e.pdf"}},
		{"remote script", `<script src="https://cdn.example/widget.js" async></script><p>x</p>`,
			[]string{"Script not included", "https://cdn.example/widget.js</code></span><p>x</p>"}, []string{"<script"}, []string{"https://cdn.example/widget.js"}},
		{"inline script", `<p>a</p><script>document.write("<img src=https://t.example/p>")</script><p>b</p>`,
			[]string{"<p>a</p><p>b</p>"}, []string{"<script", "remote-embed"}, []string{"an inline script"}},
		{"bundled script stays", `<script src="../_static/api.js"></script><p>x</p>`,
			[]string{`<script src="../_static/api.js"></script><p>x</p>`}, []string{"remote-embed"}, nil},
		{"json-ld stays", `<script type="application/ld+json">{"@context": "https://schema.org"}</script>`,
			[]string{`<script type="application/ld+json">`}, nil, nil},
		{"stylesheet and icon", `<link rel="stylesheet" href="https://fonts.example/css"><link rel="canonical" href="https://docs.example/x">`,
			[]string{"Linked resource not included", `<link rel="canonical" href="https://docs.example/x">`}, []string{`rel="stylesheet"`}, []string{"https://fonts.example/css"}},
		{"images", `<p>See <img src="https://i.example/a.png" alt="Diagram"> and <img src="local.png" srcset="local.png 1x, https://i.example/b.png 2x"></p>`,
			[]string{`<p>See <span class="remote-embed" role="note"><span class="remote-embed-note">Image “Diagram” not included`, "https://i.example/b.png</code>"},
			[]string{"<img"}, []string{"https://i.example/a.png", "https://i.example/b.png"}},
		{"svg image", `<svg><image href="https://i.example/s.png"/><use xlink:href="#local"/></svg>`,
			[]string{"Image not included", `<use xlink:href="#local"/>`}, []string{"<image"}, []string{"https://i.example/s.png"}},
		{"style attribute", `<div class="hero" style="background: url('https://i.example/bg.jpg') center; color: red">Hi</div>`,
			[]string{`<div class="hero" style="background: none /* remote: https://i.example/bg.jpg */ center; color: red">Hi</div>`}, []string{"url("}, []string{"https://i.example/bg.jpg"}},
		{"style block", `<style>@import "https://f.example/a.css"; .x { background-image: url(//i.example/x.png) } .y { background: url(y.png) }</style><p>url(https://not.css/) in prose</p>`,
			[]string{`<style>/* remote stylesheet not included: https://f.example/a.css */ .x { background-image: none /* remote: //i.example/x.png */ } .y { background: url(y.png) }</style>`,
				`<p>url(https://not.css/) in prose</p>`}, []string{"@import"}, []string{"https://f.example/a.css", "//i.example/x.png"}},
		{"links and data stay", `<a href="https://example.org">x</a><img src="data:image/png;base64,AAAA"><img src="img/a.png">`,
			[]string{`<a href="https://example.org">x</a><img src="data:image/png;base64,AAAA"><img src="img/a.png">`}, nil, nil},
		{"unclosed iframe", `<iframe src="https://x.example/">`, []string{"Embedded page not included"}, []string{"<iframe"}, []string{"https://x.example/"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// A page one directory below the bundle root, as most are.
			out, urls := HTML([]byte(tc.in), "../", "")
			got := string(out)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("output lacks %s\noutput: %s", w, got)
				}
			}
			for _, g := range tc.gone {
				if strings.Contains(got, g) {
					t.Errorf("output still has %s\noutput: %s", g, got)
				}
			}
			if !slices.Equal(urls, tc.urls) {
				t.Errorf("replaced %q, want %q", urls, tc.urls)
			}
			if tc.urls == nil && tc.gone == nil && got != tc.in {
				t.Errorf("nothing remote, yet the markup changed:\n%s\n%s", tc.in, got)
			}
		})
	}
}

func TestOfflineCSS(t *testing.T) {
	in := "@import url(\"https://f.example/a.css\") screen;\n@import 'local.css';\n@font-face { src: url(https://f.example/x.woff2) format('woff2'), url(fonts/x.woff) }\n" +
		".a { background: URL( \"http://i.example/*/evil.png\" ) }\n"
	got, urls := CSS(in, "", "")
	want := "/* remote stylesheet not included: https://f.example/a.css */\n@import 'local.css';\n@font-face { src: none /* remote: https://f.example/x.woff2 */ format('woff2'), url(fonts/x.woff) }\n" +
		".a { background: none /* remote: http://i.example/*\\/evil.png */ }\n"
	if got != want {
		t.Errorf("offlineCSS =\n%s\nwant\n%s", got, want)
	}
	if !slices.Equal(urls, []string{"https://f.example/a.css", "https://f.example/x.woff2", "http://i.example/*/evil.png"}) {
		t.Errorf("urls = %q", urls)
	}
}

// TestOfflineCSS_rootRelative: from file:// a root-relative url() names the
// root of the reader's disk; it is made relative to the bundle root, and a
// backslashed host is taken out like a remote address.
func TestOfflineCSS_rootRelative(t *testing.T) {
	in := "@import '/base.css';\n.a { background: url(/img/a.png) }\n.b { background: url(\\\\host\\x.png) }\n"
	got, urls := CSS(in, "../", "")
	want := "@import url(\"../base.css\");\n.a { background: url(\"../img/a.png\") }\n.b { background: none /* remote: \\\\host\\x.png */ }\n"
	if got != want {
		t.Errorf("CSS =\n%s\nwant\n%s", got, want)
	}
	if !slices.Equal(urls, []string{`\\host\x.png`}) {
		t.Errorf("urls = %q", urls)
	}
}

// TestOfflineCSS_basePath: a root-relative url() written with the live
// site's base path names the bundle's file without it.
func TestOfflineCSS_basePath(t *testing.T) {
	got, _ := CSS(".a { background: url(/docs/img/a.png) } .b { background: url(/docsets/b.png) }", "../", "/docs")
	want := `.a { background: url("../img/a.png") } .b { background: url("../docsets/b.png") }`
	if got != want {
		t.Errorf("CSS =\n%s\nwant\n%s", got, want)
	}
}
