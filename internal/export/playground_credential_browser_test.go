package export

import (
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// credentialSpec is an API whose operations declare, as header
// parameters, the headers their security schemes already send: an API
// key's header (in another case) and Authorization for a bearer token.
func credentialSpec(base string) string {
	return `openapi: 3.0.3
info: {title: Keys, version: "1"}
servers: [{url: "` + base + `"}]
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: X-API-Key}
    token: {type: http, scheme: bearer}
paths:
  /keyed:
    get:
      summary: Keyed
      security: [{key: []}]
      parameters:
        - {name: x-api-key, in: header, required: true, schema: {type: string}}
        - {name: X-Trace, in: header, schema: {type: string}}
      responses: {"200": {description: Echo.}}
  /token:
    get:
      summary: Token
      security: [{token: []}]
      parameters:
        - {name: Authorization, in: header, schema: {type: string}}
      responses: {"200": {description: Echo.}}
`
}

// credentialEcho is what the echo endpoint saw of the credential headers.
type credentialEcho struct {
	Path  string
	Key   []string // every X-API-Key (or X-Acme-Key) value
	Auth  []string // every Authorization value
	Trace string
}

// TestBrowser_playgroundOneInputPerCredential opens, from file:// in
// Chromium, pages whose spec (or MDX page) declares the header of their
// security scheme again as a header parameter, and checks that the
// playground asks for the value once: one input, marked required when
// the parameter is, refused empty, and sent as one header.
func TestBrowser_playgroundOneInputPerCredential(t *testing.T) {
	bin := chromium(t)
	srv, got := corsEcho(t, "GET", "x-api-key, x-acme-key, authorization, x-trace", func(r *http.Request) (credentialEcho, error) {
		key := r.Header.Values("X-Api-Key")
		if k := r.Header.Values("X-Acme-Key"); len(k) > 0 {
			key = k
		}
		return credentialEcho{Path: r.URL.Path, Key: key, Auth: r.Header.Values("Authorization"), Trace: r.Header.Get("X-Trace")}, nil
	})
	src := writeSource(t, map[string]string{
		"docs.json": `{"name": "Keys", "api": {"mdx": {"server": "` + srv.URL + `", "auth": {"method": "key", "name": "X-Acme-Key"}}},
			"navigation": {"tabs": [{"tab": "Docs", "pages": ["orders"]}, {"tab": "API", "openapi": "keys.yaml"}]}}`,
		"keys.yaml":  credentialSpec(srv.URL),
		"orders.mdx": "---\ntitle: Orders\napi: GET /orders\n---\n<ParamField header=\"x-acme-key\" type=\"string\" required>The key.</ParamField>\n",
	})
	dir, _ := exportTo(t, Request{Source: os.DirFS(src), Kind: KindAirGapped, Features: []string{"playground"}})
	b, ctx, must := browserSession(t, bin, 90*time.Second)
	open := func(page string) {
		t.Helper()
		must(b.openFile(ctx, dir, page))
		must(openTryIt(ctx, b))
	}
	// inputs lists the panel's inputs for a header, whatever its case.
	inputs := func(header string) (out []struct{ Class, Label string }) {
		t.Helper()
		must(b.eval(`Array.from(document.querySelectorAll(".playground label")).filter(function (l) {
			return l.textContent.toLowerCase().indexOf(`+"`"+strings.ToLower(header)+"`"+`) >= 0;
		}).map(function (l) { return {Class: l.querySelector("input, select").className, Label: l.textContent}; })`, &out))
		return out
	}
	send := func() (failure string) {
		t.Helper()
		must(b.eval(`document.querySelector(".playground .send").click()`, nil))
		status, failure := playgroundAnswer(ctx, t, b)
		if failure == "" && status != "200" {
			t.Fatalf("status %q", status)
		}
		return failure
	}

	open("api-reference/keyed.html")
	in := inputs("x-api-key")
	if len(in) != 1 || in[0].Class != "pg-auth" || !strings.Contains(in[0].Label, "*") {
		t.Fatalf("inputs for X-API-Key: %+v; want one, the credential's, marked required", in)
	}
	var note string
	must(b.eval(`document.querySelector(".playground .pg-shared").textContent`, &note))
	if !strings.Contains(note, "x-api-key") {
		t.Errorf("the key's input does not say it is also the header parameter: %q", note)
	}
	if failure := send(); !strings.Contains(failure, "x-api-key") {
		t.Errorf("sent without the required key: page says %q, want it to name x-api-key", failure)
	}
	must(b.eval(`document.querySelector(".playground .pg-auth").value = "k-1";
		document.querySelector('.playground [data-name="X-Trace"]').value = "t-1"`, nil))
	if failure := send(); failure != "" {
		t.Fatal(failure)
	}

	open("api-reference/token.html")
	if in := inputs("authorization"); len(in) != 1 || in[0].Class != "pg-auth" {
		t.Fatalf("inputs for Authorization: %+v; want one, the token's", in)
	}
	must(b.eval(`document.querySelector(".playground .pg-auth").value = "tok"`, nil))
	if failure := send(); failure != "" {
		t.Fatal(failure)
	}
	// A value that already names its scheme is not prefixed again.
	must(b.eval(`document.querySelector(".playground .pg-auth").value = "Bearer tok2"`, nil))
	if failure := send(); failure != "" {
		t.Fatal(failure)
	}

	open("orders.html")
	if in := inputs("x-acme-key"); len(in) != 1 || in[0].Class != "pg-auth" {
		t.Fatalf("MDX page: inputs for X-Acme-Key: %+v; want one, the key's", in)
	}
	must(b.eval(`document.querySelector(".playground .pg-auth").value = "acme"`, nil))
	if failure := send(); failure != "" {
		t.Fatal(failure)
	}

	want := []credentialEcho{
		{Path: "/keyed", Key: []string{"k-1"}, Trace: "t-1"},
		{Path: "/token", Auth: []string{"Bearer tok"}},
		{Path: "/token", Auth: []string{"Bearer tok2"}},
		{Path: "/orders", Key: []string{"acme"}},
	}
	reqs := got()
	if len(reqs) != len(want) {
		t.Fatalf("echo endpoint saw %+v, want %+v", reqs, want)
	}
	for i := range want {
		if strings.Join(reqs[i].Key, "|") != strings.Join(want[i].Key, "|") || strings.Join(reqs[i].Auth, "|") != strings.Join(want[i].Auth, "|") ||
			reqs[i].Path != want[i].Path || reqs[i].Trace != want[i].Trace {
			t.Errorf("request %d arrived as %+v, want %+v", i, reqs[i], want[i])
		}
	}
}

// TestSamples_credentialHeaderOnce: the request samples send a header
// that is both a credential and a header parameter once, as the
// credential.
func TestSamples_credentialHeaderOnce(t *testing.T) {
	src := writeSource(t, map[string]string{
		"docs.json": `{"name": "Keys", "navigation": {"tabs": [{"tab": "API", "openapi": "keys.yaml"}]}}`,
		"keys.yaml": credentialSpec("https://api.keys.test"),
	})
	dir, _ := exportTo(t, Request{Source: os.DirFS(src), Kind: KindCloud})
	for page, header := range map[string]string{"api-reference/keyed.html": "x-api-key:", "api-reference/token.html": "authorization:"} {
		html := readOut(t, dir, page)
		_, curl, _ := strings.Cut(html, `data-title="cURL"`)
		curl, _, _ = strings.Cut(curl, `data-title="Python"`)
		curl = strings.ToLower(pageText(curl))
		if n := strings.Count(curl, header); n != 1 {
			t.Errorf("%s: the cURL sample sends %s %d times:\n%s", page, header, n, curl)
		}
	}
}
