package export

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// base64Spec takes two files as base64 text in a multipart form: one by
// the older format base64, one by a binary contentMediaType with
// contentEncoding base64url; and a plain binary file beside them.
func base64Spec(base string) string {
	return `{"openapi": "3.1.0", "info": {"title": "B", "version": "1"}, "servers": [{"url": "` + base + `"}],
	"paths": {"/imports": {"post": {"summary": "Import", "requestBody": {"required": true, "content": {"multipart/form-data": {
	  "schema": {"type": "object", "required": ["doc"], "properties": {
	    "doc": {"type": "string", "format": "base64"},
	    "thumb": {"type": "string", "contentMediaType": "image/png", "contentEncoding": "base64url"},
	    "raw": {"type": "string", "contentMediaType": "application/octet-stream"}}}}}},
	  "responses": {"200": {"description": "Echo."}}}}}}`
}

// TestBrowser_playgroundSendsBase64Files picks files for base64 fields in
// Chromium and checks that the echo endpoint receives them as encoded
// text fields (base64 with padding, base64url without), while a binary
// field still arrives as a file part.
func TestBrowser_playgroundSendsBase64Files(t *testing.T) {
	bin := chromium(t)
	srv, got := echoServer(t)
	src := writeSource(t, map[string]string{
		"docs.json": `{"name": "B", "navigation": {"tabs": [{"tab": "API", "openapi": "b.json"}]}}`,
		"b.json":    base64Spec(srv.URL),
	})
	dir, _ := exportTo(t, Request{Source: os.DirFS(src), Kind: KindAirGapped, Features: []string{"playground"}})
	page := readOut(t, dir, "api-reference/import.html")
	cfg := playgroundOf(t, page)
	if f := cfg.Bodies[0].Fields; len(f) != 3 || f[0].Base64 != "base64" || !f[0].Binary || f[1].Base64 != "base64url" || f[2].Base64 != "" || !f[2].Binary {
		t.Fatalf("fields %+v: want doc base64, thumb base64url, raw a plain file", f)
	}
	if !strings.Contains(pageText(page), "doc=<base64 of doc.bin>") {
		t.Errorf("the cURL sample does not send doc as base64 text")
	}
	b, ctx, must := browserSession(t, bin, 90*time.Second)
	must(b.call("Page.navigate", map[string]any{"url": (&url.URL{Scheme: "file", Path: filepath.Join(dir, "api-reference/import.html")}).String()}, nil))
	must(b.waitFor(ctx, `document.readyState === "complete" && !!document.querySelector(".playground .send")`))
	must(openTryIt(ctx, b))
	// Bytes whose base64 and base64url spellings differ (+ and / against
	// - and _), with padding.
	must(b.eval(`(function () {
		function pick(name, file) {
			var dt = new DataTransfer();
			dt.items.add(file);
			document.querySelector('.playground input[type=file][data-name=' + name + ']').files = dt.files;
		}
		var bytes = new Uint8Array([0xfb, 0xff, 0xfe, 0x41]);
		pick("doc", new File([bytes], "a.pdf", {type: "application/pdf"}));
		pick("thumb", new File([bytes], "t.png", {type: "image/png"}));
		pick("raw", new File(["plain bytes"], "r.bin"));
		document.querySelector(".playground .send").click();
	})()`, nil))
	playgroundOK(ctx, t, b)
	reqs := got()
	if len(reqs) != 1 {
		t.Fatalf("echo endpoint saw %d requests, want 1", len(reqs))
	}
	r := reqs[0]
	if strings.Join(r.Fields["doc"], ",") != "+//+QQ==" || strings.Join(r.Fields["thumb"], ",") != "-__-QQ" ||
		strings.Join(r.Files["raw"], ",") != "r.bin:plain bytes" || len(r.Files["doc"])+len(r.Files["thumb"]) != 0 {
		t.Errorf("request arrived as %+v; want doc +//+QQ==, thumb -__-QQ as text and raw as a file", r)
	}
}
