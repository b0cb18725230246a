package export

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/demosite"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/icons"
)

func fixture() fs.FS { return os.DirFS("testdata/fixture") }

// exportTo runs an export of src into a fresh directory and fails the test
// on error.
func exportTo(t *testing.T, req Request) (string, *bundle.Manifest) {
	t.Helper()
	dir := t.TempDir()
	if req.Domain == "" {
		req.Domain = "docs.example.com"
	}
	e := New(Options{})
	defer e.Close()
	m, err := e.Export(context.Background(), req, dir, nil)
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	return dir, m
}

// dirFS reads a directory of testdata into memory.
func dirFS(t testing.TB, root string) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		m[filepath.ToSlash(rel)] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func readOut(t *testing.T, dir, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatalf("bundle file: %v", err)
	}
	return string(b)
}

func TestExport_demosite(t *testing.T) {
	dir, m := exportTo(t, Request{Source: demosite.FS(), Kind: KindAirGapped, Label: "demo-1"})
	for _, p := range []string{"index.html", "quickstart.html", "guides/advanced/retries.html",
		"api-reference/rates/create.html", "legal/privacy.html", "404.html", "sitemap.xml",
		"_static/style.css", "_static/app.js", "_static/search-index.js", "logo/light.svg", "favicon.svg", "images/flow.svg"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Errorf("missing %s: %v", p, err)
		}
	}
	if m.PageCount != 11 || m.Label != "demo-1" || m.Kind != string(KindAirGapped) {
		t.Errorf("manifest = pages %d label %q kind %q, want 11 demo-1 air-gapped", m.PageCount, m.Label, m.Kind)
	}
	got, err := bundle.VerifyDir(dir)
	if err != nil {
		t.Fatalf("VerifyDir: %v", err)
	}
	if got.Version != m.Version || len(got.Files) != len(m.Files) {
		t.Errorf("VerifyDir manifest differs from Export's")
	}
	quick := readOut(t, dir, "quickstart.html")
	for _, want := range []string{`<ol class="steps">`, `<div class="code-group" data-tabs>`, `class="chroma"`,
		`aria-current="page"`, `<a class="prev" rel="prev" href="index.html">`} {
		if !strings.Contains(quick, want) {
			t.Errorf("quickstart.html lacks %s", want)
		}
	}
	if !strings.Contains(readOut(t, dir, "index.html"), "Every request needs an API key") {
		t.Error("index.html does not inline the auth-note snippet")
	}
}

func TestExport_pagePathsAndRelativeLinks(t *testing.T) {
	dir, _ := exportTo(t, Request{Source: fixture(), Kind: KindCloud})
	child := readOut(t, dir, "nested/child.html")
	for _, want := range []string{
		`href="../nested/root.html"`, `href="../index.html#second-heading"`, `href="../hidden-page.html"`,
		`href="../_static/style.css"`, `<link rel="canonical" href="https://docs.example.com/nested/child">`,
	} {
		if !strings.Contains(child, want) {
			t.Errorf("nested/child.html lacks %s", want)
		}
	}
	if strings.Contains(child, `href="/`) || strings.Contains(child, `src="/`) {
		t.Error("nested/child.html has a root-absolute reference")
	}
	if !strings.Contains(readOut(t, dir, "v1/old.html"), `src="../images/pic.png"`) {
		t.Error("relative image in v1/old.mdx not resolved")
	}
	sm := readOut(t, dir, "sitemap.xml")
	if !strings.Contains(sm, "<loc>https://docs.example.com/nested/child</loc>") || strings.Contains(sm, "secret") || strings.Contains(sm, "hidden-page") {
		t.Errorf("sitemap lists the wrong pages:\n%s", sm)
	}
}

func TestExport_redirects(t *testing.T) {
	dir, _ := exportTo(t, Request{Source: fixture()})
	for page, want := range map[string]string{
		"old-components.html": `content="0; url=components.html"`,
		"legacy/child.html":   `content="0; url=../nested/child.html#child-section"`,
		"components.html":     `<h1>All components</h1>`, // a page wins over a redirect
	} {
		if got := readOut(t, dir, page); !strings.Contains(got, want) {
			t.Errorf("%s lacks %s", page, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "blog")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a wildcard redirect produced files (err %v)", err)
	}
}

func TestExport_paths(t *testing.T) {
	dir, m := exportTo(t, Request{Source: fixture(), Kind: KindCloud, Paths: []string{"nested/child", "components"}})
	if m.PageCount != 2 {
		t.Fatalf("pageCount = %d, want 2", m.PageCount)
	}
	if _, err := os.Stat(filepath.Join(dir, "nested/root.html")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("nested/root.html exported although not requested (err %v)", err)
	}
	child := readOut(t, dir, "nested/child.html")
	if !strings.Contains(child, `href="https://docs.example.com/nested/root"`) {
		t.Error("link to a page left out of the export should point to the live site")
	}
	if !strings.Contains(readOut(t, dir, "components.html"), `src="images/pic.png"`) {
		t.Error("image needed by a requested page was not kept")
	}
	if _, err := os.Stat(filepath.Join(dir, "images/pic.png")); err != nil {
		t.Errorf("asset of a requested page missing: %v", err)
	}
}

func TestExport_progress(t *testing.T) {
	var mu sync.Mutex
	var seen []Progress
	_, err := New(Options{Workers: 3}).Export(context.Background(), Request{Source: demosite.FS(), Domain: "d.example"}, t.TempDir(), func(p Progress) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, p)
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) < 5 {
		t.Fatalf("only %d progress calls", len(seen))
	}
	for i, p := range seen {
		if p.Done > p.Total || i > 0 && p.Done <= seen[i-1].Done {
			t.Fatalf("progress not increasing within total: %v", seen)
		}
	}
	if last := seen[len(seen)-1]; last.Done != last.Total || last.Total != 11 {
		t.Errorf("last progress %v, want 11 of 11 pages", last)
	}
}

func TestExport_cancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := New(Options{}).Export(ctx, Request{Source: demosite.FS(), Domain: "d.example"}, t.TempDir(), nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestExport_cancelledMidway(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	last := 0
	_, err := New(Options{Workers: 1}).Export(ctx, Request{Source: demosite.FS(), Domain: "d.example"}, t.TempDir(), func(p Progress) {
		last = p.Done
		if p.Done == 2 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || last >= 11 {
		t.Fatalf("err = %v after %d pages, want context.Canceled before the end", err, last)
	}
}

func TestExport_inputErrors(t *testing.T) {
	tests := []struct {
		name string
		src  fstest.MapFS
		want string
	}{
		{"badJSON", fstest.MapFS{"docs.json": {Data: []byte("{\n\"name\": \"x\",\n\"colors\": ,\n}")}},
			"docs.json: invalid JSON at line 3"},
		{"noDocsJSON", fstest.MapFS{"a.mdx": {Data: []byte("hi")}}, "docs.json: not found"},
		{"mintJSONOnly", fstest.MapFS{"mint.json": {Data: []byte(`{"name": "Old"}`)}, "a.mdx": {Data: []byte("hi")}},
			"has the deprecated mint.json; upgrade it with the platform's CLI (`mint dev` writes docs.json)"},
		{"missingOnly", fstest.MapFS{"docs.json": {Data: []byte(`{"navigation":{"pages":["a","b"]}}`)}},
			"no pages to export: 2 navigation entries name missing files: a, b"},
		{"badFrontmatter", fstest.MapFS{"docs.json": {Data: []byte(`{}`)}, "a.mdx": {Data: []byte("---\ntitle: [x\n---\nbody")}},
			"a.mdx: invalid frontmatter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(Options{}).Export(context.Background(), Request{Source: tt.src, Domain: "d.example"}, t.TempDir(), nil)
			var ie *docsjson.InputError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want InputError containing %q", err, tt.want)
			}
		})
	}
}

func TestExport_missingEntriesSkipped(t *testing.T) {
	_, m := exportTo(t, Request{Source: fixture()})
	// 9 pages on disk; "missing-page" and "also-missing" are only logged.
	if m.PageCount != 9 {
		t.Errorf("pageCount = %d, want 9", m.PageCount)
	}
}

func TestCheckPaths(t *testing.T) {
	e := New(Options{})
	for _, bad := range []string{"../x", "/abs", "http://x", "nope", "guides/../../etc", "", "guides/rates?x", "snippets/auth-note"} {
		err := e.CheckPaths(demosite.FS(), []string{"quickstart", bad})
		var ie *docsjson.InputError
		if !errors.As(err, &ie) {
			t.Errorf("CheckPaths(%q) = %v, want *InputError", bad, err)
		}
	}
	if err := e.CheckPaths(demosite.FS(), []string{"guides/rates", "index", "guides/advanced/retries.mdx"}); err != nil {
		t.Errorf("valid paths rejected: %v", err)
	}
}

func TestExport_sameSourceSameBytes(t *testing.T) {
	a, _ := exportTo(t, Request{Source: fixture()})
	b, _ := exportTo(t, Request{Source: fixture()})
	if readOut(t, a, bundle.ManifestName) != readOut(t, b, bundle.ManifestName) {
		t.Error("manifests of two exports of one source differ")
	}
	// The archive is the bundle package's, but whether two exports pack to
	// the same bytes depends on the renderer writing the same files.
	var bufA, bufB bytes.Buffer
	if err := bundle.Write(context.Background(), a, &bufA, 0); err != nil {
		t.Fatal(err)
	}
	if err := bundle.Write(context.Background(), b, &bufB, 0); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(bufA.Bytes(), bufB.Bytes()) {
		t.Error("archives of two exports of one source differ")
	}
}

// TestExport_notFoundPageHasFooter checks that the generated 404 page
// carries the site's footer (socials and link columns), with links that
// resolve from the bundle root.
func TestExport_notFoundPageHasFooter(t *testing.T) {
	src := fstest.MapFS{
		"docs.json": {Data: []byte(`{"name": "Acme", "navigation": {"pages": ["index", "guides/start"]},
			"footer": {"socials": {"github": "https://github.com/acme"}, "links": [{"header": "Docs", "items": [{"label": "Start", "href": "/guides/start"}]}]}}`)},
		"index.mdx": mdxPage("Home"), "guides/start.mdx": mdxPage("Start"),
	}
	dir, _ := exportTo(t, Request{Source: src, Kind: KindCloud})
	wantAll(t, "404.html", readOut(t, dir, "404.html"), `<h1>Page not found</h1>`,
		`<footer class="footer"><span>Acme</span> <a href="https://github.com/acme" rel="me">`+drawn(icons.FontAwesome, "github", "brands")+
			`<span class="sr-only">GitHub</span></a><div class="footer-links">`+
			`<p class="footer-header">Docs</p><a href="guides/start.html">Start</a></div></footer></main>`)
}
