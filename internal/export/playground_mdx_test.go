package export

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
)

// mdxOrderPage declares every kind of field the panel reads: a path
// parameter of the template, a query parameter with a default, a header,
// a cookie, and body fields with nested properties under an Expandable.
// The ParamField in the code fence is an example, not a declaration.
const mdxOrderPage = `
<ParamField path="orderId" type="string" required>
  The order.
</ParamField>

<ParamField query="limit" type="integer" default={10}>
  How many lines.
</ParamField>
<ParamField header="X-Trace" type="string" />
<ParamField cookie="session" type="string" />

` + "```mdx" + `
<ParamField query="notReal" type="string" required />
` + "```" + `

<ParamField body="note" type="string" required>
  What to note.
</ParamField>
<ParamField body="rush" type="boolean" default="true" />
<ParamField body="gift" type="boolean" />
<ParamField body="address" type="object" required>
  Where it goes.
  <Expandable title="properties">
    <ParamField body="city" type="string" required default="Oslo" />
    <ParamField name="zip" type="number" required />
    <ParamField body="floor" type="integer" />
  </Expandable>
</ParamField>
<ParamField body="tags" type="string[]" required />
`

func TestMDXFields_model(t *testing.T) {
	top := mdx.ParamFields(mdxOrderPage, nil)
	var names []string
	for _, f := range top {
		names = append(names, f.In+":"+f.Name)
	}
	want := []string{"path:orderId", "query:limit", "header:X-Trace", "cookie:session", "body:note", "body:rush",
		"body:gift", "body:address", "body:tags"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("fields %v, want %v", names, want)
	}
	addr := top[7]
	if len(addr.Children) != 3 || addr.Children[1].Name != "zip" || addr.Children[1].In != "body" || !addr.Children[1].Required {
		t.Errorf("address children: %+v", addr.Children)
	}
	if top[1].Default != "10" || top[1].Type != "integer" || top[1].Required {
		t.Errorf("limit: %+v", top[1])
	}
}

func TestMDXPlaygroundConfig_fromParamFields(t *testing.T) {
	j := &job{cfg: &config{}, e: New(Options{}), kind: KindCloud}
	j.cfg.API.MDX.Server = serverList{"https://api.acme.test/v1"}
	j.cfg.API.MDX.Auth.Method = "key"
	j.cfg.API.MDX.Auth.Name = "X-Acme-Key"
	p := &page{file: "orders.mdx", fm: frontmatter{API: "put /orders/{orderId}/lines/{line}"}}
	cfg := j.mdxPlaygroundConfig(p, mdx.ParamFields(mdxOrderPage, nil))
	if cfg == nil {
		t.Fatal("no config")
	}
	if cfg.Method != "PUT" || cfg.Path != "/orders/{orderId}/lines/{line}" || !reflect.DeepEqual(cfg.Servers, []string{"https://api.acme.test/v1"}) {
		t.Errorf("target: %s %s %v", cfg.Method, cfg.Path, cfg.Servers)
	}
	wantParams := []pgParam{
		{Name: "orderId", In: "path", Type: "string", Required: true},
		{Name: "limit", In: "query", Type: "integer", Default: "10"},
		{Name: "X-Trace", In: "header", Type: "string"},
		{Name: "session", In: "cookie", Type: "string"},
		// Not declared, but in the template: a required string.
		{Name: "line", In: "path", Type: "string", Required: true},
	}
	if !reflect.DeepEqual(cfg.Params, wantParams) {
		t.Errorf("params:\n got %+v\nwant %+v", cfg.Params, wantParams)
	}
	if want := [][]openapi.Scheme{{{Name: "X-Acme-Key", Type: "apiKey", In: "header", Param: "X-Acme-Key"}}}; !reflect.DeepEqual(cfg.Security, want) {
		t.Errorf("security %+v, want %+v", cfg.Security, want)
	}
	if len(cfg.Bodies) != 1 || cfg.Bodies[0].Media != "application/json" || !cfg.BodyReq {
		t.Fatalf("bodies %+v (required %v)", cfg.Bodies, cfg.BodyReq)
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(cfg.Bodies[0].Example), &body); err != nil {
		t.Fatalf("body example is not JSON: %v\n%s", err, cfg.Bodies[0].Example)
	}
	// Required fields and defaults, typed; optional ones without a default
	// (gift, floor) left out.
	want := map[string]any{"note": "", "rush": true, "address": map[string]any{"city": "Oslo", "zip": 0.0}, "tags": []any{}}
	if !reflect.DeepEqual(body, want) {
		t.Errorf("body %v, want %v", body, want)
	}
	if strings.Index(cfg.Bodies[0].Example, `"note"`) > strings.Index(cfg.Bodies[0].Example, `"tags"`) {
		t.Errorf("body keys out of the page's order:\n%s", cfg.Bodies[0].Example)
	}
}

// TestMDXPlaygroundConfig_fileBody checks that a body field of type file
// makes the body a multipart form, the file a file input.
func TestMDXPlaygroundConfig_fileBody(t *testing.T) {
	j := &job{cfg: &config{}, e: New(Options{}), kind: KindCloud}
	p := &page{file: "upload.mdx", fm: frontmatter{API: "POST https://api.acme.test/photos"}}
	cfg := j.mdxPlaygroundConfig(p, mdx.ParamFields(`<ParamField body="photo" type="file" required />
<ParamField body="extra" type="file[]" />
<ParamField body="caption" type="string" default="Rex" />`, nil))
	want := []openapi.Body{{Media: "multipart/form-data", Form: "multipart", Fields: []openapi.FormField{
		{Name: "photo", Type: "file", Required: true, Binary: true},
		{Name: "extra", Type: "file[]", Binary: true, Multiple: true},
		{Name: "caption", Type: "string", Default: "Rex"}}}}
	if cfg == nil || !reflect.DeepEqual(cfg.Bodies, want) || !cfg.BodyReq {
		t.Errorf("bodies %+v, want %+v", cfg.Bodies, want)
	}
}

func TestMDXPlaygroundConfig_servers(t *testing.T) {
	for _, tc := range []struct {
		name, api, server, auth string
		servers                 []string
		path                    string
		security                [][]openapi.Scheme
		warn                    string
	}{
		{name: "full URL wins over api.mdx.server", api: "GET https://other.test:8443/v2/users/{id}", server: "https://api.acme.test",
			servers: []string{"https://other.test:8443"}, path: "/v2/users/{id}", auth: "bearer", security: [][]openapi.Scheme{{{Name: "Bearer", Type: "bearer"}}}},
		{name: "origin alone", api: "DELETE http://127.0.0.1:9", servers: []string{"http://127.0.0.1:9"}, path: "/", auth: "basic",
			security: [][]openapi.Scheme{{{Name: "Basic", Type: "basic"}}}},
		{name: "relative path with server", api: "POST /users", server: "https://api.acme.test/", servers: []string{"https://api.acme.test/"},
			path: "/users", auth: "none", security: [][]openapi.Scheme{}},
		{name: "relative path without server", api: "POST /users", warn: "users.mdx: api \"POST /users\" has a relative path and docs.json sets no api.mdx.server; no playground shown"},
		{name: "no method", api: "/users", server: "https://api.acme.test", warn: "is not \"METHOD /path\""},
		{name: "path without slash", api: "GET users", server: "https://api.acme.test", warn: `users.mdx: api "GET users" has a path that does not start with "/"; no playground shown`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := &job{cfg: &config{}, e: New(Options{}), kind: KindCloud}
			if tc.server != "" {
				j.cfg.API.MDX.Server = serverList{tc.server}
			}
			var warns []string
			j.warnings.sink = func(s string) { warns = append(warns, s) }
			p := &page{file: "users.mdx", fm: frontmatter{API: tc.api, AuthMethod: tc.auth}}
			cfg := j.mdxPlaygroundConfig(p, nil)
			if tc.warn != "" {
				if cfg != nil || len(warns) != 1 || !strings.Contains(warns[0], tc.warn) {
					t.Fatalf("config %+v, warnings %q; want none and a warning with %q", cfg, warns, tc.warn)
				}
				return
			}
			if cfg == nil || len(warns) != 0 {
				t.Fatalf("config %+v, warnings %q", cfg, warns)
			}
			if !reflect.DeepEqual(cfg.Servers, tc.servers) || cfg.Path != tc.path || !reflect.DeepEqual(cfg.Security, tc.security) {
				t.Errorf("servers %v path %q security %+v; want %v %q %+v", cfg.Servers, cfg.Path, cfg.Security, tc.servers, tc.path, tc.security)
			}
		})
	}
}

// mdxAPISource writes a small site of MDX API pages, one per playground
// mode, sending to server.
func mdxAPISource(t *testing.T, server string) string {
	t.Helper()
	return writeSource(t, map[string]string{
		"docs.json": `{"name": "Orders", "navigation": {"pages": ["update-order", "upload", "simple", "none", "relative"]},
			"api": {"mdx": {"auth": {"method": "bearer"}}}}`,
		"update-order.mdx": "---\ntitle: Update an order\napi: \"PUT " + server + "/orders/{orderId}\"\n---\n" + mdxOrderPage,
		"upload.mdx": "---\ntitle: Upload\napi: \"POST " + server + "/photos\"\nauthMethod: none\n---\n" +
			"<ParamField body=\"photo\" type=\"file\" required />\n<ParamField body=\"caption\" type=\"string\" default=\"Rex\" />\n",
		"simple.mdx":   "---\ntitle: Simple\napi: \"GET " + server + "/ping\"\nplayground: simple\n---\n<ParamField query=\"q\" type=\"string\" />\n",
		"none.mdx":     "---\ntitle: None\napi: \"GET " + server + "/ping\"\nplayground: none\n---\n",
		"relative.mdx": "---\ntitle: Relative\napi: \"GET /ping\"\n---\n",
	})
}

// TestGolden_mdxPlayground pins the panel of an MDX API page and checks
// the modes and kinds that show none.
func TestGolden_mdxPlayground(t *testing.T) {
	src := mdxAPISource(t, "https://api.acme.test")
	var warns []string
	dir, _ := exportTo(t, Request{Source: os.DirFS(src), Kind: KindCloud, Warn: func(s string) { warns = append(warns, s) }})
	page := readOut(t, dir, "update-order.html")
	i, k := strings.Index(page, `<div class="endpoint">`), strings.Index(page, `_static/playground.js"></script>`)
	if i < 0 || k < i {
		t.Fatalf("update-order.html has no playground panel and script")
	}
	compareGolden(t, filepath.Join("testdata", "golden", "mdx-playground.html"), strings.ReplaceAll(page[i:k], "><", ">\n<")+"\n")
	for _, name := range []string{"simple.html", "none.html", "relative.html"} {
		if p := readOut(t, dir, name); strings.Contains(p, `class="playground"`) || strings.Contains(p, "playground.js") {
			t.Errorf("%s shows a playground", name)
		}
	}
	if !strings.Contains(readOut(t, dir, "simple.html"), `<div class="endpoint"><span class="method method-get">GET</span><code>https://api.acme.test/ping</code>`) {
		t.Errorf("simple.html does not show its endpoint")
	}
	var relWarned bool
	for _, w := range warns {
		relWarned = relWarned || strings.Contains(w, `relative.mdx: api "GET /ping" has a relative path`)
	}
	if !relWarned {
		t.Errorf("no warning names relative.mdx: %q", warns)
	}
	// Air-gapped: only with the playground feature, and the CSP then
	// allows the page's server and nothing else.
	off, _ := exportTo(t, Request{Source: os.DirFS(src), Kind: KindAirGapped})
	if p := readOut(t, off, "update-order.html"); strings.Contains(p, `class="playground"`) {
		t.Errorf("air-gapped bundle without the playground feature shows the panel")
	}
	on, _ := exportTo(t, Request{Source: os.DirFS(src), Kind: KindAirGapped, Features: []string{"playground"}})
	p := readOut(t, on, "update-order.html")
	if !strings.Contains(p, `"locked":true`) || !strings.Contains(p, "file: https://api.acme.test; object-src") {
		t.Errorf("air-gapped page with the playground: locked panel and CSP with the server expected:\n%s", headOf(p))
	}
}

func headOf(p string) string {
	if i := strings.Index(p, "</head>"); i >= 0 {
		return p[:i]
	}
	return p
}

// TestMDXFields_snippets checks that ParamFields of an imported snippet
// count where the page uses it, nested under an open body field too, and
// that a snippet imported but not used, or missing, adds nothing.
func TestMDXFields_snippets(t *testing.T) {
	snippets := map[string]string{
		"snippets/paging.mdx":  "---\ntitle: x\n---\n<ParamField query=\"cursor\" type=\"string\" />\n",
		"snippets/address.mdx": "<ParamField body=\"city\" type=\"string\" required />\n",
		"snippets/unused.mdx":  "<ParamField query=\"never\" type=\"string\" />\n",
	}
	load := func(file string) (string, error) {
		if s, ok := snippets[file]; ok {
			return s, nil
		}
		return "", os.ErrNotExist
	}
	page := `import Paging from '/snippets/paging.mdx';
import Address from "/snippets/address.mdx"
import Unused from '/snippets/unused.mdx';
import Gone from '/snippets/gone.mdx';

<ParamField path="id" type="string" required />
<Paging />
<ParamField body="to" type="object" required>
  <Address />
</ParamField>
<Gone />
`
	var got []string
	for _, f := range mdx.ParamFields(page, load) {
		got = append(got, f.In+":"+f.Name)
		for _, c := range f.Children {
			got = append(got, "  "+c.In+":"+c.Name)
		}
	}
	if want := []string{"path:id", "query:cursor", "body:to", "  body:city"}; !reflect.DeepEqual(got, want) {
		t.Errorf("fields %q, want %q", got, want)
	}
}

// TestMDXFields_snippetFanOutBounded: a snippet that uses itself ten
// times would take 10^8 scans unbounded; the scan stops after
// mdx.MaxSnippetScans uses.
func TestMDXFields_snippetFanOutBounded(t *testing.T) {
	self := "import S from '/snippets/s.mdx';\n\n<ParamField query=\"q\" type=\"string\" />\n" + strings.Repeat("<S />\n", 10)
	loads := 0
	load := func(string) (string, error) { loads++; return self, nil }
	fields := mdx.ParamFields(self, load)
	if loads != mdx.MaxSnippetScans || len(fields) != mdx.MaxSnippetScans+1 {
		t.Errorf("%d loads, %d fields; want %d and %d", loads, len(fields), mdx.MaxSnippetScans, mdx.MaxSnippetScans+1)
	}
	j := &job{cfg: &config{}, e: New(Options{}), kind: KindCloud}
	cfg := j.mdxPlaygroundConfig(&page{file: "s.mdx", fm: frontmatter{API: "GET http://127.0.0.1:9/s"}}, fields)
	if cfg == nil || len(cfg.Params) != 1 {
		t.Errorf("a parameter declared again should make one input: %+v", cfg)
	}
}
