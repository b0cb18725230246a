package agents

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

// hashFiles hashes every regular file and counts the pages, and stops
// with errSnapshotLimit past either cap; a cancelled request stops it.
func TestHashFiles_capsAndCancel(t *testing.T) {
	src := fstest.MapFS{
		"docs.json":      {Data: []byte(`{}`)},
		"index.mdx":      {Data: []byte("# Home\n")},
		"guide/a.md":     {Data: []byte("# A\n")},
		"images/big.bin": {Data: []byte(strings.Repeat("b", 1000))},
	}
	files, pages, err := hashFiles(context.Background(), src, 10, 2000)
	sum := sha256.Sum256(src["images/big.bin"].Data)
	if err != nil || len(files) != 4 || pages != 2 || files["images/big.bin"] != hex.EncodeToString(sum[:]) {
		t.Fatalf("hashFiles = %v, %d pages, %v", files, pages, err)
	}
	for name, limits := range map[string][2]int{"files": {3, 2000}, "bytes": {10, 999}} {
		if _, _, err := hashFiles(context.Background(), src, limits[0], int64(limits[1])); !errors.Is(err, errSnapshotLimit) ||
			!strings.Contains(err.Error(), "more than the limit") {
			t.Errorf("%s over the cap: %v, want errSnapshotLimit", name, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := hashFiles(ctx, src, 10, 2000); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled snapshot: %v", err)
	}
}
