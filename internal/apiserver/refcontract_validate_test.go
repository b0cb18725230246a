package apiserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
)

// The machinery of TestRefContract (refcontract_test.go): loading the
// reference documents, mapping and tightening them, sending a request and
// validating its response with kin-openapi, and the coverage check.

// refOp is one reference operation, mapped onto our server.
type refOp struct {
	key   string // method and our path pattern
	route *routers.Route
}

type refContract struct {
	ops       map[string]*refOp
	exercised map[string]map[int]bool
	strict    bool
}

// loadRefContract loads and validates the reference documents and maps
// every operation onto our routes. In strict mode no schema takes our
// added fields.
func loadRefContract(t *testing.T, strict bool) *refContract {
	t.Helper()
	ours := map[string]bool{}
	for _, rt := range apiserver.Routes() {
		ours[rt.Method+" "+rt.Pattern] = true
	}
	ourDoc := loadDoc(t, "openapi.json")
	c := &refContract{ops: map[string]*refOp{}, exercised: map[string]map[int]bool{}, strict: strict}
	for _, d := range refDocs {
		doc := loadDoc(t, filepath.Join("testdata", "reference", d.file))
		tighten(t, doc, ourDoc, strict)
		for path, item := range doc.Paths.Map() {
			for method, op := range item.Operations() {
				key := method + " " + d.prefix + path
				if why, skip := refNotImplemented[key]; skip {
					t.Logf("not implemented: %s (%s)", key, why)
					continue
				}
				if !ours[key] {
					t.Errorf("the reference's %s %s maps to %s, which the server does not route and refNotImplemented does not list", method, path, key)
					continue
				}
				c.ops[key] = &refOp{key: key, route: &routers.Route{Spec: doc, Path: path, PathItem: item, Method: method, Operation: op}}
			}
		}
	}
	for key := range refNotImplemented {
		if ours[key] {
			t.Errorf("refNotImplemented lists %s, which the server routes: exercise it instead", key)
		}
	}
	return c
}

func loadDoc(t *testing.T, file string) *openapi3.T {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromFile(file)
	if err != nil {
		t.Fatalf("load %s: %v", file, err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("%s is not a valid OpenAPI document: %v", file, err)
	}
	return doc
}

// tighten makes the reference's schemas hold us to what its clients rely
// on rather than what its loose schemas permit: a schema that lists no
// required properties (AgentJob, Error) gets all of them required, since
// we always send every documented field (null where nullable); and no
// schema takes fields beyond those it documents and refFieldExtensions
// adds (described as in our openapi.json). So a renamed or dropped field,
// or an undeclared new one, fails the test.
func tighten(t *testing.T, doc, ourDoc *openapi3.T, strict bool) {
	t.Helper()
	var visit func(name string, s *openapi3.Schema)
	visit = func(name string, s *openapi3.Schema) {
		if s == nil || len(s.Properties) == 0 {
			return
		}
		if len(s.Required) == 0 {
			for p := range s.Properties {
				s.Required = append(s.Required, p)
			}
			sort.Strings(s.Required)
		}
		for _, f := range refFieldExtensions[name] {
			if strict {
				break
			}
			mine := ourDoc.Components.Schemas[name]
			if mine == nil || mine.Value.Properties[f] == nil {
				t.Fatalf("refFieldExtensions adds %s.%s, which our openapi.json does not describe", name, f)
			}
			s.Properties[f] = mine.Value.Properties[f]
		}
		s.AdditionalProperties = openapi3.AdditionalProperties{Has: openapi3.Ptr(false)}
		for p, ref := range s.Properties {
			if ref.Ref == "" {
				visit(name+"."+p, ref.Value)
			}
		}
	}
	for name, ref := range doc.Components.Schemas {
		visit(name, ref.Value)
	}
	// Request bodies that are inline in the reference (the prompts).
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			closeInlineResponses(op)
			if op.RequestBody != nil && op.RequestBody.Ref == "" {
				for _, mt := range op.RequestBody.Value.Content {
					if mt.Schema != nil && mt.Schema.Ref == "" {
						visit("", mt.Schema.Value)
					}
				}
			}
		}
	}
}

// closeInlineResponses lets the inline schemas of op's responses (the
// external document has no components) take no fields beyond those they
// document. Unlike component schemas they keep their optional fields
// optional: the update status documents fields, such as endedAt and the
// screenshots, that only some answers carry.
func closeInlineResponses(op *openapi3.Operation) {
	var seal func(s *openapi3.SchemaRef)
	seal = func(s *openapi3.SchemaRef) {
		if s == nil || s.Ref != "" || s.Value == nil || len(s.Value.Properties) == 0 {
			return
		}
		s.Value.AdditionalProperties = openapi3.AdditionalProperties{Has: openapi3.Ptr(false)}
		for _, p := range s.Value.Properties {
			seal(p)
		}
	}
	for _, resp := range op.Responses.Map() {
		if resp.Value == nil {
			continue
		}
		for _, mt := range resp.Value.Content {
			seal(mt.Schema)
		}
	}
}

// do sends one request for the operation key with the path parameters
// params, as a client of the reference would, checks that the status is
// want, and validates the response against the reference. With conforming
// the request itself is first validated against the reference too: a
// request a reference client could send. Bad-input cases are not.
func (c *refContract) do(t *testing.T, env *apiservertest.Env, key string, params map[string]string,
	apiKey, body string, header map[string]string, want int, conforming bool,
) reply {
	t.Helper()
	op := c.ops[key]
	if op == nil {
		t.Fatalf("%s is not a reference operation we implement", key)
	}
	pattern := strings.SplitN(key, " ", 2)[1]
	req, err := http.NewRequest(op.route.Method, env.URL+api.FillPath(pattern, params), strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+apiKey)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	opts := &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true,
		AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: op.route, Options: opts}
	if conforming {
		// Validation reads the body; the request is sent with a fresh one.
		if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
			t.Fatalf("%s: the test's request does not conform to the reference: %v", key, err)
		}
		req.Body = io.NopCloser(strings.NewReader(body))
	}
	if c.strict {
		if s, ok := strictAnswers[key][want]; ok {
			want = s
		}
		if want == 0 {
			t.Fatalf("%s: strict mode closes the connection here, which this test does not provoke", key)
		}
	}
	r := send(t, req)
	if r.status != want {
		t.Fatalf("%s %v: status %d, want %d: %s", key, params, r.status, want, r.body)
	}
	if c.exercised[key] == nil {
		c.exercised[key] = map[int]bool{}
	}
	c.exercised[key][r.status] = true

	if c.strict && !slices.Contains(c.strictAllowed(key), r.status) {
		t.Fatalf("%s answered %d in strict mode, which the reference does not document for it: %s", key, r.status, r.body)
	}
	if c.strict && op.route.Operation.Responses.Value(fmt.Sprint(r.status)) == nil {
		// An error of the update operations, which document none: the
		// Error body their document uses elsewhere.
		validateError(t, op.route.Spec, key, r)
		return r
	}
	if op.route.Operation.Responses.Value(fmt.Sprint(r.status)) == nil {
		ext, listed := refExtensions[key][r.status]
		if !listed {
			t.Fatalf("%s answered %d, which the reference does not document and refExtensions does not list: %s", key, r.status, r.body)
		}
		if ext.elsewhere != "" {
			t.Fatalf("%s: refExtensions says %d is covered in %s, but this test provoked it", key, r.status, ext.elsewhere)
		}
		validateError(t, op.route.Spec, key, r)
		return r
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: r.status, Header: r.header, Options: opts}
	out.SetBodyBytes(r.body)
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		t.Fatalf("%s: %d response does not match the reference: %v\nbody: %s", key, r.status, err, r.body)
	}
	return r
}

// validateError checks an extension's body against the reference's Error
// schema (tightened: the error field is required).
func validateError(t *testing.T, doc *openapi3.T, key string, r reply) {
	t.Helper()
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("%s: %d with content type %q", key, r.status, ct)
	}
	var v any
	if err := json.NewDecoder(bytes.NewReader(r.body)).Decode(&v); err != nil {
		t.Fatalf("%s: %d body is not JSON: %q", key, r.status, r.body)
	}
	schema := refErrorSchema
	if doc.Components != nil && doc.Components.Schemas["Error"] != nil {
		schema = doc.Components.Schemas["Error"].Value
	}
	if err := schema.VisitJSON(v); err != nil {
		t.Fatalf("%s: %d body is not the reference's Error: %v", key, r.status, err)
	}
}

// refErrorSchema is the error body of a document without an Error
// component (the external one writes it inline where it documents one):
// {"error": "..."}, nothing else.
var refErrorSchema = &openapi3.Schema{
	Type:                 &openapi3.Types{openapi3.TypeObject},
	Required:             []string{"error"},
	Properties:           openapi3.Schemas{"error": openapi3.NewStringSchema().NewRef()},
	AdditionalProperties: openapi3.AdditionalProperties{Has: openapi3.Ptr(false)},
}

// checkCoverage fails for a documented status of an implemented operation
// that no request provoked, and (by default; strict mode answers none)
// for an extension that nothing provoked, so neither list can go stale.
func (c *refContract) checkCoverage(t *testing.T, strict bool) {
	t.Helper()
	for key, op := range c.ops {
		for code := range op.route.Operation.Responses.Map() {
			var status int
			if _, err := fmt.Sscan(code, &status); err != nil {
				t.Errorf("%s documents response %q, which this test cannot provoke", key, code)
				continue
			}
			if !c.exercised[key][status] {
				t.Errorf("%s: the reference documents %d, which the test never provoked", key, status)
			}
		}
	}
	for key, exts := range refExtensions {
		for status, ext := range exts {
			if strict {
				break
			}
			if ext.elsewhere == "" && !c.exercised[key][status] {
				t.Errorf("refExtensions lists %d for %s, which the test never provoked", status, key)
			}
		}
	}
	var keys []string
	for key := range c.exercised {
		var codes []string
		for s := range c.exercised[key] {
			codes = append(codes, fmt.Sprint(s))
		}
		slices.Sort(codes)
		keys = append(keys, key+": "+strings.Join(codes, " "))
	}
	slices.Sort(keys)
	t.Logf("exercised:\n%s", strings.Join(keys, "\n"))
}

// strictAllowed are the statuses a strict server may answer on the
// operation key: those the reference documents for it, or, for an
// operation that documents no error (the updates), the errors its
// document lists on its other operations.
func (c *refContract) strictAllowed(key string) []int {
	op := c.ops[key]
	statuses := func(o *openapi3.Operation, errorsOnly bool) []int {
		var out []int
		for code := range o.Responses.Map() {
			var st int
			if _, err := fmt.Sscan(code, &st); err == nil && (!errorsOnly || st >= 400) {
				out = append(out, st)
			}
		}
		return out
	}
	own := statuses(op.route.Operation, false)
	if slices.ContainsFunc(own, func(st int) bool { return st >= 400 }) {
		slices.Sort(own)
		return own
	}
	for _, item := range op.route.Spec.Paths.Map() {
		for _, o := range item.Operations() {
			own = append(own, statuses(o, true)...)
		}
	}
	slices.Sort(own)
	return slices.Compact(own)
}
