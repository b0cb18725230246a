package export

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"
)

// echoBase is the placeholder server of the echo spec, replaced by the
// address of the test's echo server in every sample.
const echoBase = "https://echo.invalid/v2"

// echoSpec has one operation for each way a request carries data: path,
// query and header parameters with a JSON body under bearer auth, a
// multipart upload under an api key header, a urlencoded form under
// basic auth.
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

// echoed is one request the echo server received.
type echoed struct {
	method, path string
	query        url.Values
	header       http.Header
	body         []byte
}

// echoRecorder is a 127.0.0.1 server that records every request and
// answers it with a small JSON object.
type echoRecorder struct {
	srv *httptest.Server
	mu  sync.Mutex
	got []echoed
}

func newEchoRecorder(t *testing.T) *echoRecorder {
	e := &echoRecorder{}
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		e.mu.Lock()
		e.got = append(e.got, echoed{r.Method, r.URL.Path, r.URL.Query(), r.Header.Clone(), body})
		e.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"ok": true}`)
	}))
	t.Cleanup(e.srv.Close)
	return e
}

// take returns the requests received since the last call.
func (e *echoRecorder) take() []echoed {
	e.mu.Lock()
	defer e.mu.Unlock()
	got := e.got
	e.got = nil
	return got
}

// sampleCode returns the plain code of the sample titled title on an
// exported endpoint page.
func sampleCode(t *testing.T, page, title string) string {
	t.Helper()
	_, rest, ok := strings.Cut(page, `<div class="code-block" data-title="`+title+`">`)
	if !ok {
		t.Fatalf("page has no %s sample", title)
	}
	i := strings.Index(rest, "<pre")
	end := strings.Index(rest, "</pre>")
	if i < 0 || end < i {
		t.Fatalf("%s sample has no code", title)
	}
	return strings.TrimSpace(pageText(rest[i:end]))
}

// sampleRunner runs the code of one language in dir, or says why it cannot.
type sampleRunner struct {
	title string
	// missing names what this machine lacks to run the samples, or "".
	missing func() string
	run     func(ctx context.Context, dir, code string) *exec.Cmd
	// noCookies: the language leaves cookies to its host (a browser).
	noCookies bool
}

func haveTool(name string) func() string {
	return func() string {
		if _, err := exec.LookPath(name); err != nil {
			return name + " is not on PATH"
		}
		return ""
	}
}

// writeRun writes code to dir/name and runs it with the command args.
func writeRun(ctx context.Context, dir, name, code string, args ...string) *exec.Cmd {
	if err := os.WriteFile(filepath.Join(dir, name), []byte(code), 0o644); err != nil {
		panic(err)
	}
	cmd := exec.CommandContext(ctx, args[0], append(args[1:], name)...)
	return cmd
}

// nodePrelude stands in for the page's file input: fetch samples run in a
// browser, where the reader picks the file.
const nodePrelude = `const { File } = require("node:buffer");
const fileInput = { files: [new File([` + "`" + uploadContent + "`" + `], "file.bin")] };
`

// nodeMissing says why node cannot run fetch samples, or "".
func nodeMissing() string {
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		return "node is not on PATH"
	}
	major, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(string(out)), "v"), ".")
	if n, _ := strconv.Atoi(major); n < 18 {
		return "node " + strings.TrimSpace(string(out)) + " has no fetch (18 or later needed)"
	}
	return ""
}

var sampleRunners = []sampleRunner{
	{title: "cURL", missing: haveTool("curl"), run: func(ctx context.Context, dir, code string) *exec.Cmd {
		return writeRun(ctx, dir, "sample.sh", code, "sh")
	}},
	{title: "Python", missing: func() string {
		if _, err := exec.LookPath("python3"); err != nil {
			return "python3 is not on PATH"
		}
		if err := exec.Command("python3", "-c", "import requests").Run(); err != nil {
			return "python3 cannot import requests"
		}
		return ""
	}, run: func(ctx context.Context, dir, code string) *exec.Cmd {
		return writeRun(ctx, dir, "sample.py", code, "python3")
	}},
	{title: "JavaScript", noCookies: true, missing: nodeMissing, run: func(ctx context.Context, dir, code string) *exec.Cmd {
		return writeRun(ctx, dir, "sample.js", nodePrelude+code, "node")
	}},
	{title: "Node.js", missing: nodeMissing, run: func(ctx context.Context, dir, code string) *exec.Cmd {
		return writeRun(ctx, dir, "sample.js", code, "node")
	}},
	{title: "Go", missing: haveTool("go"), run: func(ctx context.Context, dir, code string) *exec.Cmd {
		return writeRun(ctx, dir, "main.go", code, "go", "run")
	}},
	{title: "Ruby", missing: haveTool("ruby"), run: func(ctx context.Context, dir, code string) *exec.Cmd {
		return writeRun(ctx, dir, "sample.rb", code, "ruby")
	}},
	{title: "PHP", missing: func() string {
		if _, err := exec.LookPath("php"); err != nil {
			return "php is not on PATH"
		}
		if err := exec.Command("php", "-r", "exit(function_exists('curl_init') ? 0 : 1);").Run(); err != nil {
			return "php has no curl extension"
		}
		return ""
	}, run: func(ctx context.Context, dir, code string) *exec.Cmd {
		return writeRun(ctx, dir, "sample.php", code, "php")
	}},
	{title: "Java", missing: func() string {
		// java runs a single source file from Java 11, the first with
		// java.net.http.
		out, err := exec.Command("java", "-version").CombinedOutput()
		if err != nil {
			return "java is not on PATH"
		}
		_, v, _ := strings.Cut(string(out), `version "`)
		major, _, _ := strings.Cut(v, ".")
		if n, _ := strconv.Atoi(major); n < 11 {
			return "java " + major + " has no java.net.http (11 or later needed)"
		}
		return ""
	}, run: func(ctx context.Context, dir, code string) *exec.Cmd {
		return writeRun(ctx, dir, "Main.java", code, "java")
	}},
	{title: "C#", missing: haveTool("dotnet"), run: func(ctx context.Context, dir, code string) *exec.Cmd {
		proj := `<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><OutputType>Exe</OutputType><TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>`
		if err := os.WriteFile(filepath.Join(dir, "sample.csproj"), []byte(proj), 0o644); err != nil {
			panic(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "Program.cs"), []byte(code), 0o644); err != nil {
			panic(err)
		}
		return exec.CommandContext(ctx, "dotnet", "run", "--project", "sample.csproj")
	}},
}

// TestSamples_echo runs the generated samples of the echo spec with the
// real tools against a 127.0.0.1 echo server and checks that each sends
// the request its operation describes.
func TestSamples_echo(t *testing.T) {
	if testing.Short() {
		t.Skip("runs external interpreters")
	}
	langs := make([]string, len(sampleRunners))
	for i, r := range sampleRunners {
		langs[i] = `"` + strings.ToLower(r.title) + `"`
	}
	src := fstest.MapFS{"echo.json": {Data: []byte(echoSpec)}, "docs.json": {Data: []byte(`{"api": {"examples": {"languages": [` +
		strings.Join(langs, ", ") + `]}}, "navigation": {"groups": [{"group": "API", "openapi": "echo.json"}]}}`)}}
	out, _ := exportTo(t, Request{Source: src})
	echo := newEchoRecorder(t)
	for _, r := range sampleRunners {
		t.Run(r.title, func(t *testing.T) {
			if why := r.missing(); why != "" {
				t.Skipf("%s samples not run: %s", r.title, why)
			}
			for _, op := range echoOps {
				code := sampleCode(t, readOut(t, out, "api-reference/"+op.page+".html"), r.title)
				code = strings.ReplaceAll(code, echoBase, echo.srv.URL+"/v2")
				dir := t.TempDir()
				if err := os.WriteFile(filepath.Join(dir, "file.bin"), []byte(uploadContent), 0o644); err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				cmd := r.run(ctx, dir, code)
				cmd.Dir = dir
				outErr, err := cmd.CombinedOutput()
				cancel()
				if err != nil {
					t.Errorf("%s: %v\n%s\ncode:\n%s", op.page, err, outErr, code)
					continue
				}
				got := echo.take()
				if len(got) != 1 {
					t.Errorf("%s: echo received %d requests, want 1\noutput: %s\ncode:\n%s", op.page, len(got), outErr, code)
					continue
				}
				for _, problem := range op.check(got[0], r.noCookies) {
					t.Errorf("%s: %s\ncode:\n%s", op.page, problem, code)
				}
			}
		})
	}
}

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
