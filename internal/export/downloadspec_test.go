package export

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
)

// withContextual returns src with docs.json's contextual options set.
func withContextual(t *testing.T, src fstest.MapFS, options string) fstest.MapFS {
	t.Helper()
	var cfg map[string]json.RawMessage
	if err := json.Unmarshal(src["docs.json"].Data, &cfg); err != nil {
		t.Fatal(err)
	}
	cfg["contextual"] = json.RawMessage(`{"options": ` + options + `}`)
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	out := fstest.MapFS{}
	for k, v := range src {
		out[k] = v
	}
	out["docs.json"] = &fstest.MapFile{Data: b}
	return out
}

// TestExport_downloadSpec: with "download-spec" among docs.json's
// contextual options every page offers the site's spec: its one file as
// written (x-excluded operations included, as the platform serves it), or
// all of them in api-specs.zip, the same bytes on every export. The other
// options are named in a warning. Without the option no spec is copied.
func TestExport_downloadSpec(t *testing.T) {
	var warns []string
	src := withContextual(t, apiSite(), `["copy", "download-spec", {"title": "Ask the forum", "href": "https://forum.example.com"}]`)
	dir, m := exportTo(t, Request{Source: src, Warn: func(wrn Warning) { s := wrn.Message; warns = append(warns, s) }})
	if page := readOut(t, dir, "guides/mdx-endpoint.html"); !strings.Contains(page, `<a class="download-spec" href="../api-specs.zip" download>Download API spec</a>`) {
		t.Errorf("a page lacks the download link:\n%s", page)
	}
	if page := readOut(t, dir, "index.html"); !strings.Contains(page, `href="api-specs.zip" download>`) {
		t.Error("the home page lacks the download link")
	}
	zb, err := os.ReadFile(filepath.Join(dir, "api-specs.zip"))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(zb), int64(len(zb)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(rc)
		rc.Close()
		if !bytes.Equal(got, src[f.Name].Data) {
			t.Errorf("%s in the archive differs from the source", f.Name)
		}
	}
	if strings.Join(names, " ") != "specs/events.json specs/shop.yaml" {
		t.Errorf("archive holds %q", names)
	}
	all := strings.Join(warns, "\n")
	if !strings.Contains(all, `contextual options custom "Ask the forum" are not supported`) || strings.Contains(all, `"download-spec"`) {
		t.Errorf("warnings = %q", warns)
	}
	_, again := exportTo(t, Request{Source: src})
	zipSHA := func(files []bundle.File) string {
		for _, f := range files {
			if f.Path == "api-specs.zip" {
				return f.SHA256
			}
		}
		return ""
	}
	if zipSHA(m.Files) == "" || zipSHA(m.Files) != zipSHA(again.Files) {
		t.Error("api-specs.zip differs between two exports of the same source")
	}

	one := fstest.MapFS{
		"docs.json":    {Data: []byte(`{"name": "One", "contextual": {"options": ["download-spec"]}, "navigation": {"tabs": [{"tab": "API", "openapi": "api/one.yaml"}]}}`)},
		"api/one.yaml": {Data: []byte("openapi: 3.0.3\ninfo: {title: One, version: '1'}\npaths:\n  /a:\n    get: {summary: Get a, responses: {'200': {description: ok}}}\n  /secret:\n    get: {summary: Secret, x-excluded: true, responses: {'200': {description: ok}}}\n")},
	}
	dir, _ = exportTo(t, Request{Source: one})
	page := readOut(t, dir, "api-reference/get-a.html")
	if !strings.Contains(page, `<a class="download-spec" href="../api/one.yaml" download>`) {
		t.Errorf("the endpoint page does not offer the spec file:\n%s", page)
	}
	if got := readOut(t, dir, "api/one.yaml"); got != string(one["api/one.yaml"].Data) {
		t.Errorf("the spec file is not copied as written:\n%s", got)
	}

	dir, _ = exportTo(t, Request{Source: apiSite()})
	if strings.Contains(readOut(t, dir, "index.html"), "download-spec") {
		t.Error("a download link without the option")
	}
	for _, f := range []string{"api-specs.zip", "specs/shop.yaml"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s is in a bundle whose docs.json did not ask for it", f)
		}
	}
}
