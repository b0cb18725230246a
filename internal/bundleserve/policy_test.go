package bundleserve

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
)

// TestServe_svgFromSourceRunsNoScript serves a bundle whose docs source
// ships an SVG holding a script: opened directly, as a link to it does,
// it would run on the site's origin. It is served with a policy that
// forbids script and with nosniff; the pages keep their own policy in
// their <meta> and get no header that would narrow it.
func TestServe_svgFromSourceRunsNoScript(t *testing.T) {
	src := t.TempDir()
	for name, body := range map[string]string{
		"docs.json": `{"name": "Drawings", "navigation": {"pages": ["index"]}}`,
		"index.mdx": "---\ntitle: Home\n---\n\n![drawing](/images/drawing.svg)\n",
		"images/drawing.svg": `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">` +
			`<script>fetch("/steal?c=" + document.cookie)</script><rect width="10" height="10"/></svg>`,
	} {
		p := filepath.Join(src, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	const domain = "drawings.acme.test"
	site := serveExport(t, domain, apiservertest.WithDeployment(domain, src)).site

	get := func(p string) *http.Response {
		t.Helper()
		resp, err := http.Get(site.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d", p, resp.StatusCode)
		}
		return resp
	}
	svg := get("/images/drawing.svg")
	if ct := svg.Header.Get("Content-Type"); ct != "image/svg+xml" {
		t.Errorf("the SVG is served as %q", ct)
	}
	policy := svg.Header.Get("Content-Security-Policy")
	if !strings.Contains(policy, "default-src 'none'") || strings.Contains(policy, "script-src") {
		t.Errorf("the SVG's policy lets script run: %q", policy)
	}
	if got := svg.Header.Get("X-Content-Type-Options"); got != "nosniff" {
		t.Errorf("the SVG is served with X-Content-Type-Options %q, want nosniff", got)
	}
	page := get("/index.html")
	if got := page.Header.Get("Content-Security-Policy"); got != "" {
		t.Errorf("a page of the export is served with a policy header %q over its own", got)
	}
	if got := page.Header.Get("X-Content-Type-Options"); got != "nosniff" {
		t.Errorf("a page is served with X-Content-Type-Options %q, want nosniff", got)
	}
}

// TestScriptable: the types a browser opens as a document that runs
// script, besides the export's own pages.
func TestScriptable(t *testing.T) {
	for _, tc := range []struct {
		ctype, path string
		want        bool
	}{
		{"image/svg+xml", "images/a.svg", true},
		{"application/xhtml+xml", "a.xhtml", true},
		{"text/xml; charset=utf-8", "a.xml", true},
		{"text/html; charset=utf-8", "notes.txt.bak", true}, // sniffed
		{"text/html; charset=utf-8", "guide/intro.html", false},
		{"image/png", "a.png", false},
		{"text/css; charset=utf-8", "_static/style.css", false},
		{"application/json", "search.json", false},
		{";;", "x", true},
	} {
		if got := scriptable(tc.ctype, tc.path); got != tc.want {
			t.Errorf("scriptable(%q, %q) = %v, want %v", tc.ctype, tc.path, got, tc.want)
		}
	}
}
