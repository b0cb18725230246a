package bundle

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

type tarEntry struct {
	hdr  tar.Header
	data []byte
}

// readArchive unpacks a bundle in memory (test bundles are small).
func readArchive(t *testing.T, b []byte) []tarEntry {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var out []tarEntry
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tarEntry{*hdr, data})
	}
}

func writeArchive(t *testing.T, entries []tarEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		h := e.hdr
		if h.Typeflag == tar.TypeReg {
			h.Size = int64(len(e.data))
		}
		if err := tw.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(e.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// siteFiles is a small site in the shape the renderer produces: pages in
// sub-directories and shared assets, enough entries to damage one at a time.
var siteFiles = map[string]string{
	"index.html":              "<!doctype html><title>Home</title>",
	"quickstart.html":         "<!doctype html><title>Quickstart</title>",
	"guides/advanced/x.html":  "<!doctype html><title>Advanced</title>",
	"404.html":                "<!doctype html><title>Not found</title>",
	"_static/app.js":          "console.log('app')\n",
	"_static/search-index.js": "window.index=[]\n",
}

// writeSite writes siteFiles and their manifest into a fresh directory.
func writeSite(t *testing.T) (string, *Manifest) {
	t.Helper()
	dir := t.TempDir()
	m := &Manifest{Domain: "docs.example.com", Kind: "air-gapped", PageCount: 4, Features: map[string]bool{"search": true}}
	for name, body := range siteFiles {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256([]byte(body))
		m.Files = append(m.Files, File{Path: name, Size: int64(len(body)), SHA256: hex.EncodeToString(sum[:])})
	}
	if err := WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	return dir, m
}

func siteArchive(t *testing.T) (string, []byte) {
	t.Helper()
	dir, _ := writeSite(t)
	var buf bytes.Buffer
	if err := Write(context.Background(), dir, &buf, 0); err != nil {
		t.Fatal(err)
	}
	return dir, buf.Bytes()
}

func TestArchive_layout(t *testing.T) {
	dir, b := siteArchive(t)
	m, err := VerifyArchive(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("VerifyArchive: %v", err)
	}
	entries := readArchive(t, b)
	if entries[0].hdr.Name != ManifestName || len(entries) != len(m.Files)+1 {
		t.Fatalf("archive has %d entries starting with %s, want manifest.json + %d files", len(entries), entries[0].hdr.Name, len(m.Files))
	}
	for i, e := range entries {
		if !e.hdr.ModTime.Equal(archiveTime) || e.hdr.Uid != 0 || e.hdr.Gid != 0 || e.hdr.Uname != "" || e.hdr.Mode != 0o644 {
			t.Errorf("%s: header not normalised: %+v", e.hdr.Name, e.hdr)
		}
		if i > 1 && e.hdr.Name < entries[i-1].hdr.Name {
			t.Errorf("entries not sorted: %s after %s", e.hdr.Name, entries[i-1].hdr.Name)
		}
	}
	// A second call gives the same bytes.
	var again bytes.Buffer
	if err := Write(context.Background(), dir, &again, 1); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Bytes(), b) {
		t.Error("a second Write of one directory, on one worker, differs")
	}
}

func TestVerifyArchive_rejects(t *testing.T) {
	_, b := siteArchive(t)
	good := readArchive(t, b)
	mutate := func(f func([]tarEntry) []tarEntry) []byte {
		cp := append([]tarEntry(nil), good...)
		return writeArchive(t, f(cp))
	}
	tests := map[string][]byte{
		"tampered": mutate(func(es []tarEntry) []tarEntry {
			es[3].data = append([]byte("<!-- injected -->"), es[3].data...)
			return es
		}),
		"extra": mutate(func(es []tarEntry) []tarEntry {
			return append(es, tarEntry{tar.Header{Name: "evil.html", Typeflag: tar.TypeReg, Mode: 0o644}, []byte("x")})
		}),
		"missing":  mutate(func(es []tarEntry) []tarEntry { return append(es[:2:2], es[3:]...) }),
		"dotdot":   mutate(func(es []tarEntry) []tarEntry { es[2].hdr.Name = "../" + es[2].hdr.Name; return es }),
		"absolute": mutate(func(es []tarEntry) []tarEntry { es[2].hdr.Name = "/" + es[2].hdr.Name; return es }),
		"symlink": mutate(func(es []tarEntry) []tarEntry {
			es[2] = tarEntry{tar.Header{Name: es[2].hdr.Name, Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"}, nil}
			return es
		}),
		"noManifest": mutate(func(es []tarEntry) []tarEntry { return es[1:] }),
		"notGzip":    []byte("plain text"),
	}
	for name, archive := range tests {
		t.Run(name, func(t *testing.T) {
			if _, err := VerifyArchive(bytes.NewReader(archive)); err == nil {
				t.Fatal("VerifyArchive accepted a bad archive")
			}
		})
	}
}

func TestVerifyArchive_manifestLast(t *testing.T) {
	_, b := siteArchive(t)
	es := readArchive(t, b)
	moved := append(append([]tarEntry(nil), es[1:]...), es[0])
	m, err := VerifyArchive(bytes.NewReader(writeArchive(t, moved)))
	if err != nil || m.PageCount != 4 {
		t.Fatalf("manifest last: m=%v err=%v", m, err)
	}
	moved[0].data = []byte("changed")
	if _, err := VerifyArchive(bytes.NewReader(writeArchive(t, moved))); !errors.Is(err, ErrMismatch) {
		t.Fatalf("tampered file before the manifest: err = %v, want mismatch", err)
	}
}

func TestVerifyArchive_boundsEntriesBeforeManifest(t *testing.T) {
	_, b := siteArchive(t)
	es := readArchive(t, b)
	moved := append(append([]tarEntry(nil), es[1:]...), es[0])
	defer func(old int64) { maxEntrySize = old }(maxEntrySize)
	maxEntrySize = 16
	if _, err := VerifyArchive(bytes.NewReader(writeArchive(t, moved))); !errors.Is(err, ErrMismatch) {
		t.Fatalf("oversized entry before the manifest: err = %v, want mismatch", err)
	}
}

func TestVerifyDir_rejects(t *testing.T) {
	for name, damage := range map[string]func(dir string) error{
		"tampered": func(dir string) error { return os.WriteFile(filepath.Join(dir, "quickstart.html"), []byte("x"), 0o644) },
		"extra":    func(dir string) error { return os.WriteFile(filepath.Join(dir, "extra.txt"), nil, 0o644) },
		"missing":  func(dir string) error { return os.Remove(filepath.Join(dir, "_static/app.js")) },
	} {
		t.Run(name, func(t *testing.T) {
			dir, _ := writeSite(t)
			if err := damage(dir); err != nil {
				t.Fatal(err)
			}
			if _, err := VerifyDir(dir); !errors.Is(err, ErrMismatch) {
				t.Fatalf("VerifyDir = %v, want mismatch", err)
			}
		})
	}
}
