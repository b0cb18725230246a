package export

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

// TestOpenAPI_badSpecsWarnAndExport: a spec that does not parse, a missing
// one and an operation no spec has are warnings naming the cause; the rest
// of the site exports.
func TestOpenAPI_badSpecsWarnAndExport(t *testing.T) {
	src := fstest.MapFS{
		"docs.json": {Data: []byte(`{"navigation": {"groups": [
			{"group": "A", "openapi": "bad.yaml", "pages": ["index"]},
			{"group": "B", "openapi": "missing.json"},
			{"group": "C", "openapi": "ok.json", "pages": ["GET /nope"]}]}}`)},
		"index.mdx":  mdxPage("Home"),
		"page.mdx":   mdxPage("Page", `openapi: "ok.json POST /absent"`),
		"bad.yaml":   {Data: []byte("openapi: 3.0.0\npaths: [\n")},
		"ok.json":    {Data: []byte(`{"openapi": "3.1.0", "paths": {}}`)},
		"other.json": {Data: []byte(`{"openapi": "3.1.0", "paths": {"/x": {"$ref": "#/paths/~1x"}}}`)},
	}
	var warnings []string // Request.Warn is never called concurrently
	dir, _ := exportLogged(t, Request{Source: src, Warn: func(wrn Warning) { m := wrn.Message; warnings = append(warnings, m) }})
	all := strings.Join(warnings, "\n")
	for _, want := range []string{"bad.yaml: not valid JSON or YAML", "missing.json", "entry: GET /nope",
		`ok.json has no such operation`} {
		if !strings.Contains(all, want) {
			t.Errorf("export warnings lack %q:\n%s", want, all)
		}
	}
	readOut(t, dir, "page.html")
}

// TestOpenAPI_largeSpec exports every operation of a spec of over 10 MB.
// Its schemas fan out (each level uses the next twice), so expanding them
// naively would never end; the page budget bounds the work.
func TestOpenAPI_largeSpec(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"openapi": "3.0.3", "servers": [{"url": "https://api.big.test"}], "components": {"schemas": {`)
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, `"S%d": {"type": "object", "properties": {"a": {"$ref": "#/components/schemas/S%d"}, "b": {"$ref": "#/components/schemas/S%d"}, "pad": {"type": "string", "description": %q}}},`,
			i, i+1, i+1, strings.Repeat("x", 100))
	}
	b.WriteString(`"S40": {"type": "string"}}}, "paths": {`)
	ops := 0
	for i := 0; b.Len() < 10<<20; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"/things/%d": {"post": {"tags": ["t%d"], "summary": "Thing %d", "description": %q, "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/S0"}}}}, "responses": {"200": {"description": "ok"}}}}`,
			i, i%20, i, strings.Repeat("word ", 5000))
		ops++
	}
	b.WriteString(`}}`)
	src := fstest.MapFS{
		"docs.json": {Data: []byte(`{"navigation": {"tabs": [{"tab": "API", "openapi": "big.json"}]}}`)},
		"big.json":  {Data: []byte(b.String())},
	}
	dir, m := exportTo(t, Request{Source: src, Kind: KindAirGapped})
	if m.PageCount != ops {
		t.Errorf("pages = %d, want %d", m.PageCount, ops)
	}
	page := readOut(t, dir, "api-reference/t0/thing-0.html")
	if !strings.Contains(page, "The schema is too large to show in full here.") {
		t.Error("a fanned-out schema was not cut at the budget")
	}
	if st, err := os.Stat(dir + "/api-reference/t0/thing-0.html"); err != nil || st.Size() > 8<<20 {
		t.Errorf("page size: %v %v", st, err)
	}
}
