package docsjson

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
)

// fromMap is a docs source for Decode's read callback.
func fromMap(m map[string]string) func(string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		if s, ok := m[name]; ok {
			return []byte(s), nil
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
}

// outline prints a navigation tree as labels and pages, one level a line.
func outline(n NavNode, depth int, b *strings.Builder) {
	pad := strings.Repeat("  ", depth)
	if l := n.Label(); l != "" {
		fmt.Fprintf(b, "%s%s\n", pad, l)
		depth++
		pad += "  "
	}
	for _, e := range n.Pages {
		if e.Group != nil {
			outline(*e.Group, depth, b)
		} else {
			fmt.Fprintf(b, "%s- %s\n", pad, e.Page)
		}
	}
	for _, list := range [][]NavNode{n.Languages, n.Versions, n.Products, n.Tabs, n.Menu, n.Anchors, n.Dropdowns, n.Groups} {
		for _, c := range list {
			outline(c, depth, b)
		}
	}
}

// TestDecode: the navigation forms, $ref to other files, the defaults and
// the warning for each setting the export leaves out.
func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		name     string
		src      map[string]string
		outline  string
		warnings []string
	}{
		{
			name:    "groups of pages, a nested group",
			src:     map[string]string{"docs.json": `{"name": "Acme", "navigation": {"groups": [{"group": "Start", "pages": ["index", {"group": "More", "pages": ["more/a"]}]}]}}`},
			outline: "Start\n  - index\n  More\n    - more/a\n",
		},
		{
			name:    "tabs over groups",
			src:     map[string]string{"docs.json": `{"navigation": {"tabs": [{"tab": "Guides", "groups": [{"group": "G", "pages": ["g"]}]}, {"tab": "API", "pages": ["api/intro"]}]}}`},
			outline: "Guides\n  G\n    - g\nAPI\n  - api/intro\n",
		},
		{
			name: "$ref to another file",
			src: map[string]string{
				"docs.json":     `{"name": "R", "navigation": {"$ref": "nav/main.json"}}`,
				"nav/main.json": `{"groups": [{"group": "From a file", "pages": ["p"]}]}`,
			},
			outline: "From a file\n  - p\n",
		},
		{
			name:     "settings the export leaves out",
			src:      map[string]string{"docs.json": `{"navigation": {"pages": ["a"]}, "integrations": {}, "fonts": {}}`},
			outline:  "- a\n",
			warnings: []string{`the setting "fonts" is not supported`, `the setting "integrations" is not supported`},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var warnings []string
			c, err := Decode(fromMap(tc.src), func(f string, a ...any) { warnings = append(warnings, fmt.Sprintf(f, a...)) })
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			outline(c.Navigation, 0, &b)
			if b.String() != tc.outline {
				t.Errorf("navigation:\n%s\nwant:\n%s", b.String(), tc.outline)
			}
			if len(warnings) != len(tc.warnings) {
				t.Errorf("warnings %q, want %d", warnings, len(tc.warnings))
			}
			for i, w := range tc.warnings {
				if i < len(warnings) && !strings.Contains(warnings[i], w) {
					t.Errorf("warning %d = %q, want it to contain %q", i, warnings[i], w)
				}
			}
			if c.Name == "" {
				t.Error("no name: the default is Documentation")
			}
		})
	}
}

// TestDecode_errors: what a docs author must fix is an InputError with
// the file and, for JSON, the line.
func TestDecode_errors(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  map[string]string
		want string
	}{
		{"no docs.json", map[string]string{}, "docs.json: not found at the root of the source"},
		{"only mint.json", map[string]string{"mint.json": "{}"}, "deprecated mint.json"},
		{"a syntax error", map[string]string{"docs.json": "{\n  \"name\": \"x\",\n  oops\n}"}, "docs.json: invalid JSON at line 3"},
		{"a wrong type", map[string]string{"docs.json": "{\n  \"name\": 7\n}"}, "docs.json: name has the wrong type (got number, want string) at line 2"},
		{"a $ref cycle", map[string]string{"docs.json": `{"navigation": {"$ref": "a.json"}}`, "a.json": `{"$ref": "docs.json"}`}, "$ref"},
		{"a $ref out of the source", map[string]string{"docs.json": `{"navigation": {"$ref": "../secret.json"}}`}, "../secret.json"},
	} {
		_, err := Decode(fromMap(tc.src), nil)
		var ie *InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an InputError containing %q", tc.name, err, tc.want)
		}
	}
}

// TestCleanPagePath: page references become keys; what could leave the
// root is refused.
func TestCleanPagePath(t *testing.T) {
	for in, want := range map[string]string{"index": "index", "guides/start.mdx": "guides/start", "a/b.md": "a/b"} {
		if got, ok := CleanPagePath(in); !ok || got != want {
			t.Errorf("CleanPagePath(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "/abs", "a/../b", "./a", "a//b", `a\b`, "https://x.test/a", "a?b", "a#b", "a\x00"} {
		if got, ok := CleanPagePath(in); ok {
			t.Errorf("CleanPagePath(%q) = %q, want a refusal", in, got)
		}
	}
}
