package export

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/hashicorp/go-hclog"
)

func apiSite() fstest.MapFS {
	src := fstest.MapFS{}
	root := os.DirFS("testdata/apisite")
	for _, f := range []string{"docs.json", "index.mdx", "guides/mdx-endpoint.mdx", "reference/item.mdx",
		"reference/item-created.mdx", "specs/shop.yaml", "specs/events.json"} {
		b, err := fs.ReadFile(root, f)
		if err != nil {
			panic(err)
		}
		src[f] = &fstest.MapFile{Data: b}
	}
	return src
}

// logBuffer collects an export's log, to assert on the warnings it gives.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// exportLogged is exportTo with the export's warnings returned.
func exportLogged(t *testing.T, req Request) (string, string) {
	t.Helper()
	var log logBuffer
	dir := t.TempDir()
	if req.Domain == "" {
		req.Domain = "docs.example.com"
	}
	eng := New(Options{Logger: hclog.New(&hclog.LoggerOptions{Output: &log, Level: hclog.Warn})})
	if _, err := eng.Export(context.Background(), req, dir, nil); err != nil {
		t.Fatalf("export: %v", err)
	}
	return dir, log.String()
}

func wantAll(t *testing.T, page, html string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(html, w) {
			t.Errorf("%s lacks %s", page, w)
		}
	}
}

func TestOpenAPI_navigationGeneratesPagesByTag(t *testing.T) {
	dir, log := exportLogged(t, Request{Source: os.DirFS("testdata/apisite"), Kind: KindCloud})
	list := readOut(t, dir, "api-reference/pets/list-pets.html")
	wantAll(t, "list-pets", list,
		// the sidebar groups operations by tag, under the tag's x-group
		`<p class="nav-group-title">Pet store</p>`, `<a href="../../api-reference/pets/create-a-pet.html">Create a pet</a>`,
		`<p class="nav-group-title">orders</p>`,
		`<span class="method method-get">GET</span>`, `<code class="api-path">/pets</code>`,
		// both servers, the variable filled with its default
		`<option value="https://eu.sandbox.shop.test/v1">`, `<code data-path="/pets">https://api.shop.test/v1/pets</code>`,
		// Markdown description with a relative link
		`<strong>newest first</strong>`, `href="../../guides/mdx-endpoint.html"`,
		// two security alternatives
		`<p class="api-or">or</p>`, `<code class="field-name">X-API-Key</code>`,
		`<h2 id="query-parameters">`, `<h2 id="headers">`, `<h2 id="cookies">`,
		`<span class="field-type">integer&lt;int32&gt;</span>`, `default: <code>20</code>`,
		`min: <code>1</code> · max: <code>100</code>`, `Available options: <code>available</code>, <code>pending</code>, <code>sold</code>`,
		`<span class="field-type">string&lt;uuid&gt;</span>`, `<span class="field-deprecated">deprecated</span>`,
		// a response with headers and a $ref'd error response
		`<span class="status status-2xx">200</span>`, `<code class="field-name">X-Next-Cursor</code>`,
		`<span class="status status-dxx">default</span>`,
		`<span class="field-type">Pet[]</span>`,
		// request samples
		`data-title="cURL"`, `data-title="Python"`, `data-title="JavaScript"`, `<button class="copy" type="button">Copy</button>`,
		`class="playground"`, `_static/api.js`, `_static/playground.js`)
	if strings.Contains(log, "list-pets") || strings.Contains(searchText(t, dir), "Hidden operation") {
		t.Errorf("x-hidden operation indexed for search or page warned: %s", log)
	}
	create := readOut(t, dir, "api-reference/pets/create-a-pet.html")
	wantAll(t, "create-a-pet", create,
		`<code>application/json</code> <span class="field-required">required</span>`,
		`<span class="field-type">string | null</span>`, `<span class="field-pill">write-only</span>`,
		`<span class="field-pill">read-only</span>`, // from allOf in the response's Pet
		`<p class="api-variants-title">One of</p>`, `Option 2: Cat`, `max: <code>9</code> · exclusive max`,
		`<span class="field-type">Tag[]</span>`, `unique items`, `pattern: <code>^[a-z]+$</code>`,
		`id="field-body-address-geo-lat"`, `<span class="field-type">number&lt;double&gt;</span>`,
		`Recursive: the same schema as <code>Category</code> above.`,
		`data-title="201 dog"`, `data-title="201 cat"`,
		// Python gets Python literals; the example is the media type's own
		`&#34;bark&#34;`, `Basic authentication header`)
	order := readOut(t, dir, "api-reference/orders/place-an-order.html")
	wantAll(t, "place-an-order", order, `data-title="Go SDK"`, `<code>multipart/form-data</code>`,
		`<span class="field-type">string&lt;binary&gt;</span>`, `<p class="api-variants-title">Any of</p>`, `Option 2: Invoice`)
	if !strings.Contains(log, "$ref cycle: #/components/schemas/LoopA -&gt; #/components/schemas/LoopB") &&
		!strings.Contains(log, "$ref cycle: #/components/schemas/LoopA -> #/components/schemas/LoopB -> #/components/schemas/LoopA") {
		t.Errorf("no warning names the spec's $ref cycle; log:\n%s", log)
	}
	del := readOut(t, dir, "api-reference/pets/delete-a-pet.html")
	if strings.Contains(del, `id="authorizations"`) {
		t.Error("security: [] on an operation still shows authorizations")
	}
	wantAll(t, "delete-a-pet", del, `<code class="field-name">petId</code>`, `Example: <code>42</code>`,
		`https://api.shop.test/v1/pets/42`)
}

func TestOpenAPI_frontmatterWebhookAndMDXOnly(t *testing.T) {
	dir, log := exportLogged(t, Request{Source: os.DirFS("testdata/apisite"), Kind: KindAirGapped})
	item := readOut(t, dir, "reference/item.html")
	wantAll(t, "reference/item", item, `<h1>Fetch an item</h1>`, `<strong>five minutes</strong>`,
		`<code class="api-path">/items/{itemId}</code>`, `<code class="field-name">sid</code>`, `<span class="field-in">cookie</span>`,
		// 3.1: type arrays, const, numeric exclusive bounds, examples arrays
		`<span class="field-type">string | null</span>`, `const: <code>item</code>`, `exclusive min: <code>0</code>`,
		`Recursive: the same schema as <code>Item</code> above.`, `&#34;label&#34;`, `Blue collar`)
	if strings.Contains(item, "playground-config") {
		t.Error("air-gapped page without the playground feature has a Try it panel")
	}
	hook := readOut(t, dir, "reference/item-created.html")
	wantAll(t, "item-created", hook, `<span class="method method-webhook">WEBHOOK</span>`, `<code class="api-path">itemCreated</code>`,
		`Sent when an item is created.`, `<h2 id="body">`)
	// The inherited spec of the group serves "GET /items"; another file is named inline.
	wantAll(t, "list-items", readOut(t, dir, "api-reference/list-items.html"), `<code class="field-name">key</code>`, `<span class="field-in">query</span>`)
	wantAll(t, "delete", readOut(t, dir, "index.html"), `api-reference/pets/delete-a-pet.html`)
	mdx := readOut(t, dir, "guides/mdx-endpoint.html")
	wantAll(t, "mdx-endpoint", mdx, `<span class="method method-post">POST</span>`, `<code class="field-name">amount</code>`,
		`<span class="field-in">body</span>`, `default: <code>10</code>`, `<details class="expandable">`,
		// the page's own examples, in the examples column
		`<aside class="api-examples" aria-label="Examples"><div class="api-example api-example-request"><p class="api-example-title">Request</p><div class="example example-request" data-tabs>`,
		`<div class="example example-response" data-tabs>`)
	if log != "" && strings.Contains(log, "item") {
		t.Errorf("unexpected warnings: %s", log)
	}
	idx := searchText(t, dir)
	wantAll(t, "search index", idx, `["List pets",`, `GET /pets limit status X-Request-Id session`, `GET /items/{itemId} itemId`)
}

func TestOpenAPI_playgroundByKind(t *testing.T) {
	for _, tc := range []struct {
		kind     Kind
		features []string
		want     bool
		locked   bool
	}{
		{KindCloud, nil, true, false},
		{KindClientHosted, nil, true, false},
		{KindAirGapped, nil, false, false},
		{KindAirGapped, []string{"playground"}, true, true},
	} {
		t.Run(fmt.Sprintf("%s%v", tc.kind, tc.features), func(t *testing.T) {
			dir, _ := exportTo(t, Request{Source: apiSite(), Kind: tc.kind, Features: tc.features})
			page := readOut(t, dir, "api-reference/pets/list-pets.html")
			if got := strings.Contains(page, `class="playground-config"`); got != tc.want {
				t.Fatalf("playground present = %v, want %v", got, tc.want)
			}
			_, err := os.Stat(filepath.Join(dir, "_static/playground.js"))
			if got := err == nil && strings.Contains(page, `_static/playground.js`); got != tc.want {
				t.Errorf("playground script shipped and loaded = %v, want %v", got, tc.want)
			}
			if tc.want && strings.Contains(page, `"locked":true`) != tc.locked {
				t.Errorf("locked to the spec's servers = %v, want %v", !tc.locked, tc.locked)
			}
			if strings.Contains(page, "<script") && strings.Contains(page, "cdn") {
				t.Error("the page loads script from elsewhere")
			}
			// Air-gapped pages carry a CSP; with the playground its
			// connect-src names the spec's own servers, and only then.
			if tc.kind == KindAirGapped {
				csp := regexp.MustCompile(`connect-src [^;"]*`).FindString(html.UnescapeString(page))
				if got := strings.Contains(csp, "https://api.shop.test"); got != tc.want || csp == "" {
					t.Errorf("CSP %q admits the spec's server = %v, want %v", csp, got, tc.want)
				}
				if strings.Contains(csp, "example.com") {
					t.Errorf("CSP %q admits a host no spec names", csp)
				}
			}
		})
	}
	j := &pipeline{features: map[string]bool{"playground": true}, pages: []*page{}}
	if len(j.playgroundConnectOrigins(context.Background())) != 0 {
		t.Error("connect origins without endpoint pages")
	}
}

// TestGolden_endpointPages pins the HTML of two endpoint pages of the API
// fixture; update with -args -update like TestGolden.
func TestGolden_endpointPages(t *testing.T) {
	dir, _ := exportTo(t, Request{Source: os.DirFS("testdata/apisite"), Kind: KindClientHosted})
	for _, page := range []string{"api-reference/pets/create-a-pet.html", "reference/item.html"} {
		t.Run(page, func(t *testing.T) {
			got := strings.ReplaceAll(readOut(t, dir, page), "><", ">\n<")
			compareGolden(t, filepath.Join("testdata", "golden", "api__"+strings.ReplaceAll(page, "/", "__")), got)
		})
	}
}

// TestOpenAPI_frontmatterNamesSpecWithoutExtension: frontmatter may name
// its spec without the extension, with or without a leading slash, as on
// the platform; the page then shows the operation's reference, and a
// spec that cannot be found never turns into the method badge.
func TestOpenAPI_frontmatterNamesSpecWithoutExtension(t *testing.T) {
	spec := `{"openapi": "3.1.0", "servers": [{"url": "https://api.example.com"}],
		"paths": {"/api/v1/runs": {"get": {"summary": "List runs", "parameters": [{"name": "limit", "in": "query", "schema": {"type": "integer"}}],
		"responses": {"200": {"description": "ok"}}}}}}`
	src := mapFS(map[string]string{
		"docs.json":             `{"navigation": {"pages": ["runs", "runs-slash", "missing"]}}`,
		"specs/v3-openapi.json": spec,
		"runs.mdx":              "---\nopenapi: \"specs/v3-openapi GET /api/v1/runs\"\n---\n",
		"runs-slash.mdx":        "---\nopenapi: \"/specs/v3-openapi get /api/v1/runs\"\n---\n",
		"missing.mdx":           "---\nopenapi: \"nowhere GET /api/v1/runs\"\n---\n",
	})
	dir, _ := exportTo(t, Request{Source: src, Kind: KindCloud})
	for _, page := range []string{"runs.html", "runs-slash.html"} {
		got := readOut(t, dir, page)
		if !strings.Contains(got, "field-query-limit") || strings.Contains(got, "V3-OPENAPI") {
			t.Errorf("%s does not show the operation's reference", page)
		}
	}
	if got := readOut(t, dir, "missing.html"); strings.Contains(got, ">NOWHERE<") || !strings.Contains(got, ">GET<") {
		t.Error("an unresolved spec name became the method badge")
	}
}

// TestOpenAPI_groupWithSpecAndPages: a group that names a spec and lists
// only pages (an introduction) shows those pages and then every
// operation; a group that lists operations shows just those.
func TestOpenAPI_groupWithSpecAndPages(t *testing.T) {
	spec := `{"openapi": "3.1.0", "paths": {
		"/runs": {"get": {"summary": "List runs", "responses": {"200": {"description": "ok"}}}, "post": {"summary": "Start a run", "responses": {"200": {"description": "ok"}}}},
		"/users": {"get": {"summary": "List users", "responses": {"200": {"description": "ok"}}}}}}`
	src := mapFS(map[string]string{
		"docs.json": `{"navigation": {"groups": [
			{"group": "API", "openapi": "api.json", "pages": ["api/intro"]},
			{"group": "Picked", "openapi": "other.json", "pages": ["GET /users"]}]}}`,
		"api/intro.mdx": mdxBody("Introduction"),
		"api.json":      spec,
		"other.json":    strings.ReplaceAll(spec, "List", "Other"),
	})
	dir, m := exportTo(t, Request{Source: src, Kind: KindCloud})
	var pages []string
	for _, f := range m.Files {
		if strings.HasSuffix(f.Path, ".html") {
			pages = append(pages, f.Path)
		}
	}
	intro := readOut(t, dir, "api/intro.html")
	at := func(s string) int { return strings.Index(intro, s) }
	if i, r, s := at(">Introduction<"), at(">List runs<"), at(">Start a run<"); i < 0 || r < 0 || s < 0 || i >= r || r >= s {
		t.Errorf("the API group does not show its page and then every operation (positions %d %d %d); pages %q", i, r, s, pages)
	}
	if !strings.Contains(intro, ">Other users<") || strings.Contains(intro, ">Other runs<") {
		t.Error("the group that picks one operation does not show exactly that one")
	}
}
