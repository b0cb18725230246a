package export

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
)

func mapFS(files map[string]string) fstest.MapFS {
	m := fstest.MapFS{}
	for k, v := range files {
		m[k] = &fstest.MapFile{Data: []byte(v)}
	}
	return m
}

// TestConfig_refResolves splits docs.json over nested files: references
// resolve relative to the file holding them, sibling keys merge over a
// referenced object and are ignored next to an array.
func TestConfig_refResolves(t *testing.T) {
	src := mapFS(map[string]string{
		"docs.json": `{"name": "Split", "navigation": {"$ref": "./config/navigation.json"},
			"navbar": {"$ref": "config/navbar.json", "primary": {"label": "Sibling", "href": "/b"}},
			"redirects": {"$ref": "./config/redirects.json", "ignored": true}}`,
		"config/navigation.json":  `{"tabs": [{"$ref": "tabs/guides.json", "tab": "Guides (renamed)"}]}`,
		"config/tabs/guides.json": `{"tab": "Guides", "groups": [{"group": "G", "pages": ["a", {"$ref": "../group.json"}]}]}`,
		"config/group.json":       `{"group": "Nested", "pages": ["b"]}`,
		"config/navbar.json":      `{"links": [{"label": "Home", "href": "/a"}], "primary": {"label": "Referenced", "href": "/a"}}`,
		"config/redirects.json":   `[{"source": "/old", "destination": "/a"}]`,
		"a.mdx":                   "# A\n\nPage a.",
		"b.mdx":                   "# B\n\nPage b.",
	})
	c, err := loadConfig(context.Background(), src, DefaultLimits, nil)
	if err != nil {
		t.Fatalf("loadConfig: %v", err)
	}
	tabs := c.Navigation.Tabs
	if len(tabs) != 1 || tabs[0].Tab != "Guides (renamed)" || len(tabs[0].Groups) != 1 {
		t.Fatalf("navigation = %+v, want one tab renamed by the sibling key", c.Navigation)
	}
	pages := tabs[0].Groups[0].Pages
	if len(pages) != 2 || pages[0].Page != "a" || pages[1].Group == nil || pages[1].Group.Group != "Nested" {
		t.Fatalf("group pages = %+v, want a and the nested group", pages)
	}
	if c.Navbar.Primary == nil || c.Navbar.Primary.Label != "Sibling" || len(c.Navbar.Links) != 1 {
		t.Errorf("navbar = %+v, want the sibling primary over the referenced one", c.Navbar)
	}
	if len(c.Redirects) != 1 || c.Redirects[0].Source != "/old" {
		t.Errorf("redirects = %+v, want the referenced array", c.Redirects)
	}
	dir, _ := exportTo(t, Request{Source: src, Kind: KindAirGapped})
	if got := readOut(t, dir, "b.html"); !strings.Contains(got, "Nested") || !strings.Contains(got, "Page b.") {
		t.Error("b.html lacks the group named in a nested $ref file")
	}
}

// TestConfig_refErrors checks that every bad reference is an input error
// naming the file and JSON path, and that none hangs.
func TestConfig_refErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"cycle", map[string]string{
			"docs.json":   `{"navigation": {"$ref": "cfg/a.json"}}`,
			"cfg/a.json":  `{"tabs": [{"$ref": "b.json"}]}`,
			"cfg/b.json":  `{"groups": {"$ref": "./a.json"}}`,
			"placeholder": "",
		}, "cfg/b.json at groups: $ref cycle: cfg/a.json -> cfg/b.json -> cfg/a.json"},
		{"self", map[string]string{"docs.json": `{"navigation": {"$ref": "docs.json"}}`},
			"docs.json at navigation: $ref cycle: docs.json -> docs.json"},
		{"dot-dot", map[string]string{"docs.json": `{"navigation": {"$ref": "cfg/a.json"}}`, "cfg/a.json": `{"x": {"$ref": "../../etc/passwd"}}`},
			`cfg/a.json at x: $ref "../../etc/passwd" leaves the docs source`},
		{"absolute", map[string]string{"docs.json": `{"logo": {"$ref": "/etc/passwd"}}`},
			`docs.json at logo: $ref "/etc/passwd" must be a path relative to docs.json`},
		{"missing", map[string]string{"docs.json": `{"navigation": {"groups": [{"$ref": "nope.json"}]}}`},
			"docs.json at navigation.groups[0]: $ref names nope.json, which does not exist"},
		{"not a string", map[string]string{"docs.json": `{"navigation": {"$ref": 3}}`},
			"docs.json at navigation: $ref must be a relative file path"},
		{"invalid JSON", map[string]string{"docs.json": `{"navigation": {"$ref": "n.json"}}`, "n.json": "{\n\"tabs\": [,]}"},
			"n.json: invalid JSON at line 2"},
		{"wrong type", map[string]string{"docs.json": `{"navigation": {"$ref": "n.json"}}`, "n.json": `{"tabs": "x"}`},
			"docs.json (with $ref resolved): navigation.tabs has the wrong type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(Options{}).Export(context.Background(), Request{Source: mapFS(tt.files), Domain: "d.example.com"}, t.TempDir(), nil)
			var ie *docsjson.InputError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("export = %v, want an input error with %q", err, tt.want)
			}
		})
	}
}

// TestConfig_refLinkOutOfSource refuses a $ref file that is a symlink out
// of the source, without echoing what it points at.
func TestConfig_refLinkOutOfSource(t *testing.T) {
	src := hostileSource(t)
	err := os.WriteFile(filepath.Join(src, "docs.json"), []byte(`{"navigation": {"$ref": "./linked/config.yaml"}}`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	err = New(Options{}).CheckConfig(context.Background(), Dir(src))
	if err == nil || !strings.Contains(err.Error(), `docs.json at navigation: linked/config.yaml: the configuration file is a link out of the docs source; refused`) ||
		strings.Contains(err.Error(), secretMarker) {
		t.Fatalf("CheckConfig = %v, want the $ref refused", err)
	}
}

// TestConfig_unsupportedKeysWarn reports settings the export ignores.
func TestConfig_unsupportedKeysWarn(t *testing.T) {
	var warns []string
	_, err := loadConfig(context.Background(), mapFS(map[string]string{"docs.json": `{"name": "x", "seo": {"pathMetatags": []}, "contextual": {"options": ["chatgpt"]}}`}),
		DefaultLimits, func(f string, _ ...any) { warns = append(warns, f) })
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 2 {
		t.Fatalf("warnings = %q, want one per unsupported key (seo.pathMetatags, contextual option chatgpt)", warns)
	}
}
