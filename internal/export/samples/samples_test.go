package samples

import (
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
)

const spec = `openapi: 3.0.3
servers: [{url: https://api.example.com/v2}]
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: X-Api-Key}
security: [{key: []}]
paths:
  /pets/{petId}:
    post:
      parameters:
        - {name: petId, in: path, example: a b/c}
        - {name: verbose, in: query, schema: {type: boolean, default: true}}
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties: {name: {type: string, example: Rex}}
`

// TestGenerate: every language writes the same request: the method, the
// server and the path with its parameter escaped, the query, the API key
// header and the body.
func TestGenerate(t *testing.T) {
	s, err := openapi.Parse("pets.yaml", []byte(spec))
	if err != nil {
		t.Fatal(err)
	}
	v := &openapi.View{Spec: s, Budget: openapi.SchemaBudget}
	r := FromEndpoint(s.Find("POST /pets/{petId}").Resolve(v), v, true)
	for _, tc := range []struct {
		alias, title, lang string
		method             string // how the language writes the method
	}{
		{"curl", "cURL", "bash", "POST"},
		{"Python", "Python", "python", `"POST"`},
		{"js", "JavaScript", "javascript", "POST"},
		{"node.js", "Node.js", "javascript", "POST"},
		{"golang", "Go", "go", "POST"},
		{"rb", "Ruby", "ruby", "Post"},
		{"php", "PHP", "php", "POST"},
		{"java", "Java", "java", "POST"},
		{"C#", "C#", "csharp", `HttpMethod("POST")`},
	} {
		key, ok := Lookup(tc.alias)
		if !ok {
			t.Errorf("Lookup(%q) found no generator", tc.alias)
			continue
		}
		title, lang, code, ok := Generate(r, key)
		if !ok || title != tc.title || lang != tc.lang {
			t.Errorf("%s: Generate = %q, %q, ok %v; want %q, %q", tc.alias, title, lang, ok, tc.title, tc.lang)
			continue
		}
		for _, want := range []string{tc.method, "https://api.example.com/v2/pets/a%20b%2Fc", "verbose=true", "X-Api-Key", "Rex"} {
			if !strings.Contains(code, want) {
				t.Errorf("%s sample lacks %q:\n%s", tc.title, want, code)
			}
		}
	}
	for _, name := range []string{"cobol", "", "javascript2"} {
		if k, ok := Lookup(name); ok {
			t.Errorf("Lookup(%q) = %q, want none", name, k)
		}
	}
	if _, _, _, ok := Generate(r, "cobol"); ok {
		t.Error("Generate with an unknown key succeeded")
	}
}
