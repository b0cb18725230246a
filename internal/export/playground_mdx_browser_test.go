package export

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// mdxReceived is what the echo endpoint saw of one JSON request.
type mdxReceived struct {
	Method, Path, Query, Trace, Auth, ContentType string
	Body                                          map[string]any
	Form                                          map[string][]string // multipart fields and files ("name:content")
}

// TestBrowser_mdxPlaygroundSends exports a site of MDX API pages for an
// air-gapped deployment with the playground, opens the page from file://
// in Chromium, fills the panel built from its ParamFields and presses
// Send. A local echo endpoint must receive the method, the path with the
// path parameter substituted (encoded), the query, the header, the bearer
// token and the JSON body as edited.
func TestBrowser_mdxPlaygroundSends(t *testing.T) {
	bin := chromium(t)
	srv, got := corsEcho(t, "PUT, POST", "authorization, x-trace, content-type", func(r *http.Request) (mdxReceived, error) {
		rec := mdxReceived{Method: r.Method, Path: r.URL.EscapedPath(), Query: r.URL.RawQuery, Trace: r.Header.Get("X-Trace"),
			Auth: r.Header.Get("Authorization"), ContentType: r.Header.Get("Content-Type")}
		var err error
		if strings.HasPrefix(rec.ContentType, "multipart/") {
			rec.ContentType = "multipart"
			rec.Form, err = multipartOf(r)
		} else {
			var data []byte
			if data, err = io.ReadAll(io.LimitReader(r.Body, 1<<20)); err == nil {
				err = json.Unmarshal(data, &rec.Body)
			}
		}
		return rec, err
	})
	src := mdxAPISource(t, srv.URL)
	dir, _ := exportTo(t, Request{Source: os.DirFS(src), Kind: KindAirGapped, Features: []string{"playground"}})
	b, ctx, must := browserSession(t, bin, 90*time.Second)
	must(b.call("Page.navigate", map[string]any{"url": (&url.URL{Scheme: "file", Path: filepath.Join(dir, "update-order.html")}).String()}, nil))
	must(b.waitFor(ctx, `document.readyState === "complete" && !!document.querySelector(".playground .send")`))
	must(openTryIt(ctx, b))

	// The panel starts from the page's declarations.
	var start struct{ Limit, Body, TraceHint, LimitHint string }
	must(b.eval(`({Limit: document.querySelector('.playground [data-name=limit]').value,
		Body: document.querySelector(".playground .pg-body").value,
		TraceHint: document.querySelector('.playground [data-name=X-Trace]').placeholder,
		LimitHint: document.querySelector('.playground [data-name=limit]').placeholder})`, &start))
	var startBody map[string]any
	if start.Limit != "10" || json.Unmarshal([]byte(start.Body), &startBody) != nil || startBody["rush"] != true {
		t.Errorf("panel starts with limit %q and body %q; want 10 and the declared body", start.Limit, start.Body)
	}
	// A ParamField's placeholder is its input's; the type otherwise.
	if start.TraceHint != "trace-123" || start.LimitHint != "integer" {
		t.Errorf("placeholders: X-Trace %q, limit %q; want trace-123 and integer", start.TraceHint, start.LimitHint)
	}
	must(b.eval(`(function () {
		document.querySelector('.playground [data-name=orderId]').value = "A 7";
		document.querySelector('.playground [data-name=limit]').value = "5";
		document.querySelector('.playground [data-name=X-Trace]').value = "t-1";
		document.querySelector('.playground .pg-auth').value = "tok";
		document.querySelector(".playground .pg-body").value = JSON.stringify({note: "leave at door", rush: false, address: {city: "Bergen", zip: 5003}, tags: ["a"]});
		document.querySelector(".playground .send").click();
	})()`, nil))
	playgroundOK(ctx, t, b)
	reqs := got()
	want := mdxReceived{Method: "PUT", Path: "/orders/A%207", Query: "limit=5", Trace: "t-1", Auth: "Bearer tok",
		ContentType: "application/json", Body: map[string]any{"note": "leave at door", "rush": false,
			"address": map[string]any{"city": "Bergen", "zip": 5003.0}, "tags": []any{"a"}}}
	if len(reqs) != 1 || !reflect.DeepEqual(reqs[0], want) {
		t.Errorf("echo endpoint saw %+v\nwant one request %+v", reqs, want)
	}

	// A body field of type file makes a multipart form.
	must(b.call("Page.navigate", map[string]any{"url": (&url.URL{Scheme: "file", Path: filepath.Join(dir, "upload.html")}).String()}, nil))
	must(b.waitFor(ctx, `location.pathname.endsWith("/upload.html") && document.readyState === "complete" && !!document.querySelector(".playground .send")`))
	must(openTryIt(ctx, b))
	must(b.eval(`(function () {
		var dt = new DataTransfer();
		dt.items.add(new File(["png bytes"], "rex.png", {type: "image/png"}));
		document.querySelector('.playground input[type=file][data-name=photo]').files = dt.files;
		document.querySelector(".playground .send").click();
	})()`, nil))
	_, failure := playgroundAnswer(ctx, t, b)
	if failure != "" {
		t.Fatalf("upload: %s", failure)
	}
	reqs = got()
	up := mdxReceived{Method: "POST", Path: "/photos", ContentType: "multipart", Form: map[string][]string{"photo": {"rex.png:png bytes"}, "caption": {"Rex"}}}
	if len(reqs) != 2 || !reflect.DeepEqual(reqs[1], up) {
		t.Errorf("upload arrived as %+v, want %+v", reqs[1:], up)
	}
}

// multipartOf reads a multipart form into field -> values, files as
// "name:content".
func multipartOf(r *http.Request) (map[string][]string, error) {
	if err := r.ParseMultipartForm(1 << 20); err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for k, v := range r.MultipartForm.Value {
		out[k] = v
	}
	for k, fhs := range r.MultipartForm.File {
		for _, fh := range fhs {
			f, err := fh.Open()
			if err != nil {
				return nil, err
			}
			data, err := io.ReadAll(f)
			f.Close()
			if err != nil {
				return nil, err
			}
			out[k] = append(out[k], fh.Filename+":"+string(data))
		}
	}
	return out, nil
}
