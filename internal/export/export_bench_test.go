package export

import (
	"context"
	"io/fs"
	"os"
	"testing"
)

// BenchmarkExport_fixtures exports each fixture source into a fresh
// directory per iteration (the 2,000-page site is `make bench`'s).
func BenchmarkExport_fixtures(b *testing.B) {
	cloud := func(src fs.FS) Request { return Request{Source: src, Kind: KindCloud} }
	for _, tc := range []struct {
		name string
		req  Request
	}{
		{"fixture", cloud(fixture())}, {"apisite", cloud(apiSite())}, {"docsrepo", cloud(docsRepo())},
		{"airgap", cloud(os.DirFS("testdata/airgap"))}, {"basepath", basePathSite()},
	} {
		b.Run(tc.name, func(b *testing.B) {
			e := New(Options{})
			for b.Loop() {
				b.StopTimer()
				dir, err := os.MkdirTemp(b.TempDir(), "out")
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				req := tc.req
				if req.Domain == "" {
					req.Domain = "docs.example.com"
				}
				if _, err := e.Export(context.Background(), req, dir, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
