package export

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// formatSpec exercises behaviours the platform's OpenAPI description
// names that the fixtures do not: servers overridden on a path, x-default
// on a security scheme, 3.1 file uploads by contentMediaType (and a JSON
// one that is no file), recursive and untyped schemas, operations without
// a summary, and webhooks hidden or excluded.
const formatSpec = `{"openapi": "3.1.0", "info": {"title": "P", "version": "1"},
	"servers": [{"url": "https://api.p.test"}],
	"components": {"securitySchemes": {"k": {"type": "apiKey", "in": "header", "name": "X-Key", "x-default": "test-key"}},
	  "schemas": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/components/schemas/Node"}, "anything": {}}}}},
	"security": [{"k": []}],
	"paths": {
	  "/files": {"servers": [{"url": "https://upload.p.test"}], "post": {
	     "requestBody": {"content": {"multipart/form-data": {"schema": {"type": "object", "properties": {
	        "file": {"type": "string", "contentMediaType": "application/octet-stream"},
	        "meta": {"type": "string", "contentMediaType": "application/json"},
	        "note": {"type": "string", "contentEncoding": "base64"}}}}}},
	     "responses": {"200": {"description": "ok"}}}},
	  "/nodes/{id}": {"get": {"responses": {"200": {"description": "n", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Node"}}}}}}}
	},
	"webhooks": {"shown": {"post": {"summary": "Shown hook", "responses": {"200": {"description": "ok"}}}},
	  "hid": {"post": {"summary": "Hidden hook", "x-hidden": true, "responses": {"200": {"description": "ok"}}}},
	  "exc": {"post": {"summary": "Excluded hook", "x-excluded": true, "responses": {"200": {"description": "ok"}}}}}}`

func TestOpenAPI_formatDescriptionDetails(t *testing.T) {
	src := fstest.MapFS{
		"docs.json": {Data: []byte(`{"navigation": {"global": {"anchors": [{"anchor": "Changelog", "href": "/changelog"}]},
		  "tabs": [{"tab": "Home", "pages": ["index", "changelog"]}, {"tab": "API", "openapi": ["a.json", "https://example.com/remote.json"]}]}}`)},
		"index.mdx": mdxPage("Home"), "changelog.mdx": mdxPage("Changes"),
		"a.json": {Data: []byte(formatSpec)},
	}
	var warns []string
	dir, _ := exportTo(t, Request{Source: src, Kind: KindCloud, Warn: func(s string) { warns = append(warns, s) }})
	// A hosted spec is not fetched: one clear warning with its address.
	if w := strings.Join(warns, "\n"); !strings.Contains(w, "https://example.com/remote.json: remote specs are not fetched") {
		t.Errorf("warnings = %q, want the remote spec named", warns)
	}
	// Global anchors with a site path link to the page.
	wantAll(t, "index.html", readOut(t, dir, "index.html"), `<a href="changelog.html">Changelog</a>`)
	// Without a summary the page is named by method and path.
	files := readOut(t, dir, "api-reference/post-files.html")
	wantAll(t, "post-files", files, `<h1>POST /files</h1>`, `<code data-path="/files">https://upload.p.test/files</code>`)
	cfg := playgroundOf(t, files)
	if len(cfg.Servers) != 1 || cfg.Servers[0] != "https://upload.p.test" {
		t.Errorf("playground servers = %q, want the path's own server", cfg.Servers)
	}
	if len(cfg.Security) != 1 || cfg.Security[0][0].Prefil != "test-key" {
		t.Errorf("playground security = %+v, want the x-default prefilled", cfg.Security)
	}
	fields := cfg.Bodies[0].Fields
	if len(fields) != 3 || !fields[0].Binary || fields[1].Binary || fields[2].Binary {
		t.Errorf("form fields = %+v, want a file, then JSON and base64 text fields", fields)
	}
	wantAll(t, "get-nodes-id", readOut(t, dir, "api-reference/get-nodes-id.html"),
		`Recursive: the same schema as <code>Node</code> above.`, `<code class="field-name">anything</code><span class="field-type">any</span>`)
	// x-hidden webhooks have a page listed nowhere; x-excluded ones none.
	hidden := readOut(t, dir, "api-reference/hidden-hook.html")
	wantAll(t, "hidden-hook", hidden, `<meta name="robots" content="noindex">`)
	for _, f := range []string{"api-reference/shown-hook.html", "sitemap.xml", "_static/search-index.js"} {
		if strings.Contains(readOut(t, dir, f), "hidden-hook") {
			t.Errorf("%s lists the x-hidden webhook", f)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "api-reference/excluded-hook.html")); err == nil {
		t.Error("an x-excluded webhook got a page")
	}
}
