package export

import (
	"strings"
	"testing"
)

func TestContentSecurityPolicy(t *testing.T) {
	for _, kind := range []Kind{KindAirGapped, KindCloud, KindClientHosted} {
		base := ContentSecurityPolicy(kind, policy{})
		for _, want := range []string{"default-src 'none'", "script-src 'self' file: " + themeScriptHash + ";", "connect-src 'self' file:;", "base-uri 'none'", "object-src 'none'"} {
			if !strings.Contains(base, want) {
				t.Errorf("%s policy lacks %q: %s", kind, want, base)
			}
		}
		if strings.Contains(base, "unsafe-eval") || strings.Contains(base, "script-src 'self' file: 'unsafe-inline'") {
			t.Errorf("%s policy lets inline script run: %s", kind, base)
		}
		if web := strings.Contains(base, "img-src 'self' file: data: blob: https:"); web == (kind == KindAirGapped) {
			t.Errorf("%s policy: web images allowed = %v: %s", kind, web, base)
		}
	}
	// The playground's servers widen connect-src only; a malformed entry
	// cannot add a directive, and a wildcard host is never a source.
	got := ContentSecurityPolicy(KindCloud, policy{connect: []string{"https://api.example.com", "http://127.0.0.1:8080", "https://x; script-src *", "https://*", "*", ""},
		scripts: []string{"'sha256-abc='", "https://widget.example", "'unsafe-inline'"}})
	if !strings.Contains(got, "connect-src 'self' file: https://api.example.com http://127.0.0.1:8080;") || strings.Contains(got, "script-src *") || strings.Contains(got, "*") {
		t.Errorf("policy with playground servers: %s", got)
	}
	if !strings.Contains(got, "script-src 'self' file: "+themeScriptHash+" 'sha256-abc=' https://widget.example;") {
		t.Errorf("policy lacks the page's own scripts: %s", got)
	}
	if strings.Count(got, "https://api.example.com") != 1 {
		t.Errorf("a server leaked into another directive: %s", got)
	}
	if webOrigin("https://*") != "" || webOrigin("https://*.example.com/v1") != "" || webOrigin("https://api.example.com/v1") != "https://api.example.com" {
		t.Error("webOrigin lets a wildcard host through, or loses a plain one")
	}
}

// TestExport_everyKindCarriesACSP: every page of every kind has a policy
// right after its charset; the page's own inline script (written by the
// repository in MDX) is allowed by its hash, and a spec's wildcard server
// does not reach connect-src.
func TestExport_everyKindCarriesACSP(t *testing.T) {
	src := mapFS(map[string]string{
		"docs.json": `{"navigation": {"tabs": [{"tab": "Docs", "pages": ["index"]}, {"tab": "API", "openapi": "o.json"}]}}`,
		"index.mdx": "---\ntitle: Home\n---\n\n<script>window.ownScript = 1</script>\n\nHello.\n",
		"o.json": `{"openapi": "3.1.0", "servers": [{"url": "https://*"}, {"url": "https://api.example.com/v1"}],
			"paths": {"/a": {"get": {"summary": "A", "responses": {"200": {"description": "ok"}}}}}}`,
	})
	for _, kind := range []Kind{KindAirGapped, KindCloud, KindClientHosted} {
		var warnings []string
		dir, _ := exportTo(t, Request{Source: src, Kind: kind, Warn: func(m string) { warnings = append(warnings, m) }})
		for _, page := range []string{"index.html", "api-reference/a.html", "404.html"} {
			got := readOut(t, dir, page)
			if !strings.Contains(got, `<meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;;`) {
				t.Errorf("%s %s has no CSP right after its charset", kind, page)
			}
			if strings.Contains(got, "https://*") && strings.Contains(got, "connect-src &#39;self&#39; file: https://*") {
				t.Errorf("%s %s: the wildcard server widened connect-src", kind, page)
			}
		}
		index := readOut(t, dir, "index.html")
		if hash := scriptHash("window.ownScript = 1"); kind != KindAirGapped && !strings.Contains(index, strings.ReplaceAll(hash, "'", "&#39;")) {
			t.Errorf("%s index.html: the page's own inline script is not allowed by its hash", kind)
		}
		if kind != KindAirGapped && !strings.Contains(strings.Join(warnings, "\n"), `"https://*" names a wildcard host`) {
			t.Errorf("%s: no warning about the wildcard server: %q", kind, warnings)
		}
	}
}
