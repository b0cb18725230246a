package export

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// received is what the echo endpoint saw of one request.
type received struct {
	Method      string              `json:"method"`
	Path        string              `json:"path"`
	ContentType string              `json:"contentType"`
	Fields      map[string][]string `json:"fields"`
	Files       map[string][]string `json:"files"` // field -> "name:content"
	Cookie      string              `json:"cookie"`
}

// echoServer is a corsEcho that reports what each form request carried.
func echoServer(t *testing.T) (*httptest.Server, func() []received) {
	return corsEcho(t, "POST", "authorization, x-api-key", func(r *http.Request) (received, error) {
		rec := received{Method: r.Method, Path: r.URL.Path, ContentType: r.Header.Get("Content-Type"),
			Files: map[string][]string{}, Cookie: r.Header.Get("Cookie")}
		var err error
		if strings.HasPrefix(rec.ContentType, "multipart/") {
			err = r.ParseMultipartForm(1 << 20)
		} else {
			err = r.ParseForm()
		}
		if err != nil {
			return rec, err
		}
		rec.Fields = r.PostForm
		if r.MultipartForm != nil {
			for name, fhs := range r.MultipartForm.File {
				for _, fh := range fhs {
					f, err := fh.Open()
					if err != nil {
						return rec, err
					}
					b, _ := io.ReadAll(f)
					f.Close()
					rec.Files[name] = append(rec.Files[name], fh.Filename+":"+string(b))
				}
			}
		}
		return rec, nil
	})
}

// formsSpec is an API with a multipart upload (a file, a text field, an
// enum and a cookie parameter) and a urlencoded form, served by base.
func formsSpec(base string) string {
	return `openapi: 3.0.3
info: {title: Forms, version: "1"}
servers: [{url: "` + base + `"}]
paths:
  /upload:
    post:
      summary: Upload a photo
      parameters:
        - {name: session, in: cookie, schema: {type: string}}
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema:
              type: object
              required: [photo]
              properties:
                photo: {type: string, format: binary}
                caption: {type: string}
                size: {type: string, enum: [small, large], default: large}
      responses: {"200": {description: Echo.}}
  /notes:
    post:
      summary: Add a note
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              properties:
                text: {type: string}
                count: {type: integer, example: 3}
      responses: {"200": {description: Echo.}}
`
}

// TestBrowser_playgroundSendsForms exports an API with form bodies for an
// air-gapped deployment with the playground, opens its pages from file://
// in Chromium, picks a file and fills the fields, presses Send, and checks
// what reached a local echo endpoint: a multipart request with the file's
// name and bytes and the text fields, then a urlencoded one. The cookie
// parameter is shown disabled with its note, and nothing is sent for it.
func TestBrowser_playgroundSendsForms(t *testing.T) {
	bin := chromium(t)
	srv, got := echoServer(t)
	src := writeSource(t, map[string]string{
		// The count field starts from its example only with prefill.
		"docs.json":  `{"name": "Forms", "api": {"examples": {"prefill": true}}, "navigation": {"tabs": [{"tab": "API", "openapi": "forms.yaml"}]}}`,
		"forms.yaml": formsSpec(srv.URL),
	})
	dir, _ := exportTo(t, Request{Source: os.DirFS(src), Kind: KindAirGapped, Features: []string{"playground"}})
	b, ctx, must := browserSession(t, bin, 90*time.Second)
	open := func(page string) {
		t.Helper()
		must(b.call("Page.navigate", map[string]any{"url": (&url.URL{Scheme: "file", Path: filepath.Join(dir, page)}).String()}, nil))
		must(b.waitFor(ctx, `location.pathname.endsWith(`+strconv.Quote("/"+page)+`) && document.readyState === "complete" && !!document.querySelector(".playground .send")`))
		must(openTryIt(ctx, b))
	}
	sendAndWait := func() {
		t.Helper()
		must(b.eval(`document.querySelector(".playground .send").click()`, nil))
		playgroundOK(ctx, t, b)
	}

	open("api-reference/upload-a-photo.html")
	var cookie struct {
		Disabled bool
		Note     string
	}
	must(b.eval(`({Disabled: document.querySelector(".playground .pg-cookie").disabled,
		Note: document.querySelector(".playground .pg-note").textContent})`, &cookie))
	if !cookie.Disabled || !strings.Contains(cookie.Note, "--cookie") {
		t.Errorf("cookie input: disabled %v, note %q; want disabled with a note pointing to --cookie", cookie.Disabled, cookie.Note)
	}
	// Send without the required file is refused in the page.
	must(b.eval(`document.querySelector(".playground .send").click()`, nil))
	must(b.waitFor(ctx, `!!document.querySelector(".playground .pg-error")`))
	var refusal string
	must(b.eval(`document.querySelector(".playground .pg-error").textContent`, &refusal))
	if !strings.Contains(refusal, "photo") {
		t.Errorf("missing file: page says %q, want it to name photo", refusal)
	}
	// A script cannot choose a file from disk; it hands the input a File
	// the way a drop or a picker does.
	must(b.eval(`(function () {
		var dt = new DataTransfer();
		dt.items.add(new File(["hello from chromium"], "rex.png", {type: "image/png"}));
		document.querySelector('.playground input[type=file][data-name=photo]').files = dt.files;
		document.querySelector('.playground [data-name=caption]').value = "Rex at the beach";
	})()`, nil))
	sendAndWait()

	open("api-reference/add-a-note.html")
	must(b.eval(`document.querySelector('.playground [data-name=text]').value = "feed at 6 & 18"`, nil))
	sendAndWait()

	reqs := got()
	if len(reqs) != 2 {
		t.Fatalf("echo endpoint saw %d requests, want 2: %+v", len(reqs), reqs)
	}
	up, note := reqs[0], reqs[1]
	if up.Path != "/upload" || !strings.HasPrefix(up.ContentType, "multipart/form-data; boundary=") ||
		strings.Join(up.Files["photo"], ",") != "rex.png:hello from chromium" ||
		strings.Join(up.Fields["caption"], ",") != "Rex at the beach" || strings.Join(up.Fields["size"], ",") != "large" || up.Cookie != "" {
		t.Errorf("multipart request arrived as %+v", up)
	}
	if note.Path != "/notes" || !strings.HasPrefix(note.ContentType, "application/x-www-form-urlencoded") ||
		strings.Join(note.Fields["text"], ",") != "feed at 6 & 18" || strings.Join(note.Fields["count"], ",") != "3" {
		t.Errorf("urlencoded request arrived as %+v", note)
	}
	// The page shows what the endpoint echoed.
	var shown string
	must(b.eval(`document.querySelector(".playground .pg-body-out").textContent`, &shown))
	if !strings.Contains(shown, `"feed at 6 & 18"`) {
		t.Errorf("playground shows %q, want the echoed form", shown)
	}
}
