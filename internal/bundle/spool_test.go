package bundle

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func newTestSpool(t *testing.T) *Spool {
	t.Helper()
	s, err := NewSpool(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func readSpooled(t *testing.T, s *Spool, rel string) string {
	t.Helper()
	r, err := s.Open(rel)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Files written whole and streamed (over several chunks, in writes that
// straddle them) read back as written, from many goroutines at once; a
// whole write replaces the earlier one, as os.WriteFile does.
func TestSpool_writeAndReadBack(t *testing.T) {
	s := newTestSpool(t)
	want := map[string]string{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 20 {
				rel := fmt.Sprintf("g%d/f%d.html", g, i)
				data := strings.Repeat(fmt.Sprintf("<%d:%d>", g, i), 1+i*97)
				if i%3 == 0 {
					// Streamed in uneven writes, past a chunk for some.
					data = strings.Repeat(data, 1+i*40)
					w, err := s.Create(rel)
					if err != nil {
						t.Error(err)
						return
					}
					for rest := data; len(rest) > 0; {
						k := min(len(rest), 7919)
						if _, err := w.Write([]byte(rest[:k])); err != nil {
							t.Error(err)
							return
						}
						rest = rest[k:]
					}
					if err := w.Close(); err != nil {
						t.Error(err)
						return
					}
				} else if err := s.WriteFile(rel, []byte(data)); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				want[rel] = data
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	var total int64
	for rel, data := range want {
		if got := readSpooled(t, s, rel); got != data {
			t.Fatalf("%s reads back %d bytes, want the %d written", rel, len(got), len(data))
		}
		total += int64(len(data))
	}
	if s.Size() != total {
		t.Fatalf("spool holds %d bytes, want the %d written", s.Size(), total)
	}
	if err := s.WriteFile("g0/f1.html", []byte("again")); err != nil {
		t.Fatal(err)
	}
	if got := readSpooled(t, s, "g0/f1.html"); got != "again" {
		t.Fatalf("rewritten file reads %q", got)
	}
	if err := s.WriteFile("empty.txt", nil); err != nil {
		t.Fatal(err)
	}
	if got := readSpooled(t, s, "empty.txt"); got != "" {
		t.Fatalf("empty file reads %q", got)
	}
}

// Create refuses a file that exists or is being written, a whole write
// refuses one being streamed, unsafe names are refused, and a file that
// was never written does not open.
func TestSpool_refusals(t *testing.T) {
	s := newTestSpool(t)
	if err := s.WriteFile("a.html", []byte("a")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Create("a.html"); !errors.Is(err, os.ErrExist) {
		t.Fatalf("Create of a written file: %v, want ErrExist", err)
	}
	w, err := s.Create("b.html")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Create("b.html"); !errors.Is(err, os.ErrExist) {
		t.Fatalf("second Create of an open file: %v, want ErrExist", err)
	}
	if err := s.WriteFile("b.html", []byte("x")); err == nil {
		t.Fatal("WriteFile of a file open for writing succeeded")
	}
	if _, err := s.Open("b.html"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Open of a file still being written: %v, want ErrNotExist", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("late")); err == nil {
		t.Fatal("Write after Close succeeded")
	}
	for _, bad := range []string{"../x", "/etc/passwd", "a/../../b", "", "a\\b"} {
		if err := s.WriteFile(bad, nil); err == nil {
			t.Errorf("WriteFile(%q) succeeded", bad)
		}
		if _, err := s.Create(bad); err == nil {
			t.Errorf("Create(%q) succeeded", bad)
		}
	}
	if _, err := s.Open("missing.html"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Open of a missing file: %v", err)
	}
}

// The spool is one unlinked file: its directory is empty from the start,
// and writing after Close fails rather than losing data silently.
func TestSpool_leavesNoFile(t *testing.T) {
	dir := t.TempDir()
	s, err := NewSpool(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.WriteFile("index.html", bytes.Repeat([]byte("x"), 1<<20)); err != nil {
		t.Fatal(err)
	}
	if ents, err := os.ReadDir(dir); err != nil || len(ents) != 0 {
		t.Fatalf("spool dir holds %d entries (%v), want none", len(ents), err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if err := s.WriteFile("late.html", []byte("x")); err == nil {
		t.Fatal("WriteFile after Close succeeded")
	}
	if _, err := NewSpool(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("NewSpool in a missing directory succeeded")
	}
}

// A spool archives to exactly the bytes Write makes of the same bundle
// in a directory, as often as asked; without a manifest, or with a file
// whose size the manifest does not give, it refuses.
func TestSpool_archiveMatchesDirectory(t *testing.T) {
	dir := t.TempDir()
	s := newTestSpool(t)
	var files []File
	for i := range 300 {
		rel := fmt.Sprintf("p/%03d/index.html", i)
		data := bytes.Repeat([]byte(fmt.Sprintf("page %d ", i)), 1+i*13)
		if err := os.MkdirAll(filepath.Join(dir, "p", fmt.Sprintf("%03d", i)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := s.WriteFile(rel, data); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		files = append(files, File{Path: rel, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:])})
	}
	ctx := context.Background()
	if err := s.WriteArchive(ctx, io.Discard, 1); !errors.Is(err, errNoManifest) {
		t.Fatalf("archive without a manifest: %v", err)
	}
	// Reversed: both sides sort the list.
	rev := make([]File, len(files))
	for i, f := range files {
		rev[len(files)-1-i] = f
	}
	if err := WriteManifest(dir, &Manifest{Domain: "d", Kind: "cloud", Files: files}); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteManifest(&Manifest{Domain: "d", Kind: "cloud", Files: rev}); err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := Write(ctx, dir, &want, 2); err != nil {
		t.Fatal(err)
	}
	for range 2 { // a retried upload archives again
		var got bytes.Buffer
		if err := s.WriteArchive(ctx, &got, 2); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("spool archive is %d bytes and differs from the directory's %d", got.Len(), want.Len())
		}
	}
	if err := s.WriteFile(files[7].Path, []byte("changed")); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteArchive(ctx, io.Discard, 1); err == nil || !strings.Contains(err.Error(), "does not match the manifest") {
		t.Fatalf("archive of a file whose size changed: %v", err)
	}
}

// carryFiles is a site of n pages, page k holding text k.
func carryFiles(n int, text func(k int) string) map[string]string {
	m := map[string]string{}
	for k := range n {
		m[fmt.Sprintf("p/%03d.html", k)] = text(k)
	}
	return m
}

// spoolOf writes files into a new spool (carrying those of carry, whose
// content is not written) with its manifest, and archives it reusing
// prev when not nil.
func spoolOf(t *testing.T, files map[string]string, carry map[string]bool, prev []byte) ([]byte, []File, error) {
	t.Helper()
	s := newTestSpool(t)
	var list []File
	for p, c := range files {
		sum := sha256.Sum256([]byte(c))
		f := File{Path: p, Size: int64(len(c)), SHA256: hex.EncodeToString(sum[:])}
		list = append(list, f)
		var err error
		if carry[p] {
			err = s.Carry(f)
		} else {
			err = s.WriteFile(p, []byte(c))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := s.WriteManifest(&Manifest{Files: list}); err != nil {
		t.Fatal(err)
	}
	if prev != nil {
		s.ReuseArchive(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(prev)), nil })
	}
	var out bytes.Buffer
	err := s.WriteArchive(context.Background(), &out, 2)
	return out.Bytes(), list, err
}

// A file carried from the earlier archive, never written, makes the
// archive a spool of every file's bytes makes, as long as its group is
// copied (CopiedGroups says which are); one in a group that changed fails
// the archive with ErrCarried rather than leave it out.
func TestSpool_carry(t *testing.T) {
	before := carryFiles(200, func(k int) string { return fmt.Sprintf("<p>page %d</p>", k) })
	prev, prevList, err := spoolOf(t, before, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	after := carryFiles(200, func(k int) string { return fmt.Sprintf("<p>page %d</p>", k) })
	after["p/100.html"] = "<p>changed</p>"
	full, list, err := spoolOf(t, after, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	copied := CopiedGroups(prevList, list)
	if copied["p/100.html"] || len(copied) == 0 || len(copied) == len(list) {
		t.Fatalf("copied groups hold %d of %d files, the changed one %v", len(copied), len(list), copied["p/100.html"])
	}
	carry := map[string]bool{}
	for p := range after {
		if copied[p] {
			carry[p] = true
		}
	}
	got, _, err := spoolOf(t, after, carry, prev)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, full) {
		t.Fatal("the archive with carried files differs from the one with every file written")
	}
	carry["p/100.html"] = true // in no group the earlier archive holds
	if _, _, err := spoolOf(t, after, carry, prev); !errors.Is(err, ErrCarried) {
		t.Fatalf("carrying a changed file: %v, want ErrCarried", err)
	}
}
