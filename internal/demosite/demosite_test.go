package demosite

import (
	"encoding/json"
	"io/fs"
	"testing"
)

// TestFS_navigationNamesExistingPages guards the demo against a page being
// renamed without its navigation entry: the first export a user sees must
// not log skipped entries.
func TestFS_navigationNamesExistingPages(t *testing.T) {
	raw, err := fs.ReadFile(FS(), "docs.json")
	if err != nil {
		t.Fatalf("docs.json not at the root: %v", err)
	}
	var v map[string]any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("docs.json: %v", err)
	}
	var pages []string
	collectPages(v, &pages)
	for _, p := range pages {
		if _, err := fs.Stat(FS(), p+".mdx"); err != nil {
			t.Errorf("navigation names %s, which has no page: %v", p, err)
		}
	}
	if len(pages) < 8 {
		t.Errorf("demo navigation lists %d pages, want a real site of at least 8", len(pages))
	}
}

// collectPages gathers the strings of every "pages" array, at any depth.
func collectPages(v any, into *[]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, c := range v {
			if list, ok := c.([]any); ok && k == "pages" {
				for _, e := range list {
					if s, ok := e.(string); ok {
						*into = append(*into, s)
					}
				}
			}
			collectPages(c, into)
		}
	case []any:
		for _, c := range v {
			collectPages(c, into)
		}
	}
}
