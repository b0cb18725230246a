package export

import (
	"slices"
	"strings"
	"testing"
)

// TestExport_mintignore: what .mintignore names, with gitignore's rules,
// is not published: not as a page, not as a file a page links to, not as
// a spec; a negated pattern brings a file back, and an ignored folder
// hides everything in it.
func TestExport_mintignore(t *testing.T) {
	src := mapFS(map[string]string{
		".mintignore":          "# tooling and notes for writers\nAGENTS.md\n/internal/\ndrafts/**\n*.draft.mdx\n!keep.draft.mdx\nprivate.json\n",
		"docs.json":            `{"navigation": {"pages": ["index", "guide"]}}`,
		"index.mdx":            "---\ntitle: Home\n---\n\n[secret](/internal/plan) ![x](/internal/diagram.png)\n",
		"guide.mdx":            mdxBody("Guide"),
		"AGENTS.md":            "# Instructions for agents\n",
		"CLAUDE.md":            "# Kept: not ignored\n",
		"internal/plan.mdx":    mdxBody("Plan"),
		"internal/diagram.png": "png",
		"drafts/a/b.mdx":       mdxBody("Draft"),
		"notes.draft.mdx":      mdxBody("Draft note"),
		"keep.draft.mdx":       mdxBody("Kept draft"),
		"private.json":         `{"openapi": "3.1.0", "paths": {"/secret": {"get": {"responses": {"200": {"description": "ok"}}}}}}`,
		"sub/AGENTS.md":        "# Also matched: no slash in the pattern\n",
	})
	dir, m := exportTo(t, Request{Source: src, Kind: KindCloud})
	var files []string
	for _, f := range m.Files {
		files = append(files, f.Path)
	}
	for _, gone := range []string{"AGENTS.html", "internal/plan.html", "internal/diagram.png", "drafts/a/b.html", "notes.draft.html", "sub/AGENTS.html", "private.json"} {
		if slices.Contains(files, gone) {
			t.Errorf("%s is published although .mintignore names it", gone)
		}
	}
	for _, kept := range []string{"index.html", "guide.html", "CLAUDE.html", "keep.draft.html"} {
		if !slices.Contains(files, kept) {
			t.Errorf("%s is missing; files: %q", kept, files)
		}
	}
	if index := readOut(t, dir, "index.html"); strings.Contains(index, "internal/plan.html") {
		t.Error("a link to an ignored page resolves")
	}
}
