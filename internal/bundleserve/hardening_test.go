package bundleserve

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// A rollback (A→B→A) while a slow request still reads the first A: the
// late clean-up of that first install must not delete the second one.
func TestServe_rollbackWhileSlowRequestReadsOldSite(t *testing.T) {
	f := newFixture(t)
	linkA := bundleOf(t, f.env).BundleURL
	first := f.srv.current.Load()
	first.mu.RLock() // a slow request still reading the first A
	released := false
	defer func() {
		if !released {
			first.mu.RUnlock()
		}
	}()

	f.setLink(t, bundleOf(t, f.env, "index", "quickstart").BundleURL)
	if err := f.srv.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	f.setLink(t, linkA)
	if err := f.srv.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	if f.srv.Version() != first.version {
		t.Fatalf("serving %s after the rollback, want %s", f.srv.Version(), first.version)
	}
	first.mu.RUnlock() // the slow request ends; the first A is retired now
	released = true
	testutil.Eventually(t, 10*time.Second, "the first install of A to be deleted", func() bool {
		_, err := os.Stat(first.dir)
		return os.IsNotExist(err)
	})
	if code, v, _ := f.fetch(t, "/quickstart"); code != http.StatusOK || v != first.version {
		t.Fatalf("after the old install was cleaned up: %d %q", code, v)
	}
}

// A site whose files vanish turns both probes red, and the next check
// fetches it again, even though link and version are unchanged.
func TestServe_missingSiteIsNoticedAndHealed(t *testing.T) {
	f := newFixture(t)
	if err := os.RemoveAll(f.srv.current.Load().dir); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/healthz", "/readyz"} {
		if code, _, body := f.fetch(t, p); code != http.StatusServiceUnavailable || !strings.Contains(body, "missing") {
			t.Fatalf("%s with the site gone: %d %s", p, code, body)
		}
	}
	if err := f.srv.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := f.fetch(t, "/quickstart"); code != http.StatusOK {
		t.Fatalf("page after healing: %d", code)
	}
	if code, _, _ := f.fetch(t, "/healthz"); code != http.StatusOK {
		t.Fatalf("healthz after healing: %d", code)
	}
}

func tarGz(t *testing.T, write func(tw *tar.Writer)) *bytes.Buffer {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	write(tw)
	_ = tw.Close() // fails for an entry left short on purpose; its header is out

	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return &buf
}

// Directory entries count against the unpack limit: an archive of nothing
// but directories cannot exhaust the inode table.
func TestUnpack_countsDirectories(t *testing.T) {
	old := maxBundleEntries
	maxBundleEntries = 10
	defer func() { maxBundleEntries = old }()
	buf := tarGz(t, func(tw *tar.Writer) {
		for i := range 11 {
			_ = tw.WriteHeader(&tar.Header{Name: fmt.Sprintf("d%d/", i), Typeflag: tar.TypeDir, Mode: 0o755})
		}
	})
	if _, err := unpack(buf, t.TempDir()); err == nil || !strings.Contains(err.Error(), "entries") {
		t.Fatalf("11 directories under a limit of 10: %v", err)
	}
}

// With the manifest first, a file it does not list is refused before it is
// written, and a file whose bytes differ is refused at its end.
func TestUnpack_verifiesWhileUnpacking(t *testing.T) {
	f := newFixture(t)
	good := fetchBytes(t, bundleOf(t, f.env).BundleURL)
	entries := readTar(t, good)
	if entries[0].name != "manifest.json" {
		t.Fatalf("first entry %s", entries[0].name)
	}
	extra := tarGz(t, func(tw *tar.Writer) {
		writeFiles(tw, entries[:1])
		_ = tw.WriteHeader(&tar.Header{Name: "huge.bin", Typeflag: tar.TypeReg, Mode: 0o644, Size: 1 << 20})
	})
	dir := t.TempDir()
	if _, err := unpack(extra, dir); err == nil || !strings.Contains(err.Error(), "not in the manifest") {
		t.Fatalf("unlisted file: %v", err)
	}
	if _, err := os.Stat(dir + "/huge.bin"); !os.IsNotExist(err) {
		t.Fatalf("unlisted file was written: %v", err)
	}
	entries[1].data = bytes.ToUpper(entries[1].data)
	bad := tarGz(t, func(tw *tar.Writer) { writeFiles(tw, entries) })
	if _, err := unpack(bad, t.TempDir()); err == nil || !strings.Contains(err.Error(), "sha256") {
		t.Fatalf("changed file: %v", err)
	}
	man, err := unpack(bytes.NewReader(good), t.TempDir())
	if err != nil || man == nil {
		t.Fatalf("good bundle: %v", err)
	}
}

type entry struct {
	name string
	data []byte
}

func fetchBytes(t *testing.T, link string) []byte {
	t.Helper()
	resp, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	if _, err := b.ReadFrom(resp.Body); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func readTar(t *testing.T, gzipped []byte) []entry {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(gzipped))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var out []entry
	for {
		hdr, err := tr.Next()
		if err != nil {
			return out
		}
		var b bytes.Buffer
		_, _ = b.ReadFrom(tr)
		out = append(out, entry{hdr.Name, b.Bytes()})
	}
}

func writeFiles(tw *tar.Writer, es []entry) {
	for _, e := range es {
		_ = tw.WriteHeader(&tar.Header{Name: e.name, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(e.data))})
		_, _ = tw.Write(e.data)
	}
}
