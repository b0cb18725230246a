package openapi

import (
	"reflect"
	"strings"
	"testing"
)

// modelSpec exercises what the model resolves: server variables, servers
// and parameters at three levels, $ref'd parameters and schemas, allOf,
// security alternatives, webhooks and x-hidden.
const modelSpec = `openapi: 3.1.0
servers:
  - url: https://{region}.api.example.com/v1
    variables:
      region: {default: eu}
security:
  - bearer: []
paths:
  /pets/{petId}:
    parameters:
      - {name: petId, in: path, schema: {type: string}}
      - {name: trace, in: header, description: path-item level}
    get:
      summary: Get a pet
      parameters:
        - {name: trace, in: header, required: true, description: operation level}
        - $ref: '#/components/parameters/Limit'
      responses: {"200": {description: ok}}
    put:
      servers: [{url: https://write.example.com}]
      security:
        - apiKey: []
        - bearer: []
          apiKey: []
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Pet'}
      responses: {"200": {description: ok}}
  /hidden:
    get: {x-hidden: true, responses: {"200": {description: ok}}}
webhooks:
  petAdded:
    post: {summary: A pet was added, responses: {"200": {description: ok}}}
components:
  parameters:
    Limit: {name: limit, in: query, schema: {type: integer, default: 10}}
  securitySchemes:
    bearer: {type: http, scheme: Bearer}
    apiKey: {type: apiKey, in: header, name: X-Api-Key}
  schemas:
    Named:
      type: object
      required: [name]
      properties: {name: {type: string, example: Rex}}
    Pet:
      allOf:
        - $ref: '#/components/schemas/Named'
        - type: object
          properties: {age: {type: integer}}
`

func TestModel_resolvesEndpoints(t *testing.T) {
	s, err := Parse("pets.yaml", []byte(modelSpec))
	if err != nil {
		t.Fatal(err)
	}
	var ops []string
	for _, o := range s.Ops {
		ops = append(ops, o.Method+" "+o.Path)
	}
	if want := []string{"GET /pets/{petId}", "PUT /pets/{petId}", "GET /hidden", "WEBHOOK petAdded"}; !reflect.DeepEqual(ops, want) {
		t.Errorf("operations %q, want %q", ops, want)
	}
	type param struct {
		Name, In string
		Required bool
		Desc     string
	}
	for _, tc := range []struct {
		ref      string
		summary  string
		hidden   bool
		servers  []string
		params   []param
		security [][]string
		media    []string
	}{
		{
			ref: "GET /pets/{petId}", summary: "Get a pet",
			servers: []string{"https://eu.api.example.com/v1"},
			params: []param{
				{"petId", "path", true, ""},
				{"trace", "header", true, "operation level"}, // the operation's replaces the path item's
				{"limit", "query", false, ""},
			},
			security: [][]string{{"bearer:bearer"}},
		},
		{
			ref: "put /pets/{petId}", summary: "PUT /pets/{petId}",
			servers:  []string{"https://write.example.com"},
			params:   []param{{"petId", "path", true, ""}, {"trace", "header", false, "path-item level"}},
			security: [][]string{{"apiKey:apiKey"}, {"bearer:bearer", "apiKey:apiKey"}},
			media:    []string{"application/json"},
		},
		{ref: "GET /hidden", summary: "GET /hidden", hidden: true, servers: []string{"https://eu.api.example.com/v1"}, security: [][]string{{"bearer:bearer"}}},
		{ref: "webhook petAdded", summary: "A pet was added", servers: []string{"https://eu.api.example.com/v1"}, security: [][]string{{"bearer:bearer"}}},
	} {
		o := s.Find(tc.ref)
		if o == nil {
			t.Errorf("Find(%q) = nil", tc.ref)
			continue
		}
		e := o.Resolve(&View{Spec: s, Budget: SchemaBudget})
		var params []param
		for _, p := range e.Params {
			params = append(params, param{p.Name, p.In, p.Required, p.O.Str("description")})
		}
		var sec [][]string
		for _, set := range e.Security {
			var names []string
			for _, sc := range set {
				names = append(names, sc.Name+":"+sc.Type)
			}
			sec = append(sec, names)
		}
		if o.Summary() != tc.summary || o.Hidden != tc.hidden || !reflect.DeepEqual(e.Servers, tc.servers) ||
			!reflect.DeepEqual(params, tc.params) || !reflect.DeepEqual(sec, tc.security) || !reflect.DeepEqual(e.Media, tc.media) {
			t.Errorf("%s: summary %q hidden %v servers %q params %+v security %q media %q\nwant %q %v %q %+v %q %q",
				tc.ref, o.Summary(), o.Hidden, e.Servers, params, sec, e.Media, tc.summary, tc.hidden, tc.servers, tc.params, tc.security, tc.media)
		}
	}
	for _, ref := range []string{"GET /nowhere", "DELETE /pets/{petId}", "nospace", "webhook /pets/{petId}"} {
		if s.Find(ref) != nil {
			t.Errorf("Find(%q) found an operation", ref)
		}
	}
}

func TestModel_schemas(t *testing.T) {
	s, err := Parse("pets.yaml", []byte(modelSpec))
	if err != nil {
		t.Fatal(err)
	}
	v := &View{Spec: s, Budget: SchemaBudget}
	f := v.Flatten(s.Root.Sub("components").Sub("schemas").Get("Pet"))
	if f.Props == nil || !reflect.DeepEqual(f.Props.Keys, []string{"name", "age"}) || !reflect.DeepEqual(f.Required, []string{"name"}) {
		t.Errorf("Pet flattened: props %v required %q; want name and age from allOf, name required", f.Props, f.Required)
	}
	e := s.Find("PUT /pets/{petId}").Resolve(v)
	if got := Pretty(e.Example); !strings.Contains(got, `"name": "Rex"`) || !strings.Contains(got, `"age": 0`) {
		t.Errorf("the body example is %s; want the spec's example for name and an integer for age", got)
	}
	for _, tc := range []struct{ doc, wantErr string }{
		{`{"openapi": "3.0.3", "paths": {}}`, ""},
		{`{"openapi": "2.0"}`, `"openapi" is "2.0"`},
		{`{"openapi": "3.1.0", "components": {"schemas": {"A": {"$ref": "#/components/schemas/B"}, "B": {"$ref": "#/components/schemas/A"}}}}`, "cycle"},
	} {
		s, err := Parse("x.json", []byte(tc.doc))
		if err == nil && tc.wantErr == "cycle" {
			_, _, err = s.Deref(s.Root.Sub("components").Sub("schemas").Get("A"))
		}
		if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("%s: %v, want %q", tc.doc, err, tc.wantErr)
		}
	}
}
