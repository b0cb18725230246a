package export

import (
	"os"
	"strings"
	"testing"
)

// columnsSource is a site with an API generated from a spec, an endpoint
// page of that spec with its own request example, MDX API pages with and
// without examples, and a guide with an example.
func columnsSource(t *testing.T) string {
	return writeSource(t, map[string]string{
		"docs.json": `{"name": "Cols", "api": {"mdx": {"server": "https://api.cols.test"}}, "navigation": {"tabs": [
			{"tab": "Docs", "pages": ["guide", "own-example", "mdx-api", "mdx-bare"]},
			{"tab": "API", "openapi": "spec.yaml"}]}}`,
		"spec.yaml": `openapi: 3.0.3
info: {title: Cols, version: "1"}
servers: [{url: "https://api.cols.test"}]
paths:
  /pets:
    post:
      summary: Add a pet
      requestBody:
        content:
          application/json:
            schema: {type: object, properties: {name: {type: string, example: Rex}}}
      responses:
        "201":
          description: Added.
          content:
            application/json:
              examples:
                dog: {value: {name: Rex}}
                cat: {value: {name: Tom}}
        "400":
          description: Refused.
          content:
            application/json:
              example: {error: bad name}
    get:
      summary: List pets
      responses: {"204": {description: Nothing.}}
`,
		"guide.mdx":       "---\ntitle: Guide\n---\nText.\n\n<RequestExample>\n```bash\ncurl guide\n```\n</RequestExample>\n",
		"own-example.mdx": "---\ntitle: Own\nopenapi: spec.yaml POST /pets\n---\nWritten.\n\n<RequestExample>\n```bash Mine\ncurl mine\n```\n</RequestExample>\n",
		"mdx-api.mdx": "---\ntitle: MDX API\napi: GET /things\n---\n<ParamField query=\"q\" type=\"string\">Query.</ParamField>\n\n" +
			"<RequestExample>\n```bash A\ncurl a\n```\n```python B\nget(b)\n```\n</RequestExample>\n\n<ResponseExample>\n```json 200\n{\"ok\": true}\n```\n</ResponseExample>\n",
		"mdx-bare.mdx": "---\ntitle: Bare\napi: GET /bare\n---\n<ParamField query=\"q\" type=\"string\">Query.</ParamField>\n",
	})
}

// TestAPIColumns: an API page with examples is laid out for two columns
// (no table of contents; the examples after the method and path, before
// the reference), with the request samples in language tabs and the
// response examples in status tabs; the page's own examples stand in for
// the generated ones. A page without examples, and a guide, keep one
// column with their contents.
func TestAPIColumns(t *testing.T) {
	dir, _ := exportTo(t, Request{Source: os.DirFS(columnsSource(t)), Kind: KindAirGapped, Features: []string{"playground"}})
	add := readOut(t, dir, "api-reference/add-a-pet.html")
	wantAll(t, "add-a-pet", add, `<div class="layout mode-wide">`, `<article class="page page-cols">`,
		`<aside class="api-examples" aria-label="Examples">`, `<p class="api-example-title">Request</p>`,
		`data-title="cURL"`, `<div class="code-group api-statuses" data-tabs>`,
		`<div class="api-status-examples" data-title="201"><select class="api-example-select" aria-label="Example of the 201 response" hidden>`,
		`<option value="1">201 cat</option>`, `<div class="code-block" data-title="400">`,
		`<dialog class="playground" id="try-it"`)
	inOrder(t, "add-a-pet", add, `<div class="cols-top">`, `<code class="api-path">/pets</code>`, `</div><link rel="stylesheet"`,
		`<aside class="api-examples"`, `<div class="cols-body">`, `<h2 id="body">`, `<h2 id="responses">`)
	for _, bad := range []string{`class="toc"`, `Request examples`, `Response examples`} {
		if strings.Contains(add, bad) {
			t.Errorf("add-a-pet has %s", bad)
		}
	}
	// An operation without response examples still has its request.
	list := readOut(t, dir, "api-reference/list-pets.html")
	if !strings.Contains(list, `<p class="api-example-title">Request</p>`) || strings.Contains(list, `<p class="api-example-title">Response</p>`) {
		t.Errorf("list-pets: want the request sample alone in the examples column")
	}

	own := readOut(t, dir, "own-example.html")
	wantAll(t, "own-example", own, `<article class="page page-cols">`, `data-title="Mine"`, `<div class="code-block" data-title="400">`)
	// The page's Markdown copy (the hidden textarea of "Copy page") holds
	// the source once more; the rendered page must hold it once.
	shown := own
	if i := strings.Index(shown, `<textarea class="md-source"`); i >= 0 {
		if j := strings.Index(shown[i:], `</textarea>`); j >= 0 {
			shown = shown[:i] + shown[i+j:]
		}
	}
	if strings.Contains(shown, `data-title="cURL"`) || strings.Count(shown, "curl mine") != 1 {
		t.Errorf("own-example: the page's request example must replace the generated ones and show once")
	}
	inOrder(t, "own-example", own, `<aside class="api-examples"`, `curl mine`, `</aside>`, `<div class="prose">`, `Written.`)

	mdxAPI := readOut(t, dir, "mdx-api.html")
	wantAll(t, "mdx-api", mdxAPI, `<article class="page page-cols">`, `_static/api.css`,
		`<div class="example example-request" data-tabs>`, `<div class="example example-response" data-tabs>`)
	inOrder(t, "mdx-api", mdxAPI, `<div class="endpoint">`, `<aside class="api-examples"`, `curl a`, `&#34;ok&#34;`, `</aside>`, `id="field-q"`)
	bare := readOut(t, dir, "mdx-bare.html")
	if strings.Contains(bare, "page-cols") || !strings.Contains(bare, `<div class="layout">`) {
		t.Errorf("mdx-bare (no examples) is not one column")
	}
	guide := readOut(t, dir, "guide.html")
	if strings.Contains(guide, "page-cols") || !strings.Contains(guide, `<div class="prose"><p>Text.</p>`) || !strings.Contains(guide, "example-request") {
		t.Errorf("a guide's example must stay in its text")
	}
}

// inOrder checks that the parts appear in html in the order given.
func inOrder(t *testing.T, page, html string, parts ...string) {
	t.Helper()
	at := 0
	for _, p := range parts {
		i := strings.Index(html[at:], p)
		if i < 0 {
			t.Errorf("%s: %q missing after offset %d (or out of order)", page, p, at)
			return
		}
		at += i + len(p)
	}
}
