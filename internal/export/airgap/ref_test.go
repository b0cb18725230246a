package airgap

import (
	"net/url"
	"slices"
	"strings"
	"testing"
)

// refreshCases are meta refresh contents as the HTML standard's shared
// declarative refresh steps read them: where the page goes ("" reloads
// it), or no refresh at all.
var refreshCases = []struct {
	content, target string
	ok              bool
}{
	{"0; url=https://a.test/", "https://a.test/", true},
	{"0;URL='https://a.test/'", "https://a.test/", true},
	{"0,url=http://a.test/", "http://a.test/", true},
	{"0 http://a.test/", "http://a.test/", true},
	{"0\thttp://a.test/", "http://a.test/", true},
	{"0 , url = \"http://a.test/\" trailing", "http://a.test/", true},
	{"1.5.5;http://a.test/", "http://a.test/", true},
	{".5; url=x.html", "x.html", true},
	{"  3  ", "", true},
	{"0; url=", "", true},
	{"0; urlmap.html", "urlmap.html", true},
	{"0; url 'x.html'", "url 'x.html'", true},
	{"0; 'unclosed.html", "unclosed.html", true},
	{"0x; url=http://a.test/", "", false},
	{"soon; url=http://a.test/", "", false},
	{"", "", false},
}

func TestRefreshTarget(t *testing.T) {
	for _, tc := range refreshCases {
		target, ok := RefreshTarget(tc.content)
		if target != tc.target || ok != tc.ok {
			t.Errorf("RefreshTarget(%q) = %q, %v; want %q, %v", tc.content, target, ok, tc.target, tc.ok)
		}
	}
}

// outsideCases are references read from a page one directory below the
// bundle root (prefix "../"): every spelling of a way out, and paths that
// stay in.
var outsideCases = []struct {
	ref     string
	outside bool
}{
	{"https://a.test/x.js", true},
	{"//a.test/x.js", true},
	{`\\a.test\x.js`, true},
	{`/\a.test/x.js`, true},
	{"/etc/passwd", true},
	{`\etc\passwd`, true},
	{"file:///etc/passwd", true},
	{"FILE:x", true},
	{"javascript:alert(1)", true},
	{"C|/Windows/x.js", true},
	{"c|", true},
	{"../../x.js", true},
	{"../../../home/u/.ssh/x.js", true},
	{"%2e%2e/%2e%2e/x.js", true},
	{"%2E%2e/.%2E/x.js", true},
	{`..\..\x.js`, true},
	{`..%5c..%5cx.js`, true},
	{"..%2f..%2fx.js", true},
	{"a/../../../x.js", true},
	{"../..", true},
	{"../../bundle/x.js", true}, // back in, perhaps; the bundle's own name is not known
	{" \t../\n../x.js", true},
	{"../_static/app.js", false},
	{"../x.js?../../..", false},
	{"../x.js#../../..", false},
	{"a/b/../../../x.js", false},
	{"x.js", false},
	{"./x.js", false},
	{"..x/y.js", false},
	{"%2e%2ex/y.js", false},
	{"data:image/png;base64,AAAA", false},
	{"#top", false},
	{"", false},
}

func TestOutside(t *testing.T) {
	for _, tc := range outsideCases {
		if got := Outside(tc.ref, "../"); got != tc.outside {
			t.Errorf("Outside(%q, \"../\") = %v, want %v", tc.ref, got, tc.outside)
		}
	}
	// At the root, one climb is already out; three levels down, two are not.
	if !Outside("../x.js", "") || Outside("../../x.js", "../../../") {
		t.Error("Outside does not count the page's depth")
	}
}

// TestOfflineHTML_waysOut: each way out a page once kept, from a page one
// directory below the bundle root; the way out is taken out and named.
func TestOfflineHTML_waysOut(t *testing.T) {
	for _, tc := range []struct{ name, in, gone, url string }{
		{"refresh after a comma", `<meta http-equiv="refresh" content="0,url=http://evil.test/">`, "<meta", "http://evil.test/"},
		{"refresh after a space", `<meta http-equiv="refresh" content="0 http://evil.test/">`, "<meta", "http://evil.test/"},
		{"refresh with entities", `<meta http-equiv="refresh" content="0&#44;&#32;URL=&quot;//evil.test/&quot;">`, "<meta", "//evil.test/"},
		{"refresh up the disk", `<meta http-equiv="REFRESH" content="0; url=../../home/x.html">`, "<meta", "../../home/x.html"},
		{"climbing script", `<script src="../../x.js"></script>`, "<script", "../../x.js"},
		{"encoded climbing script", `<script src="%2E%2e/%2e%2E/x.js"></script>`, "<script", "%2E%2e/%2e%2E/x.js"},
		{"backslashed climbing script", `<script src="..\..\x.js"></script>`, "<script", `..\..\x.js`},
		{"entity climbing script", `<script src="&#46;&#46;/&period;&period;/x.js"></script>`, "<script", "../../x.js"},
		{"svg script href", `<svg><script href="../../x.js"></script></svg>`, "<script", "../../x.js"},
		{"climbing image", `<img src="../../../etc/x.png" alt="x">`, "<img", "../../../etc/x.png"},
		{"climbing srcset", `<img src="a.png" srcset="../../x.png 2x">`, "<img", "../../x.png"},
		{"climbing stylesheet", `<link rel="stylesheet" href="..\..\x.css">`, "<link", `..\..\x.css`},
		{"climbing css", `<div style="background:url(../../x.png)">x</div>`, "url(", "../../x.png"},
		{"root-relative css climbing", `<style>.a{background:url(/../../x.png)}</style>`, "url(", "/../../x.png"},
		{"climbing form", `<form action="../../x.html"></form>`, "x.html", "../../x.html"},
		{"url( spelt with an entity", `<div style="background:ur&#108;(../../x.png)">x</div>`, "url(", "../../x.png"},
		{"url( spelt with &lpar;", `<div style="background:url&lpar;https://e.test/x.png)">x</div>`, "url(", "https://e.test/x.png"},
		{"url( spelt with a CSS escape", `<div style="background:u\72 l(https://e.test/x.png)">x</div>`, "l(https", "https://e.test/x.png"},
		{"escaped url( in a style block", `<style>.a{background:\75RL(//e.test/x.png)}</style>`, "RL(//", "//e.test/x.png"},
		{"climbing script in a srcdoc", `<iframe srcdoc="&lt;script src=&quot;../../x.js&quot;&gt;&lt;/script&gt;&lt;p&gt;framed"></iframe>`, "&lt;script", "../../x.js"},
		{"refresh in a srcdoc", `<iframe srcdoc="<meta http-equiv=refresh content='0 http://evil.test/'>"></iframe>`, "http-equiv", "http://evil.test/"},
		{"escaped @import", `<style>@\69mport "https://e.test/a.css";</style>`, "mport", "https://e.test/a.css"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, urls := HTML([]byte(tc.in), "../", "")
			if strings.Contains(string(out), tc.gone) {
				t.Errorf("output still has %s: %s", tc.gone, out)
			}
			if !slices.Contains(urls, tc.url) {
				t.Errorf("took out %q, want %q named", urls, tc.url)
			}
		})
	}
}

// TestOfflineHTML_refreshInsideStays: a refresh within the bundle, however
// it is spelt, still works.
func TestOfflineHTML_refreshInsideStays(t *testing.T) {
	for _, in := range []string{
		`<meta http-equiv="refresh" content="0,url=guide.html">`,
		`<meta http-equiv="refresh" content="0 ../index.html">`,
		`<meta http-equiv="refresh" content="30">`,
	} {
		if out, urls := HTML([]byte(in), "../", ""); string(out) != in || urls != nil {
			t.Errorf("HTML(%q) = %q, %q; want it unchanged", in, out, urls)
		}
	}
}

// FuzzOutside holds Outside to what it must never miss: a reference that
// Go's RFC 3986 resolver places outside the bundle directory, from a page
// one directory below its root, is outside to Outside too (a data: URL
// is inside: it carries what it shows). (Outside
// refuses more: backslashes, %2e and a climb back in, which the resolver
// reads otherwise or cannot judge.)
func FuzzOutside(f *testing.F) {
	for _, tc := range outsideCases {
		f.Add(tc.ref)
	}
	const root = "/r7q2/b4x9/" // names a reference is unlikely to climb back into
	base, err := url.Parse("file://" + root + "sub/page.html")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, ref string) {
		u, err := url.Parse(ref)
		// Go reads a backslash as a letter of a name; a browser as a slash.
		if err != nil || strings.Contains(ref, `\`) || strings.Contains(ref, "r7q2") || strings.Contains(ref, "b4x9") {
			t.Skip()
		}
		got := base.ResolveReference(u)
		// A data: URL carries its content and loads nothing.
		outside := got.Scheme != "data" && (got.Scheme != "file" || got.Host != "" || !strings.HasPrefix(got.Path, root))
		if outside && !Outside(ref, "../") {
			t.Errorf("Outside(%q, \"../\") = false, but it resolves to %s", ref, got)
		}
	})
}
