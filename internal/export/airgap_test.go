package export

import (
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/csp"
)

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
		dir, _ := exportTo(t, Request{Source: src, Kind: kind, Warn: func(wrn Warning) { m := wrn.Message; warnings = append(warnings, m) }})
		for _, page := range []string{"index.html", "api-reference/a.html", "404.html"} {
			got := readOut(t, dir, page)
			if !strings.Contains(got, `<meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;;`) {
				t.Errorf("%s %s has no CSP right after its charset", kind, page)
			}
			if strings.Contains(got, "connect-src &#39;self&#39; file: https://*") || strings.Contains(got, "connect-src &#39;self&#39; https://*") {
				t.Errorf("%s %s: the wildcard server widened connect-src", kind, page)
			}
		}
		index := readOut(t, dir, "index.html")
		if hash := csp.ScriptHash("window.ownScript = 1"); kind != KindAirGapped && !strings.Contains(index, strings.ReplaceAll(hash, "'", "&#39;")) {
			t.Errorf("%s index.html: the page's own inline script is not allowed by its hash", kind)
		}
		if kind != KindAirGapped && !strings.Contains(strings.Join(warnings, "\n"), `"https://*" names a wildcard host`) {
			t.Errorf("%s: no warning about the wildcard server: %q", kind, warnings)
		}
	}
}
