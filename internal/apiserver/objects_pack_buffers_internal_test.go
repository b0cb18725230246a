package apiserver

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
)

// All uploads of a server share packBuffers packs in memory: with every
// buffer taken an upload waits, storing nothing, until its context ends;
// with one free it goes up pack after pack through that one, to the same
// archive, and gives back every buffer it took.
func TestPacks_uploadsShareBuffers(t *testing.T) {
	sp := packTestStore(t)
	dir := packTestSite(t, 600)
	slots := sp.buffers
	for range packBuffers {
		slots <- struct{}{}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	prefix := packPrefix("se_full", 1)
	if _, err := sp.uploadPacks(ctx, dir, prefix); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("upload with every buffer taken: %v, want it to wait until its context ends", err)
	}
	for o, err := range sp.srv.objects.List(context.Background(), prefix) {
		if err != nil {
			t.Fatal(err)
		}
		t.Fatalf("an upload without a buffer stored %s", o.Key)
	}
	<-slots
	prefix = packPrefix("se_one", 1)
	if _, err := sp.uploadPacks(context.Background(), dir, prefix); err != nil {
		t.Fatalf("upload through one buffer: %v", err)
	}
	if n := len(slots); n != packBuffers-1 {
		t.Fatalf("%d buffers taken after the upload, want the %d the test holds", n, packBuffers-1)
	}
	var want bytes.Buffer
	if err := bundle.Write(context.Background(), dir, &want, 2); err != nil {
		t.Fatal(err)
	}
	if got := archiveFrom(t, sp, prefix); !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("archive from packs uploaded through one buffer differs from the directory's")
	}
}
