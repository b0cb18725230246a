package export

import (
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// onePixelPNG is a 1×1 PNG image.
const onePixelPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="

// TestBrowser_playgroundShowsImageAnswer sends from the playground of an
// air-gapped bundle opened from file:// to a local endpoint that answers
// with a PNG, and checks the panel shows the image itself, as the
// platform renders image answers, without a CSP violation.
func TestBrowser_playgroundShowsImageAnswer(t *testing.T) {
	bin := chromium(t)
	png, err := base64.StdEncoding.DecodeString(onePixelPNG)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "null")
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(png)
	}))
	t.Cleanup(srv.Close)
	src := writeSource(t, map[string]string{
		"docs.json": `{"name": "Pics", "navigation": {"tabs": [{"tab": "API", "openapi": "pics.yaml"}]}}`,
		"pics.yaml": `openapi: 3.0.3
info: {title: Pics, version: "1"}
servers: [{url: "` + srv.URL + `"}]
paths:
  /avatar:
    get:
      summary: Get the avatar
      responses:
        "200":
          description: The image.
          content: {image/png: {schema: {type: string, format: binary}}}
`,
	})
	dir, _ := exportTo(t, Request{Source: os.DirFS(src), Kind: KindAirGapped, Features: []string{"playground"}})
	b, ctx, must := browserSession(t, bin, 60*time.Second)
	tr, err := watch(b)
	must(err)
	page := (&url.URL{Scheme: "file", Path: filepath.Join(dir, "api-reference/get-the-avatar.html")}).String()
	must(b.call("Page.navigate", map[string]any{"url": page}, nil))
	must(b.waitFor(ctx, `document.readyState === "complete" && !!document.querySelector(".playground .send")`))
	must(openTryIt(ctx, b))
	must(b.eval(`document.querySelector(".playground .send").click()`, nil))
	must(b.waitFor(ctx, `!!document.querySelector(".playground .pg-error") || (function () {
		var img = document.querySelector(".playground img.pg-media-out");
		return !!img && img.complete && img.naturalWidth === 1;
	})()`))
	var failure string
	must(b.eval(`(document.querySelector(".playground .pg-error") || {}).textContent || ""`, &failure))
	if failure != "" {
		t.Fatalf("playground: %s", failure)
	}
	must(b.call("Runtime.evaluate", map[string]any{"expression": "0"}, nil)) // flush events
	if len(tr.violations) > 0 {
		t.Errorf("CSP violations: %q", tr.violations)
	}
}
