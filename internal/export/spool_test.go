package export

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
)

// An export into a spool, as a server with an object store renders, makes
// the same manifest and, archived, the same bytes as an export into a
// directory: the streamed files (llms-full.txt, copied assets, air-gapped
// stylesheets) and the whole ones alike. The spool's directory holds no
// file at any point after it is made.
func TestExportTo_spoolArchiveMatchesDirectory(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  Request
	}{
		{"fixture", Request{Source: fixture(), Kind: KindCloud}},
		{"air-gapped", Request{Source: os.DirFS("testdata/airgap"), Kind: KindAirGapped}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.Domain = "docs.example.com"
			dir, want := exportTo(t, tc.req)
			var fromDir bytes.Buffer
			if err := bundle.Write(context.Background(), dir, &fromDir, 0); err != nil {
				t.Fatal(err)
			}

			scratch := t.TempDir()
			spool, err := bundle.NewSpool(scratch)
			if err != nil {
				t.Fatal(err)
			}
			defer spool.Close()
			got, err := New(Options{}).ExportTo(context.Background(), tc.req, spool, nil)
			if err != nil {
				t.Fatalf("export into a spool: %v", err)
			}
			if got.Version != want.Version || len(got.Files) != len(want.Files) {
				t.Fatalf("spool export: version %s with %d files, directory export: %s with %d", got.Version, len(got.Files), want.Version, len(want.Files))
			}
			if ents, err := os.ReadDir(scratch); err != nil || len(ents) != 0 {
				t.Fatalf("the spool's directory holds %d entries (%v), want none: the spool is unlinked", len(ents), err)
			}
			var fromSpool bytes.Buffer
			if err := spool.WriteArchive(context.Background(), &fromSpool, 2); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(fromSpool.Bytes(), fromDir.Bytes()) {
				t.Fatalf("the spool's archive (%d bytes) differs from the directory's (%d bytes)", fromSpool.Len(), fromDir.Len())
			}
		})
	}
}
