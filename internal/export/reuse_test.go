package export

import (
	"bytes"
	"context"
	"io"
	"maps"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
)

// TestArchive_reuseMatchesFullExport: on every fixture, the archive of a
// re-export that copies unchanged entries from the previous export's
// archive is byte for byte the archive of a full export of the same
// source, after a one-page, a snippet and a docs.json change, and the
// unchanged re-export copies every entry.
func TestArchive_reuseMatchesFullExport(t *testing.T) {
	for _, tc := range reuseFixtures {
		t.Run(tc.dir, func(t *testing.T) {
			src, req := tc.request(t)
			prev, _, entries := archiveReusing(t, req, nil)
			if _, copied, _ := archiveReusing(t, req, prev); copied != entries {
				t.Fatalf("an unchanged re-export copied %d of %d entries", copied, entries)
			}
			// Three kinds of change; TestIncremental_matchesFullExport
			// makes them all, with the render record.
			for _, name := range []string{"onePage", "snippet", "docsJSON"} {
				change := incrementalChanges[name]
				t.Run(name, func(t *testing.T) {
					next := maps.Clone(src)
					if !change(next) {
						t.Skip("the fixture has nothing to change this way")
					}
					req := req
					req.Source = next
					full, _, _ := archiveReusing(t, req, nil)
					reused, copied, entries := archiveReusing(t, req, prev)
					if !bytes.Equal(full, reused) {
						t.Fatal("the archive made reusing the previous one differs from the full export's")
					}
					t.Logf("%d of %d entries copied", copied, entries)
				})
			}
		})
	}
}

// archiveReusing exports req into a spool and archives it, copying from
// prev when it is not nil; it returns the archive, the entries copied
// and the entries there are (the manifest and every file).
func archiveReusing(t *testing.T, req Request, prev []byte) ([]byte, int, int) {
	t.Helper()
	spool, err := bundle.NewSpool(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer spool.Close()
	man, err := New(Options{}).ExportTo(context.Background(), req, spool, nil)
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	if prev != nil {
		spool.ReuseArchive(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(prev)), nil })
	}
	var out bytes.Buffer
	if err := spool.WriteArchive(context.Background(), &out, 2); err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), spool.Copied(), len(man.Files) + 1
}

// appendToFirst appends text to the first file of m, in path order, that
// match accepts, reporting whether there was one.
func appendToFirst(m fstest.MapFS, match func(string) bool, text string) bool {
	for _, p := range slices.Sorted(maps.Keys(m)) {
		if match(p) {
			m[p] = &fstest.MapFile{Data: append(bytes.Clone(m[p].Data), text...)}
			return true
		}
	}
	return false
}
