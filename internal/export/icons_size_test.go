package export

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// pageSizes are the raw and gzip'd bytes of every HTML page of an
// exported bundle, by bundle path.
func pageSizes(t testing.TB, dir string) map[string][2]int {
	t.Helper()
	out := map[string][2]int{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var z bytes.Buffer
		w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
		_, _ = w.Write(b)
		_ = w.Close()
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = [2]int{len(b), z.Len()}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// BenchmarkPageBytes_icons reports the mean bytes of an HTML page, raw
// and gzip'd, of the icon fixture (icons in the navigation, cards,
// steps, tabs) and of a plain fixture without icons; the figures the
// per-page icon sprite is measured by.
func BenchmarkPageBytes_icons(b *testing.B) {
	for _, c := range []struct {
		name string
		src  fstest.MapFS
	}{{"icons", dirFS(b, "testdata/icons")}, {"plain", dirFS(b, "testdata/fixture")}} {
		b.Run(c.name, func(b *testing.B) {
			var raw, gz, n int
			for i := 0; i < b.N; i++ {
				dir := b.TempDir()
				if _, err := New(Options{}).Export(b.Context(), Request{Source: c.src, Kind: KindCloud, Domain: "docs.example.com"}, dir, nil); err != nil {
					b.Fatal(err)
				}
				raw, gz, n = 0, 0, 0
				for _, s := range pageSizes(b, dir) {
					raw, gz, n = raw+s[0], gz+s[1], n+1
				}
			}
			b.ReportMetric(float64(raw)/float64(n), "raw-B/page")
			b.ReportMetric(float64(gz)/float64(n), "gzip-B/page")
		})
	}
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
