package apipages

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
)

func TestMDXPlaygroundConfig_fromParamFields(t *testing.T) {
	api := &docsjson.Settings{}
	api.MDX.Server = docsjson.ServerList{"https://api.acme.test/v1"}
	api.MDX.Auth.Method = "key"
	api.MDX.Auth.Name = "X-Acme-Key"
	w := NewPages(api, true, false, func(string, ...any) {})
	cfg := w.mdxPlaygroundConfig(Page{File: "orders.mdx", API: "put /orders/{orderId}/lines/{line}"}, mdx.ParamFields(mdxOrderPage, nil))
	if cfg == nil {
		t.Fatal("no config")
	}
	if cfg.Method != "PUT" || cfg.Path != "/orders/{orderId}/lines/{line}" || !reflect.DeepEqual(cfg.Servers, []string{"https://api.acme.test/v1"}) {
		t.Errorf("target: %s %s %v", cfg.Method, cfg.Path, cfg.Servers)
	}
	wantParams := []PlaygroundParam{
		{Name: "orderId", In: "path", Type: "string", Required: true},
		{Name: "limit", In: "query", Type: "integer", Default: "10"},
		{Name: "X-Trace", In: "header", Type: "string", Placeholder: "trace-123"},
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
	w := NewPages(&docsjson.Settings{}, true, false, func(string, ...any) {})
	cfg := w.mdxPlaygroundConfig(Page{File: "upload.mdx", API: "POST https://api.acme.test/photos"}, mdx.ParamFields(`<ParamField body="photo" type="file" required />
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
			api := &docsjson.Settings{}
			if tc.server != "" {
				api.MDX.Server = docsjson.ServerList{tc.server}
			}
			var warns []string
			w := NewPages(api, true, false, func(f string, a ...any) { warns = append(warns, fmt.Sprintf(f, a...)) })
			cfg := w.mdxPlaygroundConfig(Page{File: "users.mdx", API: tc.api, AuthMethod: tc.auth}, nil)
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
	w := NewPages(&docsjson.Settings{}, true, false, func(string, ...any) {})
	cfg := w.mdxPlaygroundConfig(Page{File: "s.mdx", API: "GET http://127.0.0.1:9/s"}, fields)
	if cfg == nil || len(cfg.Params) != 1 {
		t.Errorf("a parameter declared again should make one input: %+v", cfg)
	}
}

// mdxOrderPage is the page of every kind of ParamField that the export's
// tests share (internal/export/testdata).
var mdxOrderPage = func() string {
	b, err := os.ReadFile("../testdata/mdx-order-page.mdx")
	if err != nil {
		panic(err)
	}
	return string(b)
}()
