package objstore_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/objstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/s3test"
)

// failingReader yields n bytes and then an error, as a renderer that
// crashes halfway through an archive would.
type failingReader struct{ n int }

var errRender = errors.New("renderer crashed")

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n == 0 {
		return 0, errRender
	}
	k := min(len(p), f.n)
	clear(p[:k])
	f.n -= k
	return k, nil
}

// A failed multipart upload leaves neither an object nor stray parts, and
// an earlier version of the object stays as it was.
func TestStore_putFailsCleanly(t *testing.T) {
	b := s3test.Start(t)
	s := newStore(t, b, objstore.Options{PartSize: objstore.MinPartSize})
	ctx := ctxT(t)
	if _, err := s.Put(ctx, "a.tar", strings.NewReader("old"), objstore.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	_, err := s.Put(ctx, "a.tar", &failingReader{n: 12 << 20}, objstore.PutOptions{})
	if !errors.Is(err, errRender) {
		t.Fatalf("Put = %v; want the reader's error", err)
	}
	rc, _, err := s.Get(ctx, "a.tar")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(rc)
	rc.Close()
	if string(got) != "old" {
		t.Errorf("after a failed Put the object holds %d bytes; want the old 3", len(got))
	}
	ups, err := b.Client().ListMultipartUploads(ctx, &s3.ListMultipartUploadsInput{Bucket: &b.Name})
	if err != nil {
		t.Fatal(err)
	}
	if len(ups.Uploads) != 0 {
		t.Errorf("%d multipart uploads left behind; want them aborted", len(ups.Uploads))
	}
}

// cancellingReader cancels the upload's context once it has yielded n
// bytes, as a client hanging up or a replica shutting down would.
type cancellingReader struct {
	n      int
	cancel context.CancelFunc
}

func (c *cancellingReader) Read(p []byte) (int, error) {
	if c.n == 0 {
		c.cancel()
		return 0, context.Canceled
	}
	k := min(len(p), c.n)
	clear(p[:k])
	c.n -= k
	return k, nil
}

// An upload cut off by its context is still aborted: the abort does not
// use the cancelled context.
func TestStore_putCancelled(t *testing.T) {
	b := s3test.Start(t)
	s := newStore(t, b, objstore.Options{PartSize: objstore.MinPartSize})
	ctx, cancel := context.WithCancel(ctxT(t))
	defer cancel()
	_, err := s.Put(ctx, "a.tar", &cancellingReader{n: 7 << 20, cancel: cancel}, objstore.PutOptions{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Put = %v; want context.Canceled", err)
	}
	ups, err := b.Client().ListMultipartUploads(ctxT(t), &s3.ListMultipartUploadsInput{Bucket: &b.Name})
	if err != nil {
		t.Fatal(err)
	}
	if len(ups.Uploads) != 0 {
		t.Errorf("%d multipart uploads left behind; want them aborted", len(ups.Uploads))
	}
	if _, err := s.Stat(ctxT(t), "a.tar"); !errors.Is(err, objstore.ErrNotFound) {
		t.Errorf("Stat after a cancelled Put = %v; want ErrNotFound", err)
	}
}

// With IfAbsent the first upload wins, small or multipart, and a later one
// fails with ErrExists without touching the stored object.
func TestStore_putIfAbsent(t *testing.T) {
	b := s3test.Start(t)
	s := newStore(t, b, objstore.Options{PartSize: objstore.MinPartSize})
	ctx := ctxT(t)
	large := randomBytes(6<<20, 2)
	for _, tc := range []struct {
		name          string
		first, second []byte
	}{
		{"small", []byte("first"), []byte("second")},
		{"multipart", large, randomBytes(6<<20, 3)},
	} {
		key := "archives/" + tc.name
		if _, err := s.Put(ctx, key, bytes.NewReader(tc.first), objstore.PutOptions{IfAbsent: true}); err != nil {
			t.Fatalf("%s: first Put: %v", tc.name, err)
		}
		_, err := s.Put(ctx, key, bytes.NewReader(tc.second), objstore.PutOptions{IfAbsent: true})
		if !errors.Is(err, objstore.ErrExists) {
			t.Errorf("%s: second Put = %v; want ErrExists", tc.name, err)
		}
		rc, _, err := s.Get(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(rc)
		rc.Close()
		if err != nil || !bytes.Equal(got, tc.first) {
			t.Errorf("%s: the object holds %d bytes (%v); want the first upload's %d", tc.name, len(got), err, len(tc.first))
		}
	}
	ups, err := b.Client().ListMultipartUploads(ctx, &s3.ListMultipartUploadsInput{Bucket: &b.Name})
	if err != nil {
		t.Fatal(err)
	}
	if len(ups.Uploads) != 0 {
		t.Errorf("%d multipart uploads left behind by the refused upload", len(ups.Uploads))
	}
}

// Replicas racing to store the same archive: exactly one wins.
func TestStore_putIfAbsentRace(t *testing.T) {
	b := s3test.Start(t)
	s := newStore(t, b, objstore.Options{})
	ctx := ctxT(t)
	const racers = 6
	errs := make(chan error, racers)
	for i := range racers {
		go func() {
			_, err := s.Put(ctx, "archives/job-1", strings.NewReader(fmt.Sprint("replica ", i)), objstore.PutOptions{IfAbsent: true})
			errs <- err
		}()
	}
	won := 0
	for range racers {
		switch err := <-errs; {
		case err == nil:
			won++
		case !errors.Is(err, objstore.ErrExists):
			t.Errorf("a racer failed with %v; want nil or ErrExists", err)
		}
	}
	if won != 1 {
		t.Errorf("%d of %d racing uploads succeeded; want exactly 1", won, racers)
	}
}
