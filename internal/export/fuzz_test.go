package export

import (
	"context"
	"strings"
	"testing"
	"time"
)

// FuzzExport exports whole docs sources made of a docs.json, one MDX page
// and one OpenAPI spec, each bounded in size, in every kind. Whatever the
// input, the export returns (a result or an input error) within its
// limit and never panics: a panic inside a page is recovered into a
// "render failed" error, which counts as a failure here.
func FuzzExport(f *testing.F) {
	const maxPart = 8 << 10
	f.Add(`{"navigation": {"tabs": [{"tab": "Docs", "pages": ["index"]}, {"tab": "API", "openapi": "o.json"}]}}`,
		"---\ntitle: Home\n---\n\n<Card title=\"a\">x</Card>\n",
		`{"openapi": "3.1.0", "paths": {"/a": {"get": {"summary": "A", "responses": {"200": {"description": "ok"}}}}}}`)
	f.Add(fanOutSource(12)["docs.json"], "---\napi: POST /x\n---\n\n<ParamField body=\"a\" type=\"object\">\n<ParamField body=\"b\">\n", fanOutSpec(12))
	src := hostileTextSource()
	f.Add(src["docs.json"], "---\ntitle: Home\n---\n\n"+`<script src="/x.js"></script><meta http-equiv="refresh" content="0; url=https://e.test">`, src["openapi.json"])
	f.Add(`{"navigation": {"pages": ["index"]}, "redirects": [{"source": "/a", "destination": "JaVaScRiPt:x"}], "banner": {"content": "[x](javascript:y)"}}`,
		"---\ntitle: Home\n---\n\n# Ü\n\n## Ü\n", `openapi: 3.0.0`)
	// Hostile inputs of issue 39: a code block of interpolation openers
	// without a closer (quadratic to highlight), and a spec whose pages
	// amplify a long string a hundred times.
	f.Add(`{"navigation": {"tabs": [{"tab": "Docs", "pages": ["index"]}, {"tab": "API", "openapi": "o.json"}]}}`,
		"---\ntitle: Home\n---\n\n```php\n<?php\n"+strings.Repeat(`"{$`, 1200)+"\n"+strings.Repeat(strings.Repeat("`${", 300)+"\n", 4)+"```\n",
		amplifyingSpec(1))
	// The ways out of an air-gapped bundle and the markup that hid script
	// from the sanitizers (issue 39), as a page and as a component.
	f.Add(`{"navigation": {"pages": ["index"]}}`, "---\ntitle: Home\n---\n\n"+
		`<meta http-equiv="refresh" content="0,url=http://e.test/"><meta http-equiv="refresh" content="0 //e.test/">`+
		`<script src="%2e%2E/%2e%2e/x.js"></script><script src="..\..\y.js"></script><script src="&#46;&#46;/z.js"></script>`+
		`<div style="background:url(/../../w.png)">w</div>`, `openapi: 3.0.0`)
	f.Add(`{"navigation": {"pages": ["index"]}}`, "---\ntitle: Home\n---\n\nexport const A = () => <svg><a href=\"#x\"><set attributeName=\"href\" to=\"javascript:alert(1)\" />"+
		"<animate attributeName=\"xlink:href\" values=\"#a;javascript:alert(1)\" /><text>x</text></a><plaintext><b>p</b></plaintext></svg>;\n\n"+
		"<A />\n<plaintext>rest", `openapi: 3.0.0`)
	f.Fuzz(func(t *testing.T, docsJSON, page, spec string) {
		if len(docsJSON) > maxPart || len(page) > maxPart || len(spec) > maxPart {
			t.Skip()
		}
		files := map[string]string{"docs.json": docsJSON, "index.mdx": page, "o.json": spec}
		if !strings.Contains(docsJSON, "o.json") {
			// Make the spec reachable however docs.json is written: an
			// MDX page that names one of its operations.
			files["op.mdx"] = "---\nopenapi: o.json GET /a\n---\n"
		}
		for _, kind := range []Kind{KindCloud, KindAirGapped} {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			e := New(Options{Workers: 2})
			_, err := e.Export(ctx, Request{Source: mapFS(files), Kind: kind, Domain: "docs.example.com"}, t.TempDir(), nil)
			e.Close() // no evaluator outlives its input
			expired := ctx.Err() != nil
			cancel()
			if expired {
				t.Fatalf("%s export did not finish within its limit", kind)
			}
			if err != nil && strings.Contains(err.Error(), "render failed") {
				t.Fatalf("%s export panicked: %v", kind, err)
			}
		}
	})
}
