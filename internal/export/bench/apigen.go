package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
)

// The API part of the corpus: one OpenAPI 3.1 document whose operations
// become endpoint pages (a navigation tab names the file, as real docs
// repositories do), and for Hugo the same reference written out by hand
// as Markdown: method and path, parameter table, body fields, responses
// with an example, and curl/Python/JavaScript samples to highlight. The
// 2,000-page site holds apiTags tags; the endpoint-heavy case of issue 25
// (1,000 endpoint pages) holds bigAPITags.
const (
	apiTags       = 20
	bigAPITags    = 100
	apiOpsPerTag  = 10
	apiPages      = apiTags * apiOpsPerTag
	apiSpecFile   = "openapi.json"
	apiServerBase = "https://api.example.com/v1"
)

var apiMethods = []string{"get", "post", "put", "patch", "delete"}

// apiOp is one generated operation, kept to write both sides alike.
type apiOp struct {
	tag, method, path, summary, desc, schema string
	body                                     bool
}

func (g *gen) apiOps(tags int) []apiOp {
	var ops []apiOp
	for t := 0; t < tags; t++ {
		res := fmt.Sprintf("%s%d", g.word(), t)
		for i := 0; i < apiOpsPerTag; i++ {
			m := apiMethods[i%len(apiMethods)]
			p := fmt.Sprintf("/%s/items%d/{id}", res, i)
			ops = append(ops, apiOp{tag: res, method: m, path: p,
				summary: fmt.Sprintf("%s %s %s %d", strings.ToUpper(m[:1])+m[1:], g.word(), res, i),
				desc:    g.paragraph(3), schema: fmt.Sprintf("Resource%d", t), body: m == "post" || m == "put" || m == "patch"})
		}
	}
	return ops
}

// schema is the component schema of a tag: nested objects, an array of
// objects, a oneOf, an enum and constraints, as real APIs have.
func (g *gen) schema() map[string]any {
	str := func() map[string]any { return map[string]any{"type": "string", "description": g.sentence(8)} }
	return map[string]any{
		"type": "object", "required": []string{"name", "kind"}, "description": g.sentence(10),
		"properties": map[string]any{
			"id":      map[string]any{"type": "string", "format": "uuid", "readOnly": true},
			"name":    map[string]any{"type": "string", "minLength": 1, "maxLength": 64, "description": g.sentence(8)},
			"kind":    map[string]any{"type": "string", "enum": []string{"basic", "advanced", "legacy"}},
			"labels":  map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": map[string]any{"key": str(), "value": str()}}},
			"limits":  map[string]any{"type": "object", "properties": map[string]any{"cpu": map[string]any{"type": "integer", "minimum": 1}, "memory": str()}},
			"target":  map[string]any{"oneOf": []any{map[string]any{"type": "string", "title": "URL"}, map[string]any{"$ref": "#/components/schemas/Error", "title": "Ref"}}},
			"note":    map[string]any{"type": []string{"string", "null"}},
			"created": map[string]any{"type": "string", "format": "date-time", "readOnly": true},
		},
	}
}

// writeAPI writes the spec of tags tags, apiOpsPerTag operations each,
// into docs and the equivalent Markdown pages into hugo/content/api, and
// returns the navigation tab of the spec.
func (g *gen) writeAPI(docs, hugo string, tags int) (map[string]any, error) {
	ops := g.apiOps(tags)
	for i, o := range ops {
		if err := write(filepath.Join(hugo, "content", "api", fmt.Sprintf("op%04d.md", i)), hugoEndpoint(o, i)); err != nil {
			return nil, err
		}
	}
	if err := g.writeSpecOps(filepath.Join(docs, apiSpecFile), ops); err != nil {
		return nil, err
	}
	if err := write(filepath.Join(hugo, "content", "api", "_index.md"), "---\ntitle: \"API reference\"\n---\n"); err != nil {
		return nil, err
	}
	return map[string]any{"tab": "API reference", "openapi": apiSpecFile}, nil
}

// writeSpec writes a spec of tags tags, apiOpsPerTag operations each, to
// the file p.
func (g *gen) writeSpec(p string, tags int) error { return g.writeSpecOps(p, g.apiOps(tags)) }

// writeSpecOps writes the OpenAPI document of ops to the file p.
func (g *gen) writeSpecOps(p string, ops []apiOp) error {
	paths := map[string]any{}
	schemas := map[string]any{"Error": map[string]any{"type": "object", "required": []string{"error"},
		"properties": map[string]any{"error": map[string]any{"type": "string"}}}}
	for i, o := range ops {
		if _, ok := schemas[o.schema]; !ok {
			schemas[o.schema] = g.schema()
		}
		op := map[string]any{
			"tags": []string{o.tag}, "summary": o.summary, "description": o.desc, "operationId": fmt.Sprintf("op%d", i),
			"parameters": []any{
				map[string]any{"name": "id", "in": "path", "required": true, "schema": map[string]any{"type": "string"}, "description": g.sentence(6)},
				map[string]any{"name": "limit", "in": "query", "schema": map[string]any{"type": "integer", "minimum": 1, "maximum": 100, "default": 20}},
				map[string]any{"name": "view", "in": "query", "schema": map[string]any{"type": "string", "enum": []string{"basic", "full"}}},
				map[string]any{"name": "X-Request-Id", "in": "header", "schema": map[string]any{"type": "string", "format": "uuid"}},
			},
			"responses": map[string]any{
				"200": map[string]any{"description": g.sentence(6), "content": map[string]any{"application/json": map[string]any{
					"schema": map[string]any{"$ref": "#/components/schemas/" + o.schema}}}},
				"404": map[string]any{"description": "Not found.", "content": map[string]any{"application/json": map[string]any{
					"schema": map[string]any{"$ref": "#/components/schemas/Error"}}}},
			},
		}
		if o.body {
			op["requestBody"] = map[string]any{"required": true, "content": map[string]any{"application/json": map[string]any{
				"schema": map[string]any{"$ref": "#/components/schemas/" + o.schema}}}}
		}
		item, _ := paths[o.path].(map[string]any)
		if item == nil {
			item = map[string]any{}
			paths[o.path] = item
		}
		item[o.method] = op
	}
	spec, err := json.MarshalIndent(map[string]any{
		"openapi": "3.1.0", "info": map[string]any{"title": "Bench API", "version": "1"},
		"servers": []any{map[string]any{"url": apiServerBase}},
		"components": map[string]any{"schemas": schemas,
			"securitySchemes": map[string]any{"bearer": map[string]any{"type": "http", "scheme": "bearer"}}},
		"security": []any{map[string]any{"bearer": []string{}}},
		"paths":    paths,
	}, "", "  ")
	if err != nil {
		return err
	}
	return write(p, string(spec))
}

// hugoEndpoint is the Markdown an author would write for the endpoint
// page without a generator: the same sections and samples.
func hugoEndpoint(o apiOp, i int) string {
	var b strings.Builder
	m := strings.ToUpper(o.method)
	fmt.Fprintf(&b, "---\ntitle: %q\nweight: %d\n---\n\n**%s** `%s`\n\n`%s%s`\n\n%s\n\n", o.summary, i+1, m, o.path, apiServerBase, o.path, o.desc)
	b.WriteString("## Authorizations\n\n| Name | In | Type |\n| --- | --- | --- |\n| `Authorization` | header | Bearer token, required |\n\n")
	b.WriteString("## Parameters\n\n| Name | In | Type | Description |\n| --- | --- | --- | --- |\n" +
		"| `id` | path | string, required | The resource's id. |\n| `limit` | query | integer, 1 to 100, default 20 | Page size. |\n" +
		"| `view` | query | `basic` or `full` | Detail level. |\n| `X-Request-Id` | header | string (uuid) | Trace id. |\n\n")
	fields := "- **name** (string, required, 1 to 64 characters): the resource's name.\n" +
		"- **kind** (string, required): one of `basic`, `advanced`, `legacy`.\n" +
		"- **labels** (object[]):\n  - **key** (string)\n  - **value** (string)\n" +
		"- **limits** (object):\n  - **cpu** (integer, at least 1)\n  - **memory** (string)\n" +
		"- **target** (one of): a URL string, or an Error object.\n- **note** (string or null)\n"
	if o.body {
		b.WriteString("## Body\n\n`application/json`, required\n\n" + fields + "\n")
	}
	b.WriteString("## Responses\n\n### 200\n\n`application/json`\n\n" + fields +
		"- **id** (string, uuid, read-only)\n- **created** (string, date-time, read-only)\n\n")
	b.WriteString("```json\n{\n  \"id\": \"3fa85f64-5717-4562-b3fc-2c963f66afa6\",\n  \"name\": \"<string>\",\n  \"kind\": \"basic\",\n" +
		"  \"labels\": [{\"key\": \"<string>\", \"value\": \"<string>\"}],\n  \"limits\": {\"cpu\": 1, \"memory\": \"<string>\"}\n}\n```\n\n")
	b.WriteString("### 404\n\nNot found.\n\n- **error** (string, required)\n\n## Request examples\n\n")
	url := apiServerBase + strings.ReplaceAll(o.path, "{id}", "<id>")
	fmt.Fprintf(&b, "```bash\ncurl --request %s \\\n  --url '%s' \\\n  --header 'Authorization: Bearer <token>'", m, url)
	if o.body {
		b.WriteString(" \\\n  --header 'Content-Type: application/json' \\\n  --data '{\n  \"name\": \"<string>\",\n  \"kind\": \"basic\"\n}'")
	}
	fmt.Fprintf(&b, "\n```\n\n```python\nimport requests\n\nurl = %q\nheaders = {\"Authorization\": \"Bearer <token>\"}\n\n"+
		"response = requests.request(%q, url, headers=headers)\n\nprint(response.text)\n```\n\n", url, m)
	fmt.Fprintf(&b, "```javascript\nconst options = {\n  method: %q,\n  headers: {\n    \"Authorization\": \"Bearer <token>\"\n  }\n};\n\n"+
		"fetch(%q, options)\n  .then(response => response.json())\n  .then(response => console.log(response))\n  .catch(err => console.error(err));\n```\n", m, url)
	return b.String()
}
