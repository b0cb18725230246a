package airgap

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// quickCases are markup the quick test must send to the full pass, in
// the forms a careless prescan would miss, and markup it may skip.
var quickCases = []struct {
	in   string
	full bool
}{
	{`<p>Plain <strong>text</strong> and <a href="https://example.org">a link</a>.</p>`, false},
	{`<pre class="chroma"><code><span class="k">if</span> a &lt; b</code></pre>`, false},
	{`<IMG SRC="https://i.example/a.png">`, true},
	{`<Iframe src=//x.example/>`, true},
	{`<div STYLE="background:URL(https://i.example/x.png)">x</div>`, true},
	{`<a href="a.html" PING="https://t.example/">a</a>`, true},
	{`<a href="a.html" ping>a</a>`, true},
	{`<form ACTION="https://evil.example/f"></form>`, true},
	{`<a href="a.html" p` + "\u0130" + `ng="https://t.example/">a</a>`, true}, // İ lowers to i
	{`<l` + "\u0130" + `nk rel=stylesheet href=https://f.example/c.css>`, true},
	{`<fe` + "\u0130" + `mage href="https://i.example/x.png"/>`, true}, // 8 bytes, "feimage" lowered
	{`<meta http-equiv=refresh content="0; url=https://evil.example/">`, true},
	{`<base href="https://evil.example/">`, true},
	{`<style>.x{background:u\72l(https://i.example/x.png)}</style>`, true},
	{`<svg><use xlink:href="https://i.example/s.svg#a"/></svg>`, true},
	{`<p>Mapping a transaction</p>`, true}, // words in text count; the full pass decides
	{`a < b and c<d`, false},
	{`<div style="background:ur&#108;(https://i.example/x.png)">x</div>`, true},
	{`<div style="background:u\72 l(https://i.example/x.png)">x</div>`, true},
	{`<p>&#34;styled&#34; text</p>`, true}, // a reference and the word: the full pass decides
	{`<p>a \ b &amp; c</p>`, false},
}

func TestMayReachOut(t *testing.T) {
	for _, tc := range quickCases {
		if got := mayReachOut([]byte(tc.in)); got != tc.full {
			t.Errorf("mayReachOut(%q) = %v, want %v", tc.in, got, tc.full)
		}
	}
}

// TestHTML_quickPathAgrees holds the quick test to its promise on the
// pages of the export's goldens (real-repository fixtures among them)
// and on the cases above: HTML returns what the full pass returns.
func TestHTML_quickPathAgrees(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join("..", "testdata", "golden", "*", "*.html"))
	if err != nil {
		t.Fatal(err)
	}
	top, _ := filepath.Glob(filepath.Join("..", "testdata", "golden", "*.html"))
	pages = append(pages, top...)
	if len(pages) < 10 {
		t.Fatalf("only %d golden pages found", len(pages))
	}
	inputs := make([][]byte, 0, len(pages)+len(quickCases))
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, b)
		// A page's article alone, as the export passes it.
		if _, body, ok := bytes.Cut(b, []byte(`<div class="prose">`)); ok {
			inputs = append(inputs, body)
		}
	}
	for _, tc := range quickCases {
		inputs = append(inputs, []byte(tc.in))
	}
	skipped := 0
	for _, in := range inputs {
		if !mayReachOut(in) {
			skipped++
		}
		checkSame(t, in)
	}
	t.Logf("%d of %d inputs took the quick path", skipped, len(inputs))
}

func checkSame(t *testing.T, in []byte) {
	t.Helper()
	got, gotURLs := HTML(in, "../", "/docs")
	want, wantURLs := rewrite(in, "../", "/docs")
	if !bytes.Equal(got, want) || !slices.Equal(gotURLs, wantURLs) {
		t.Errorf("quick path and full pass differ on %q:\n got %q %q\nwant %q %q", short(in), got, gotURLs, want, wantURLs)
	}
}

func short(b []byte) string {
	s := string(b)
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return strings.ToValidUTF8(s, "?")
}

// FuzzHTML_quickPath looks for markup on which the quick test skips a
// page the full pass would change.
func FuzzHTML_quickPath(f *testing.F) {
	for _, tc := range quickCases {
		f.Add([]byte(tc.in))
	}
	for _, tc := range refreshCases {
		f.Add([]byte(`<meta http-equiv="refresh" content="` + tc.content + `">`))
	}
	for _, tc := range outsideCases {
		f.Add([]byte(`<script src="` + tc.ref + `"></script><div style="background:url(` + tc.ref + `)">x</div>`))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		checkSame(t, in)
	})
}

// BenchmarkHTML_article times HTML on an article of the goldens that
// has nothing remote, against the full pass it skips.
func BenchmarkHTML_article(b *testing.B) {
	page, err := os.ReadFile(filepath.Join("..", "testdata", "golden", "docsrepo", "schema-in-file.html"))
	if err != nil {
		b.Fatal(err)
	}
	_, body, _ := bytes.Cut(page, []byte(`<div class="prose">`))
	body, _, _ = bytes.Cut(body, []byte(`</article>`))
	if mayReachOut(body) {
		b.Skip("the article now holds something the full pass acts on")
	}
	b.Run("quick", func(b *testing.B) {
		for b.Loop() {
			HTML(body, "../", "")
		}
	})
	b.Run("full", func(b *testing.B) {
		for b.Loop() {
			rewrite(body, "../", "")
		}
	})
}
