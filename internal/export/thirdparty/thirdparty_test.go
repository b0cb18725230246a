package thirdparty

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"strings"
	"testing"
)

// TestFiles_unchanged: the browser libraries the export ships are
// exactly what tools/vendorjs/update.sh copied from the pinned npm
// packages: every file is listed in SHA256SUMS with its hash, and nothing
// else is there.
func TestFiles_unchanged(t *testing.T) {
	sums, err := Files.ReadFile("SHA256SUMS")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]string{}
	for line := range strings.Lines(string(sums)) {
		sum, name, ok := strings.Cut(strings.TrimSpace(line), "  ")
		if !ok {
			t.Fatalf("SHA256SUMS: %q", line)
		}
		listed[name] = sum
	}
	err = fs.WalkDir(Files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == "SHA256SUMS" {
			return err
		}
		name := p
		b, err := Files.ReadFile(p)
		if err != nil {
			return err
		}
		h := sha256.Sum256(b)
		switch want, ok := listed[name]; {
		case !ok:
			t.Errorf("%s is not in SHA256SUMS: files come from tools/vendorjs/update.sh only", name)
		case want != hex.EncodeToString(h[:]):
			t.Errorf("%s differs from what update.sh copied", name)
		}
		delete(listed, name)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name := range listed {
		t.Errorf("%s is listed but missing", name)
	}
}
