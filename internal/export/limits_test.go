package export

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

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
