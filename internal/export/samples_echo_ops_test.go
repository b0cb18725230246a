package export

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
)

// echoBase is the placeholder server of the echo spec, replaced by the
// address of the test's echo server in every sample.
const echoBase = "https://echo.invalid/v2"

// echoSpec has one operation for each way a request carries data: path,
// query, header and cookie parameters with a JSON body under bearer auth,
// a multipart upload under an api key header, a urlencoded form under
// basic auth, a text body to a path without example under a query api
// key, and a YAML body given as an object.
const echoSpec = `{"openapi": "3.0.3", "info": {"title": "Echo", "version": "1"}, "servers": [{"url": "` + echoBase + `"}],
  "components": {"securitySchemes": {
    "bearer": {"type": "http", "scheme": "bearer"},
    "key": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
    "qkey": {"type": "apiKey", "in": "query", "name": "api_key"},
    "basic": {"type": "http", "scheme": "basic"}}},
  "paths": {
    "/items/{itemId}": {"put": {"summary": "Update item", "security": [{"bearer": []}],
      "parameters": [
        {"name": "itemId", "in": "path", "required": true, "schema": {"type": "string"}, "example": "red shoe"},
        {"name": "verbose", "in": "query", "schema": {"type": "boolean"}, "example": true},
        {"name": "tag", "in": "query", "required": true, "schema": {"type": "string"}, "example": "a&b=c"},
        {"name": "X-Request-Id", "in": "header", "schema": {"type": "string"}, "example": "req-7"},
        {"name": "session", "in": "cookie", "schema": {"type": "string"}, "example": "s1"}],
      "requestBody": {"content": {"application/json": {"example": {"name": "Shoe", "price": 12.5, "tags": ["red", "it's"], "stock": null, "active": false}}}},
      "responses": {"200": {"description": "ok"}}}},
    "/uploads": {"post": {"summary": "Upload file", "security": [{"key": []}],
      "requestBody": {"content": {"multipart/form-data": {"schema": {"type": "object", "properties": {
        "title": {"type": "string", "default": "report"},
        "file": {"type": "string", "format": "binary"}}}}}},
      "responses": {"200": {"description": "ok"}}}},
    "/login": {"post": {"summary": "Log in", "security": [{"basic": []}],
      "requestBody": {"content": {"application/x-www-form-urlencoded": {"schema": {"type": "object", "properties": {
        "username": {"type": "string", "example": "ada"},
        "scope": {"type": "string", "default": "read write"}}}}}},
      "responses": {"200": {"description": "ok"}}}},
    "/notes/{noteId}": {"patch": {"summary": "Edit note", "security": [{"qkey": []}],
      "parameters": [{"name": "noteId", "in": "path", "required": true, "schema": {"type": "string"}}],
      "requestBody": {"content": {"text/plain": {"example": "it's \"done\" \\ $HOME #{x}\nline 2"}}},
      "responses": {"200": {"description": "ok"}}}},
    "/config": {"put": {"summary": "Replace config",
      "requestBody": {"content": {"application/yaml": {"example": {"name": "web", "replicas": 2}}}},
      "responses": {"200": {"description": "ok"}}}}}}`

// uploadContent is what the file of the multipart sample holds.
const uploadContent = "file bytes\n"

// echoOp is what one operation of the echo spec must send.
type echoOp struct {
	page, method, path string
	query              url.Values
	header             map[string]string // "" means present with any value
	cookies            map[string]string
	body               func(e echoed) []string
}

var echoOps = []echoOp{
	{page: "update-item", method: "PUT", path: "/v2/items/red shoe",
		query:   url.Values{"verbose": {"true"}, "tag": {"a&b=c"}},
		header:  map[string]string{"Authorization": "Bearer <token>", "X-Request-Id": "req-7", "Content-Type": "application/json"},
		cookies: map[string]string{"session": "s1"},
		body: func(e echoed) []string {
			var got any
			if err := json.Unmarshal(e.body, &got); err != nil {
				return []string{"body is not JSON: " + err.Error() + ": " + string(e.body)}
			}
			want := map[string]any{"name": "Shoe", "price": 12.5, "tags": []any{"red", "it's"}, "stock": nil, "active": false}
			if !reflect.DeepEqual(got, want) {
				return []string{"body " + string(e.body) + ", want the example"}
			}
			return nil
		}},
	{page: "upload-file", method: "POST", path: "/v2/uploads",
		header: map[string]string{"X-API-Key": "<api-key>"},
		body: func(e echoed) []string {
			mt, params, err := mime.ParseMediaType(e.header.Get("Content-Type"))
			if err != nil || mt != "multipart/form-data" {
				return []string{"content type " + e.header.Get("Content-Type") + ", want multipart/form-data"}
			}
			form, err := multipart.NewReader(bytes.NewReader(e.body), params["boundary"]).ReadForm(1 << 20)
			if err != nil {
				return []string{"multipart body: " + err.Error()}
			}
			var bad []string
			if v := form.Value["title"]; len(v) != 1 || v[0] != "report" {
				bad = append(bad, "title field "+strings.Join(v, ",")+", want report")
			}
			files := form.File["file"]
			if len(files) != 1 {
				return append(bad, "no file part named file")
			}
			f, err := files[0].Open()
			if err != nil {
				return append(bad, err.Error())
			}
			defer f.Close()
			b, _ := io.ReadAll(f)
			if string(b) != uploadContent || files[0].Filename != "file.bin" {
				bad = append(bad, "file part "+files[0].Filename+" holds "+strconv.Quote(string(b)))
			}
			return bad
		}},
	{page: "log-in", method: "POST", path: "/v2/login",
		header: map[string]string{"Authorization": "Basic <credentials>"},
		body: func(e echoed) []string {
			if mt, _, _ := mime.ParseMediaType(e.header.Get("Content-Type")); mt != "application/x-www-form-urlencoded" {
				return []string{"content type " + e.header.Get("Content-Type") + ", want urlencoded"}
			}
			got, err := url.ParseQuery(string(e.body))
			want := url.Values{"username": {"ada"}, "scope": {"read write"}}
			if err != nil || !reflect.DeepEqual(got, want) {
				return []string{"form " + string(e.body) + ", want " + want.Encode()}
			}
			return nil
		}},
	{page: "edit-note", method: "PATCH", path: "/v2/notes/<noteId>",
		query:  url.Values{"api_key": {"<api-key>"}},
		header: map[string]string{"Content-Type": "text/plain"},
		body: func(e echoed) []string {
			if want := "it's \"done\" \\ $HOME #{x}\nline 2"; string(e.body) != want {
				return []string{"body " + strconv.Quote(string(e.body)) + ", want " + strconv.Quote(want)}
			}
			return nil
		}},
	// A YAML body given as an object is sent as its JSON text, which is
	// YAML too.
	{page: "replace-config", method: "PUT", path: "/v2/config",
		header: map[string]string{"Content-Type": "application/yaml"},
		body: func(e echoed) []string {
			var got any
			if err := json.Unmarshal(e.body, &got); err != nil || !reflect.DeepEqual(got, map[string]any{"name": "web", "replicas": 2.0}) {
				return []string{"body " + strconv.Quote(string(e.body)) + ", want the example as JSON text"}
			}
			return nil
		}},
}

func (op echoOp) check(e echoed, noCookies bool) []string {
	var bad []string
	if e.method != op.method {
		bad = append(bad, "method "+e.method+", want "+op.method)
	}
	if e.path != op.path {
		bad = append(bad, "path "+strconv.Quote(e.path)+", want "+strconv.Quote(op.path))
	}
	if q := op.query; q == nil && len(e.query) > 0 || q != nil && !reflect.DeepEqual(e.query, q) {
		bad = append(bad, "query "+e.query.Encode()+", want "+op.query.Encode())
	}
	for k, v := range op.header {
		if got := e.header.Get(k); got != v {
			bad = append(bad, "header "+k+": "+strconv.Quote(got)+", want "+strconv.Quote(v))
		}
	}
	if !noCookies {
		for k, v := range op.cookies {
			req := &http.Request{Header: e.header}
			if c, err := req.Cookie(k); err != nil || c.Value != v {
				bad = append(bad, "cookie "+k+" missing or wrong, want "+v)
			}
		}
	}
	return append(bad, op.body(e)...)
}
