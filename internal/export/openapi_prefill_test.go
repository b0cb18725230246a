package export

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

// prefillSpec gives x-default on a parameter, on a parameter's schema, on
// properties of a JSON body (one nested) that also has a media example,
// and on a form field; each beside a default or example of its own.
const prefillSpec = `{"openapi": "3.0.3", "info": {"title": "P", "version": "1"},
	"servers": [{"url": "https://api.p.test"}],
	"paths": {
	  "/pets": {"post": {"summary": "Add a pet",
	    "parameters": [
	      {"name": "limit", "in": "query", "x-default": 25, "schema": {"type": "integer", "default": 10}},
	      {"name": "X-Region", "in": "header", "example": "eu", "schema": {"type": "string", "x-default": "us"}}],
	    "requestBody": {"content": {
	      "application/json": {"example": {"name": "Rex", "tag": "dog", "owner": {"city": "Oslo"}},
	        "schema": {"type": "object", "properties": {"name": {"type": "string"}, "tag": {"type": "string", "x-default": "cat"},
	          "owner": {"type": "object", "properties": {"city": {"type": "string", "x-default": "Bergen"}}}}}},
	      "application/x-www-form-urlencoded": {"schema": {"type": "object", "properties": {
	        "tag": {"type": "string", "default": "dog", "x-default": "cat"}}}}}},
	    "responses": {"200": {"description": "ok"}}}}}}`

// TestOpenAPI_xDefaultPrefill checks that with api.examples.prefill the
// playground starts from x-default on parameters and properties, and that
// the reference and the code samples keep the schema's own values; and
// that without the setting (the platform's default) the playground starts
// from defaults only, with no example values.
func TestOpenAPI_xDefaultPrefill(t *testing.T) {
	for _, prefill := range []bool{true, false} {
		docs := `{"name": "P", "navigation": {"tabs": [{"tab": "API", "openapi": "p.json"}]}, "api": {"examples": {"prefill": ` +
			map[bool]string{true: "true", false: "false"}[prefill] + `}}}`
		var warns []string
		dir, _ := exportTo(t, Request{Source: fstest.MapFS{"docs.json": {Data: []byte(docs)}, "p.json": {Data: []byte(prefillSpec)}},
			Kind: KindCloud, Warn: func(wrn Warning) { s := wrn.Message; warns = append(warns, s) }})
		page := readOut(t, dir, "api-reference/add-a-pet.html")
		cfg := playgroundOf(t, page)
		// Without prefill the example "eu" is left out; defaults stay.
		want := map[bool][]string{true: {"25", "us", "cat"}, false: {"10", "", "dog"}}[prefill]
		got := []string{cfg.Params[0].Default, cfg.Params[1].Default}
		if len(cfg.Bodies) == 2 && len(cfg.Bodies[1].Fields) == 1 {
			got = append(got, cfg.Bodies[1].Fields[0].Default)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("prefill %v: limit, X-Region and form tag start as %q, want %q", prefill, got, want)
		}
		var body map[string]any
		if err := json.Unmarshal([]byte(cfg.Bodies[0].Example), &body); err != nil {
			t.Fatal(err)
		}
		// Without prefill the body holds only the required properties
		// and those with a default: none here.
		wantBody := map[string]any{}
		if prefill {
			wantBody = map[string]any{"name": "Rex", "tag": "cat", "owner": map[string]any{"city": "Bergen"}}
		}
		if !reflect.DeepEqual(body, wantBody) {
			t.Errorf("prefill %v: JSON body starts as %v, want %v", prefill, body, wantBody)
		}
		// The samples and the reference show the spec's own values.
		i := strings.Index(page, `<dialog class="playground"`)
		k := strings.Index(page[max(i, 0):], `</dialog>`)
		if i < 0 || k < 0 {
			t.Fatal("no playground panel")
		}
		text := pageText(page[:i] + page[i+k:])
		if !strings.Contains(text, `"tag": "dog"`) || strings.Contains(text, `"tag": "cat"`) || strings.Contains(text, "Bergen") {
			t.Errorf("prefill %v: the samples changed with x-default", prefill)
		}
		for _, w := range warns {
			if strings.Contains(w, "prefill") {
				t.Errorf("prefill is honoured but warned about: %q", w)
			}
		}
	}
}
