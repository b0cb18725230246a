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
	  "/nodes/{id}": {"get": {"responses": {"200": {"description": "n", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Node"}}}}}}},
	  "/speech": {"post": {"summary": "Speak", "responses": {"200": {"description": "Audio.", "content": {"audio/mpeg": {
	    "schema": {"type": "string", "format": "binary"},
	    "examples": {"sample": {"summary": "Sample", "value": "https://cdn.p.test/sample.mp3"}}}}}}}}
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
	dir, _ := exportTo(t, Request{Source: src, Kind: KindCloud, Warn: func(wrn Warning) { s := wrn.Message; warns = append(warns, s) }})
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
	// An audio answer whose example is a URL gets a player; an air-gapped
	// bundle replaces it like any remote media.
	wantAll(t, "speak", readOut(t, dir, "api-reference/speak.html"),
		`<audio class="example-media" controls preload="none" src="https://cdn.p.test/sample.mp3"></audio>`)
	air, _ := exportTo(t, Request{Source: src, Kind: KindAirGapped})
	if strings.Contains(readOut(t, air, "api-reference/speak.html"), `src="https://cdn.p.test`) {
		t.Error("the air-gapped audio example loads from outside the bundle")
	}
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

// miniSpec is a spec with one operation GET path, summarised as summary,
// with a nested body field and an x-codeSamples entry; servers may be "".
func miniSpec(server, path, summary string) *fstest.MapFile {
	servers := ""
	if server != "" {
		servers = `"servers": [{"url": "` + server + `"}],`
	}
	return &fstest.MapFile{Data: []byte(`{"openapi": "3.0.3", "info": {"title": "M", "version": "1"}, ` + servers + `
	"paths": {"` + path + `": {"get": {"summary": "` + summary + `",
	  "x-codeSamples": [{"lang": "go", "label": "Go SDK", "source": "client.Get()"}],
	  "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object",
	    "properties": {"outer": {"type": "object", "properties": {"inner": {"type": "string"}}}}}}}}}}}}}`)}
}

// TestOpenAPI_apiSettingsAndInheritance checks that frontmatter without a
// file finds its operation in the first spec by file name, as on the
// platform, even when the navigation names another spec first;
// api.playground.display and its per-page override, "auth" and a spec
// without servers showing no playground, api.params.expanded,
// api.examples.autogenerate, an asyncapi setting named in a warning, and
// the openapi of a navigation group inherited by its pages unless a
// nested group names its own.
func TestOpenAPI_apiSettingsAndInheritance(t *testing.T) {
	src := fstest.MapFS{
		"docs.json": {Data: []byte(`{"api": {"openapi": "z.json", "asyncapi": "events.yaml", "playground": {"display": "none"},
		    "params": {"expanded": "all"}, "examples": {"autogenerate": false}},
		  "navigation": {"groups": [
		    {"group": "Z", "openapi": "z.json", "pages": ["GET /x"]},
		    {"group": "Pages", "pages": ["a", "b", "c", "d"]},
		    {"group": "V1", "openapi": "a.json", "pages": ["GET /y", {"group": "V2", "openapi": "z.json", "pages": ["GET /y"]}]}]}}`)},
		"a.json":  miniSpec("https://a.test", "/x", "X from a"),
		"z.json":  miniSpec("https://z.test", "/x", "X from z"),
		"y1.json": miniSpec("https://a.test", "/y", "Y one"),
		"n.json":  miniSpec("", "/n", "No server"),
		"a.mdx":   mdxPage("A", "openapi: GET /x"),
		"b.mdx":   mdxPage("B", "openapi: GET /x", "playground: interactive"),
		"c.mdx":   mdxPage("C", "openapi: z.json GET /x", "playground: auth"),
		"d.mdx":   mdxPage("D", "openapi: n.json GET /n", "playground: interactive"),
	}
	// a.json also has GET /y for the V1 group; z.json for V2.
	src["a.json"] = &fstest.MapFile{Data: []byte(strings.Replace(string(src["a.json"].Data), `"paths": {`,
		`"paths": {"/y": {"get": {"summary": "Y from a", "responses": {"200": {"description": "ok"}}}}, `, 1))}
	src["z.json"] = &fstest.MapFile{Data: []byte(strings.Replace(string(src["z.json"].Data), `"paths": {`,
		`"paths": {"/y": {"get": {"summary": "Y from z", "responses": {"200": {"description": "ok"}}}}, `, 1))}
	var warns []string
	dir, _ := exportTo(t, Request{Source: src, Kind: KindCloud, Warn: func(wrn Warning) { s := wrn.Message; warns = append(warns, s) }})
	a := readOut(t, dir, "a.html")
	wantAll(t, "a.html", a, `https://a.test/x`, `data-title="Go SDK"`, `<details class="expandable" open><summary>Show child attributes</summary>`)
	if strings.Contains(a, `class="playground"`) || strings.Contains(a, `data-title="cURL"`) {
		t.Error("a.html: display none and autogenerate false must leave out the panel and the generated samples")
	}
	if b := readOut(t, dir, "b.html"); !strings.Contains(b, `class="playground"`) {
		t.Error("b.html: playground: interactive in frontmatter must override display none")
	}
	for _, p := range []string{"c.html", "d.html"} {
		if strings.Contains(readOut(t, dir, p), `class="playground"`) {
			t.Errorf("%s: a playground for auth-only or a spec without servers", p)
		}
	}
	if !strings.Contains(strings.Join(warns, "\n"), `"api.asyncapi" is ignored: AsyncAPI channel pages are not generated`) {
		t.Errorf("warnings = %q, want api.asyncapi named", warns)
	}
	wantAll(t, "y-from-a", readOut(t, dir, "api-reference/y-from-a.html"), `<h1>Y from a</h1>`)
	wantAll(t, "y-from-z", readOut(t, dir, "api-reference/y-from-z.html"), `<h1>Y from z</h1>`,
		`<p class="nav-group-title">V1</p>`, `<details open><summary>V2</summary>`)
}

// TestSamples_optionalParameters checks api.examples.defaults: samples
// carry the optional parameters (with their default) unless it is
// "required", as on the platform.
func TestSamples_optionalParameters(t *testing.T) {
	spec := &fstest.MapFile{Data: []byte(`{"openapi": "3.0.3", "info": {"title": "S", "version": "1"}, "servers": [{"url": "https://s.test"}],
	  "paths": {"/items": {"get": {"summary": "List items", "parameters": [
	    {"name": "q", "in": "query", "required": true, "schema": {"type": "string"}, "example": "cat"},
	    {"name": "limit", "in": "query", "schema": {"type": "integer", "default": 20}},
	    {"name": "X-Trace", "in": "header", "schema": {"type": "string"}}],
	    "responses": {"200": {"description": "ok"}}}}}}`)}
	for _, tc := range []struct{ defaults, want, absent string }{
		{"", `--url 'https://s.test/items?limit=20&q=cat'`, ""},
		{"all", `--header 'X-Trace: <X-Trace>'`, ""},
		{"required", `--url 'https://s.test/items?q=cat'`, "--header 'X-Trace"},
	} {
		src := fstest.MapFS{"s.json": spec, "docs.json": {Data: []byte(`{"api": {"examples": {"defaults": "` + tc.defaults + `"}},
		  "navigation": {"groups": [{"group": "API", "openapi": "s.json"}]}}`)}}
		dir, _ := exportTo(t, Request{Source: src})
		text := pageText(readOut(t, dir, "api-reference/list-items.html"))
		if !strings.Contains(text, tc.want) || tc.absent != "" && strings.Contains(text, tc.absent) {
			t.Errorf("defaults %q: samples lack %q or show %q", tc.defaults, tc.want, tc.absent)
		}
	}
}

// TestMDXPages_authentication checks the authentication field of MDX API
// pages: api.mdx.auth by default, authMethod per page, "none" to drop it,
// and a method the export does not show named in a warning.
func TestMDXPages_authentication(t *testing.T) {
	src := fstest.MapFS{
		"docs.json": {Data: []byte(`{"api": {"mdx": {"server": "https://m.test", "auth": {"method": "key", "name": "X-Key"}}},
		  "navigation": {"pages": ["key", "bearer", "basic", "none", "cobo"]}}`)},
		"key.mdx":    mdxPage("Key", `api: "GET /a"`),
		"bearer.mdx": mdxPage("Bearer", `api: "GET /b"`, "authMethod: bearer"),
		"basic.mdx":  mdxPage("Basic", `api: "GET /c"`, "authMethod: basic"),
		"none.mdx":   mdxPage("None", `api: "GET /d"`, "authMethod: none"),
		"cobo.mdx":   mdxPage("Cobo", `api: "GET /e"`, "authMethod: cobo"),
	}
	var warns []string
	dir, _ := exportTo(t, Request{Source: src, Warn: func(wrn Warning) { s := wrn.Message; warns = append(warns, s) }})
	wantAll(t, "key.html", readOut(t, dir, "key.html"), `<code class="field-name">X-Key</code><span class="field-in">header</span>`)
	wantAll(t, "bearer.html", pageText(readOut(t, dir, "bearer.html")), `Bearer authentication header of the form Bearer <token>.`)
	wantAll(t, "basic.html", pageText(readOut(t, dir, "basic.html")), `Basic authentication header`)
	for _, p := range []string{"none.html", "cobo.html"} {
		if strings.Contains(readOut(t, dir, p), `class="api-auth"`) {
			t.Errorf("%s shows an authentication field", p)
		}
	}
	if !strings.Contains(strings.Join(warns, "\n"), `cobo.mdx: authMethod "cobo" is not shown by the static export`) {
		t.Errorf("warnings = %q, want cobo named", warns)
	}
}
