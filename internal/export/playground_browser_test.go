package export_test

import (
	"context"
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

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export"
)

// TestBrowser_playgroundStartsExport exports a docs source whose API tab is
// generated from the reference server's own /openapi.json, opens the page
// of "Start a static export job" from file:// in Chromium, fills in a key
// and a domain, presses Send against the running server (which allows the
// origin "null") and sees the 202 with a jobId.
func TestBrowser_playgroundStartsExport(t *testing.T) {
	b := export.StartTestBrowser(t)
	env := apiservertest.Start(t, apiservertest.WithCORSOrigins("null"))

	resp, err := http.Get(env.URL + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET /openapi.json: %d %v", resp.StatusCode, err)
	}
	// The document's server "/" means the host that serves it; a bundle
	// opened from a file needs that host spelled out.
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	doc["servers"] = []map[string]string{{"url": env.URL}}
	spec, _ := json.Marshal(doc)
	src := t.TempDir()
	for name, data := range map[string][]byte{
		"docs.json":    []byte(`{"name": "Admin API", "navigation": {"tabs": [{"tab": "API", "openapi": "openapi.json"}]}}`),
		"openapi.json": spec,
	} {
		if err := os.WriteFile(filepath.Join(src, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	_, err = export.New(export.Options{}).Export(context.Background(), export.Request{Source: os.DirFS(src),
		Domain: "docs.acme.test", Kind: export.KindAirGapped, Features: []string{"playground"}}, out, nil)
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	page := (&url.URL{Scheme: "file", Path: filepath.Join(out, "api-reference/static-export/start-a-static-export-job.html")}).String()
	must(b.Navigate(page))
	must(b.WaitFor(ctx, `document.readyState === "complete" && document.querySelector(".playground .send")`))
	must(b.OpenTryIt(ctx))
	// docs.json leaves api.examples.prefill at its default, false: the
	// editor starts with the required domain, empty, not its example.
	var prefilled string
	must(b.Eval(`document.querySelector(".playground .pg-body").value`, &prefilled))
	var start map[string]any
	if err := json.Unmarshal([]byte(prefilled), &start); err != nil || !reflect.DeepEqual(start, map[string]any{"domain": ""}) {
		t.Errorf("body editor starts as %q, want the required domain without its example value", prefilled)
	}
	key, _ := json.Marshal(env.Key)
	must(b.Eval(`(function () {
		document.querySelector(".playground .pg-auth").value = `+string(key)+`;
		document.querySelector(".playground .pg-body").value = JSON.stringify({domain: "docs.acme.test"});
		document.querySelector(".playground .send").click();
	})()`, nil))
	must(b.WaitFor(ctx, `document.querySelector(".playground .pg-status") || document.querySelector(".playground .pg-error")`))
	var status, body, failure string
	must(b.Eval(`(document.querySelector(".playground .pg-error") || {}).textContent || ""`, &failure))
	if failure != "" {
		t.Fatalf("playground: %s", failure)
	}
	must(b.Eval(`document.querySelector(".playground .pg-status").textContent`, &status))
	must(b.Eval(`document.querySelector(".playground .pg-body-out").textContent`, &body))
	var job struct {
		JobID string `json:"jobId"`
	}
	if status != "202" || json.Unmarshal([]byte(body), &job) != nil || job.JobID == "" {
		t.Fatalf("playground shows status %q and body %q, want 202 with a jobId", status, body)
	}
	if !strings.Contains(body, "\n  ") {
		t.Errorf("JSON body not pretty-printed: %q", body)
	}
}
