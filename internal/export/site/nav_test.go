package site

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
)

// decode reads a docs.json for a test; it names no other file.
func decode(t *testing.T, js string) *docsjson.Config {
	t.Helper()
	cfg, err := docsjson.Decode(func(name string) ([]byte, error) {
		if name == "docs.json" {
			return []byte(js), nil
		}
		return nil, fs.ErrNotExist
	}, func(format string, args ...any) { t.Logf("warning: "+format, args...) })
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// files is a source's page keys, as Build asks about them.
func files(keys ...string) func(string) bool {
	return func(k string) bool { return slices.Contains(keys, k) }
}

// TestBuild_versions: the tree of two versions, the second the default,
// records its sections, each page's section and the reading order, and
// names the entries whose file is missing. Pruned to the pages exported,
// a group left empty goes, the site opens on the default version, and
// each page knows the labels above it and the group that lists its
// entries on its root page.
func TestBuild_versions(t *testing.T) {
	cfg := decode(t, `{"name": "S", "navigation": {"versions": [
		{"version": "v1", "groups": [{"group": "Start", "pages": ["v1/intro", "v1/missing"]}]},
		{"version": "v2", "default": true, "groups": [{"group": "Start", "root": "v2/index", "directory": "card",
			"pages": ["v2/intro", {"group": "Deep", "pages": ["v2/deep/a"]}]}]}]}}`)
	tree := Build(cfg, files("v1/intro", "v2/index", "v2/intro", "v2/deep/a", "orphan"), nil)

	if want := []string{"v1/missing"}; !slices.Equal(tree.Missing, want) {
		t.Errorf("missing = %q, want %q", tree.Missing, want)
	}
	if len(tree.Sections) != 2 || tree.Sections[0].Label != "v1" || tree.Sections[1].Label != "v2" {
		t.Fatalf("sections = %+v, want v1 and v2", tree.Sections)
	}
	if want := []string{"v1/intro", "v2/index", "v2/intro", "v2/deep/a"}; !slices.Equal(tree.Order, want) {
		t.Errorf("order = %q, want %q", tree.Order, want)
	}
	if s := tree.SectionOf["v2/deep/a"]; s == nil || s.Label != "v2" || s.Kind != "version" || s.Index != 1 {
		t.Errorf("section of v2/deep/a = %+v, want version v2 at index 1", s)
	}
	if _, ok := tree.SectionOf["orphan"]; ok {
		t.Error("a page outside the navigation has a section")
	}

	tree.Prune(func(k string) bool { return k != "v2/deep/a" })
	if want := []string{"v1/intro", "v2/index", "v2/intro"}; !slices.Equal(tree.Order, want) {
		t.Errorf("pruned order = %q, want %q", tree.Order, want)
	}
	if tree.Root.First != "v2/index" {
		t.Errorf("the site opens on %q, want the default version's first page v2/index", tree.Root.First)
	}
	start := tree.Sections[1].Items[0]
	if len(start.Children) != 1 || start.Children[0].Page != "v2/intro" {
		t.Errorf("the v2 group keeps %+v, want only v2/intro (Deep lost its one page)", start.Children)
	}
	if got, want := tree.Crumbs["v2/intro"], []string{"v2", "Start"}; !slices.Equal(got, want) {
		t.Errorf("crumbs of v2/intro = %q, want %q", got, want)
	}
	if got, want := tree.Crumbs["v2/index"], []string{"v2", "Start"}; !slices.Equal(got, want) {
		t.Errorf("crumbs of the group's root = %q, want %q", got, want)
	}
	if g := tree.DirOf["v2/index"]; g == nil || g.Directory != "card" || g.Group != "Start" {
		t.Errorf("directory of v2/index = %+v, want the card listing of Start", g)
	}
	if _, ok := tree.DirOf["v1/intro"]; ok {
		t.Error("a page that roots no group lists a directory")
	}
}

// TestListAll: without navigation every page gets one section, the
// start page first.
func TestListAll(t *testing.T) {
	tree := Build(decode(t, `{"name": "S"}`), files(), nil)
	if len(tree.Sections) != 0 {
		t.Fatalf("a docs.json without navigation has %d sections", len(tree.Sections))
	}
	tree.ListAll([]string{"a", "index", "z"})
	if want := []string{"index", "a", "z"}; !slices.Equal(tree.Order, want) {
		t.Errorf("order = %q, want %q", tree.Order, want)
	}
	if len(tree.Sections) != 1 || tree.SectionOf["z"] != tree.Sections[0] {
		t.Errorf("sections = %+v, want one holding every page", tree.Sections)
	}
}

// endpoints stands in for the facade's endpoint page generator.
type endpoints struct{ loaded []string }

func (e *endpoints) Load(ref docsjson.OpenAPIRef) []*openapi.Spec {
	e.loaded = append(e.loaded, ref.Files...)
	return nil
}

func (e *endpoints) All(docsjson.OpenAPIRef) []*Item {
	return []*Item{{Group: "Runs", Children: []*Item{{Page: "api/list-runs"}}}}
}

func (e *endpoints) One(_ docsjson.OpenAPIRef, entry string) (string, bool) {
	if entry == "GET /runs" {
		return "api/list-runs", true
	}
	return "", false
}

// TestBuild_openapiEntries: a tab that names a spec and lists only pages
// gets a page per operation after them; one that lists an operation
// gets that page alone. Every spec named is loaded, so one that does not
// parse is reported even if no entry uses it.
func TestBuild_openapiEntries(t *testing.T) {
	cfg := decode(t, `{"name": "S", "navigation": {"tabs": [
		{"tab": "API", "openapi": "a.json", "pages": ["api/intro"]},
		{"tab": "Ops", "openapi": "b.json", "pages": ["ops/intro", "GET /runs", "DELETE /nothing"]}]}}`)
	e := &endpoints{}
	tree := Build(cfg, files("api/intro", "ops/intro"), e)
	if !slices.Contains(e.loaded, "a.json") || !slices.Contains(e.loaded, "b.json") {
		t.Errorf("loaded %q, want both specs", e.loaded)
	}
	if len(tree.Sections) != 2 {
		t.Fatalf("sections = %d, want 2", len(tree.Sections))
	}
	var api []string
	for _, it := range tree.Sections[0].Items {
		api = append(api, it.Page+it.Group)
	}
	if want := []string{"api/intro", "Runs"}; !slices.Equal(api, want) {
		t.Errorf("API tab = %q, want %q", api, want)
	}
	var ops []string
	for _, it := range tree.Sections[1].Items {
		ops = append(ops, it.Page)
	}
	if want := []string{"ops/intro", "api/list-runs"}; !slices.Equal(ops, want) {
		t.Errorf("Ops tab = %q, want %q", ops, want)
	}
	// The operation is listed twice; its first place is its home.
	if s := tree.SectionOf["api/list-runs"]; s != tree.Sections[0] {
		t.Errorf("api/list-runs lives in %q, want the API tab", s.Label)
	}
}

// TestSplitEndpointRef tells operation entries from page paths.
func TestSplitEndpointRef(t *testing.T) {
	for _, c := range []struct {
		in, file, ref string
		ok            bool
	}{
		{"GET /runs", "", "GET /runs", true},
		{"specs/a.json post /runs/{id}", "specs/a.json", "post /runs/{id}", true},
		{"webhook run.done", "", "webhook run.done", true},
		{"guides/intro", "", "", false},
		{"FETCH /runs", "", "", false},
		{"GET runs", "", "", false},
	} {
		file, ref, ok := SplitEndpointRef(c.in)
		if file != c.file || ref != c.ref || ok != c.ok {
			t.Errorf("SplitEndpointRef(%q) = %q, %q, %v; want %q, %q, %v", c.in, file, ref, ok, c.file, c.ref, c.ok)
		}
	}
	if IsEndpointEntry("guides/intro") || !IsEndpointEntry("GET /runs") {
		t.Error("IsEndpointEntry tells pages from operations wrongly")
	}
}

// TestListPages: .mdx wins over .md, folders that hold no pages are not
// walked, and of two keys that differ by case one is kept with a warning.
func TestListPages(t *testing.T) {
	src := fstest.MapFS{"a.md": {}, "a.mdx": {}, "snippets/s.mdx": {}, "_x/y.mdx": {}, "Guide.mdx": {}, "guide.mdx": {}, "img.png": {}}
	var warned []string
	got, err := ListPages(src, 100, func(format string, args ...any) { warned = append(warned, fmt.Sprintf(format, args...)) })
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["a"] != "a.mdx" || got["Guide"] != "Guide.mdx" {
		t.Errorf("pages = %v, want a.mdx and Guide.mdx", got)
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "differ only by case") {
		t.Errorf("warnings = %q, want one about Guide and guide", warned)
	}
	_, err = ListPages(src, 1, func(string, ...any) {})
	var ie *docsjson.InputError
	if !errors.As(err, &ie) || !strings.Contains(ie.Msg, "limit of 1 pages") {
		t.Errorf("over the limit: %v, want an input error naming the limit", err)
	}
}
