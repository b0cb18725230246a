package export

import (
	"bytes"
	"compress/gzip"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
)

// sizeFixtures are the sources of testdata the bundle's size is measured
// on: a plain site, the icon fixture, an API site, a docs repository and
// the components page.
var sizeFixtures = []string{"fixture", "icons", "apisite", "docsrepo", "components"}

// bundleSize is what an export of one source weighs.
type bundleSize struct {
	pages   int // HTML pages, the 404 page included
	archive int // bytes of the .tar.gz the server hands out
	raw, gz int // bytes of the HTML pages, raw and gzip'd one by one
	md, mdz int // bytes of the Markdown copies, raw and gzip'd one by one
}

// measureBundle exports testdata/name as the platform does (cloud kind)
// and weighs the result: the archive bundle.Write streams, as the API
// server sends it, and its HTML pages and Markdown copies.
func measureBundle(t testing.TB, name string) bundleSize {
	t.Helper()
	dir := t.TempDir()
	req := Request{Source: os.DirFS(filepath.Join("testdata", name)), Kind: KindCloud, Domain: "docs.example.com"}
	if _, err := New(Options{}).Export(context.Background(), req, dir, nil); err != nil {
		t.Fatal(err)
	}
	var tgz countingWriter
	if err := bundle.Write(context.Background(), dir, &tgz, 1); err != nil {
		t.Fatal(err)
	}
	s := bundleSize{archive: tgz.n}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		html, md := strings.HasSuffix(p, ".html"), strings.HasSuffix(p, ".md")
		if !html && !md {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		z := gzipLen(data)
		if html {
			s.pages, s.raw, s.gz = s.pages+1, s.raw+len(data), s.gz+z
		} else {
			s.md, s.mdz = s.md+len(data), s.mdz+z
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if s.pages == 0 {
		t.Fatalf("%s: no HTML page exported", name)
	}
	return s
}

// perPage is n bytes over the pages of s.
func (s bundleSize) perPage(n int) float64 { return float64(n) / float64(s.pages) }

// gzipLen is the length of data gzip'd at the best compression, as a
// server that compresses ahead of time would send it.
func gzipLen(data []byte) int {
	var z bytes.Buffer
	w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	_, _ = w.Write(data)
	_ = w.Close()
	return z.Len()
}

type countingWriter struct{ n int }

func (w *countingWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }

// BenchmarkBundleBytes_perPage reports, for each fixture, the bytes per
// HTML page of the .tar.gz and of the HTML pages, raw and gzip'd one by
// one, and of the Markdown copies: the figures by which icons and the
// Markdown copies are held to not doubling a bundle. Sizes do not depend
// on the machine's load; -benchtime=1x is enough.
func BenchmarkBundleBytes_perPage(b *testing.B) {
	for _, name := range sizeFixtures {
		b.Run(name, func(b *testing.B) {
			var s bundleSize
			for i := 0; i < b.N; i++ {
				s = measureBundle(b, name)
			}
			b.ReportMetric(float64(s.pages), "pages")
			b.ReportMetric(s.perPage(s.archive), "tgz-B/page")
			b.ReportMetric(s.perPage(s.raw), "html-B/page")
			b.ReportMetric(s.perPage(s.gz), "html-gz-B/page")
			b.ReportMetric(s.perPage(s.md), "md-B/page")
		})
	}
}

// TestBundleBytes_iconsAndCopiesDoNotDouble holds issue 21's bar on
// sizes, which do not depend on the machine: the icon fixture (icons in
// the sidebar, tabs, cards, steps…) weighs less than twice the plain
// fixture per page in the archive, and its pages gzip to less than 1.25
// times the plain ones (inline drawings made that 1.7: the sidebar's
// icons were on every page), because icons are drawn once for the site;
// and no fixture's Markdown copies weigh as much as the rest of its
// archive.
func TestBundleBytes_iconsAndCopiesDoNotDouble(t *testing.T) {
	sizes := map[string]bundleSize{}
	for _, name := range sizeFixtures {
		s := measureBundle(t, name)
		sizes[name] = s
		t.Logf("%-10s %3d pages  tgz %6.0f B/page  html %6.0f raw %5.0f gzip B/page  md %5.0f raw %5.0f gzip B/page",
			name, s.pages, s.perPage(s.archive), s.perPage(s.raw), s.perPage(s.gz), s.perPage(s.md), s.perPage(s.mdz))
		// The gzip'd copies stand for what they add to the archive.
		if s.mdz*2 >= s.archive {
			t.Errorf("%s: the Markdown copies, %d bytes gzip'd, are half or more of the %d-byte archive", name, s.mdz, s.archive)
		}
	}
	icons, plain := sizes["icons"], sizes["fixture"]
	if r := icons.perPage(icons.gz) / plain.perPage(plain.gz); r >= 1.25 {
		t.Errorf("an icon fixture page gzips to %.1f times a plain one", r)
	}
	if r := icons.perPage(icons.archive) / plain.perPage(plain.archive); r >= 2 {
		t.Errorf("the icon fixture's archive is %.1f times the plain one per page", r)
	}
}
