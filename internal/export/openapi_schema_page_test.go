package export

import (
	"strings"
	"testing"
)

// TestOpenAPI_schemaPages renders data model pages from openapi-schema
// frontmatter, with a file or by name alone, and warns about references
// to nothing instead of failing the export.
func TestOpenAPI_schemaPages(t *testing.T) {
	dir, _ := exportTo(t, Request{Source: docsRepo(), Kind: KindAirGapped})
	pet := readOut(t, dir, "en/schemas/pet.html")
	wantAll(t, "en/schemas/pet.html", pet, `<h1>The Pet model</h1>`, `<span class="method method-schema">SCHEMA</span><code class="api-path">Pet</code>`,
		`A pet of the shop, as the API returns it.`, `Every pet the API returns has this shape.`, `<h2 id="attributes">`,
		`<code class="field-name">nickname</code>`, `<code class="field-name">id</code>`, `<h2 id="example">`, `_static/api.css`)
	// A model's example shows every property; a response's leaves out
	// write-only ones and a request's read-only ones.
	wantAll(t, "en/schemas/pet.html", pageText(pet), `"id": 0`, `"secret": "<string>"`)
	getPet := pageText(readOut(t, dir, "fr/api/get-pet.html"))
	create := readOut(t, dir, "en/api-reference/pets/create-a-pet.html")
	if !strings.Contains(getPet, `"id": 0`) || strings.Contains(getPet, `"secret": `) {
		t.Error("the response example of Get a pet must show the read-only id and hide the write-only secret")
	}
	_, requests, _ := strings.Cut(create, `<div class="api-example api-example-request">`)
	requests, _, _ = strings.Cut(requests, `<div class="api-example api-example-response">`)
	if requests = pageText(requests); !strings.Contains(requests, `"name": "Rex"`) || strings.Contains(requests, `"id": `) {
		t.Error("the request examples of Create a pet send the read-only id")
	}
	item := readOut(t, dir, "en/schemas/item.html")
	wantAll(t, "en/schemas/item.html", item, `<h1>Item</h1>`, `<code class="field-name">children</code>`, `Item[]`)
	if !strings.Contains(searchText(t, dir), "Item id label price children meta") {
		t.Error("the search index lacks the schema page's property names")
	}

	var warns []string
	src := mapFS(map[string]string{
		"docs.json": `{"name": "S", "navigation": {"groups": [{"group": "G", "openapi": "api.json", "pages": ["a", "b", "c"]}]}}`,
		"api.json":  `{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": {"A/B": {"type": "object", "properties": {"x": {"type": "string"}}}}}}`,
		"a.mdx":     "---\nopenapi-schema: api.json A/B\n---\nSlash in the name.",
		"b.mdx":     "---\nopenapi-schema: Missing\n---\nNo such schema.",
		"c.mdx":     "---\nopenapi-schema: nothere.json A/B\n---\nNo such file.",
	})
	dir, _ = exportTo(t, Request{Source: src, Warn: func(wrn Warning) { s := wrn.Message; warns = append(warns, s) }})
	wantAll(t, "a.html", readOut(t, dir, "a.html"), `<code class="api-path">A/B</code>`, `<code class="field-name">x</code>`)
	got := strings.Join(warns, "\n")
	for _, want := range []string{"page: b.mdx; error: openapi-schema \"Missing\": no spec of the source has a schema Missing",
		"page: c.mdx; error: openapi nothere.json"} {
		if !strings.Contains(got, want) {
			t.Errorf("warnings lack %q:\n%s", want, got)
		}
	}
}
