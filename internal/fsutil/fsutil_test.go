package fsutil

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFileAtomic_replacesAndLeavesNoTemporary(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "key")
	for _, content := range []string{"first", "second"} {
		if err := WriteFileAtomic(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(p)
		if err != nil || string(got) != content {
			t.Fatalf("read %q, %v; want %q", got, err, content)
		}
	}
	fi, err := os.Stat(p)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v; want 0600", fi.Mode(), err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("dir holds %d entries, want only the file", len(entries))
	}
	if err := WriteFileAtomic(filepath.Join(dir, "missing", "x"), nil, 0o600); err == nil {
		t.Fatal("a write into a missing directory succeeded")
	}
}

// TestSyncTree: a tree syncs; a root that is not there is an error, not
// a silent success that would let the rename publish unsynced files.
func TestSyncTree(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "a", "b", "page.html"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := SyncTree(root); err != nil {
		t.Fatalf("SyncTree: %v", err)
	}
	if err := SyncTree(filepath.Join(root, "missing")); err == nil {
		t.Fatal("SyncTree of a missing root succeeded")
	}
}
