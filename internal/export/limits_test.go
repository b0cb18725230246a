package export

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
)

// TestExport_sourceLimits checks that each limit ends the export with an
// input error that names the file and the limit.
func TestExport_sourceLimits(t *testing.T) {
	src := func() fstest.MapFS {
		m := fstest.MapFS{
			"docs.json": {Data: []byte(`{"name": "Limits"}`)},
			"index.mdx": {Data: []byte("# Home\n\n![pic](pic.png)\n")},
			"pic.png":   {Data: []byte(strings.Repeat("p", 2000))},
		}
		for i := range 5 {
			m[fmt.Sprintf("p%d.mdx", i)] = &fstest.MapFile{Data: []byte("# Page\n\n" + strings.Repeat("word ", 100))}
		}
		return m
	}
	tests := []struct {
		name   string
		limits Limits
		edit   func(fstest.MapFS)
		want   string
	}{
		{"page", Limits{MaxPageBytes: 1000}, func(m fstest.MapFS) {
			m["big.mdx"] = &fstest.MapFile{Data: []byte(strings.Repeat("x", 1001))}
		}, "big.mdx: the page is larger than the limit of 1000 bytes"},
		{"docs.json", Limits{MaxPageBytes: 10}, nil, "docs.json: the configuration file is larger than the limit of 10 bytes"},
		{"asset", Limits{MaxAssetBytes: 1999}, nil, "pic.png: the file is larger than the limit of 2.0 KiB"},
		{"pages", Limits{MaxFiles: 4}, nil, "the source has more than the limit of 4 pages"},
		{"files", Limits{MaxFiles: 7}, nil, "the export reads more than the limit of 7 files"},
		{"total", Limits{MaxTotalBytes: 3000}, nil, "the export reads more than the limit of 2.9 KiB"},
		{"docs.json values", Limits{Config: docsjson.Bounds{MaxValues: 1}}, nil, "docs.json: the file is more than the limit of 1 JSON values"},
		{"$ref fan-out", Limits{Config: docsjson.Bounds{MaxBytes: 4096}}, func(m fstest.MapFS) {
			refs := strings.Repeat(`{"$ref": "nav.json"}, `, 100)
			m["docs.json"] = &fstest.MapFile{Data: []byte(`{"name": "Limits", "x": [` + refs + `{}]}`)}
			m["nav.json"] = &fstest.MapFile{Data: []byte(`{"group": "G", "pages": ["index"]}`)}
		}, "with $ref nav.json written out, docs.json is more than the limit of 4096 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := src()
			if tt.edit != nil {
				tt.edit(m)
			}
			_, err := New(Options{Limits: tt.limits}).Export(context.Background(),
				Request{Source: m, Domain: "docs.example.com"}, t.TempDir(), nil)
			var ie *docsjson.InputError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("export = %v, want an input error with %q", err, tt.want)
			}
		})
	}
	// The same source within the defaults exports.
	if _, err := New(Options{}).Export(context.Background(), Request{Source: src(), Domain: "docs.example.com"}, t.TempDir(), nil); err != nil {
		t.Fatalf("export within the limits: %v", err)
	}
}

// TestExport_highlightBudget caps the highlighting of a whole export: a
// page of fifty code blocks, each inside the per-block bounds but most of
// a second to highlight, costs the export its budget and no more; the
// blocks past it are shown plain, and one warning counts them.
func TestExport_highlightBudget(t *testing.T) {
	line := strings.Repeat(`"{$`, 333) + "\n"
	block := "```php\n<?php\n" + strings.Repeat(line, 15) + "```\n\n"
	m := fstest.MapFS{
		"docs.json": {Data: []byte(`{"name": "Code"}`)},
		"index.mdx": {Data: []byte("# Code\n\n" + strings.Repeat(block, 50) + "```go\npackage main\n```\n")},
	}
	e := New(Options{Workers: 1, Limits: Limits{HighlightTime: 200 * time.Millisecond}})
	defer e.Close()
	var warns []string
	dir := t.TempDir()
	_, err := e.Export(context.Background(), Request{Source: m, Domain: "docs.example.com",
		Warn: func(wrn Warning) { msg := wrn.Message; warns = append(warns, msg) }}, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	var counted []string
	for _, w := range warns {
		if strings.Contains(w, "shown without syntax highlighting") {
			counted = append(counted, w)
		}
	}
	if len(counted) != 1 || !strings.Contains(counted[0], "limit of 200ms (limits.highlightTime)") {
		t.Fatalf("warnings %q, want one counting the plain blocks", warns)
	}
	var n int
	if _, err := fmt.Sscanf(counted[0], "%d code blocks", &n); err != nil || n < 45 || n > 51 {
		t.Fatalf("%q: want most of the 51 blocks counted", counted[0])
	}
	page := readOut(t, dir, "index.html")
	if got := strings.Count(page, `<pre class="chroma"><code>`); got < n {
		t.Errorf("%d plain blocks in the page, %d counted", got, n)
	}
}
