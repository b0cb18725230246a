package objstore_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/objstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/s3test"
)

func TestMain(m *testing.M) { os.Exit(s3test.Main(m)) }

// newStore opens the test's fresh bucket through ParseURL, as the server
// will from --object-store.
func newStore(t *testing.T, b *s3test.Bucket, o objstore.Options) *objstore.Store {
	t.Helper()
	cfg, err := objstore.ParseURL(b.URL())
	if err != nil {
		t.Fatal(err)
	}
	if o.Credentials == nil {
		o.Credentials = b.Credentials()
	}
	s, err := objstore.New(context.Background(), cfg, o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// sizeless hides the reader's type, so that Put cannot learn the size
// from it: the server streams archives of unknown length.
type sizeless struct{ r io.Reader }

func (s sizeless) Read(p []byte) (int, error) { return s.r.Read(p) }

func randomBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)) //nolint:gosec // test data: reproducible, not secret
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func TestStore_roundTripSmall(t *testing.T) {
	b := s3test.Start(t)
	s := newStore(t, b, objstore.Options{})
	ctx := ctxT(t)
	body := []byte("<h1>hello</h1>\n")
	meta := map[string]string{"content-version": "v3-abc"}
	put, err := s.Put(ctx, "sites/job-1/index.html", sizeless{bytes.NewReader(body)},
		objstore.PutOptions{ContentType: "text/html", Metadata: meta})
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.Stat(ctx, "sites/job-1/index.html")
	if err != nil {
		t.Fatal(err)
	}
	if st.Size != int64(len(body)) || st.ETag != put.ETag || st.ETag == "" || st.ContentType != "text/html" ||
		st.Metadata["content-version"] != "v3-abc" {
		t.Errorf("Stat = %+v; want size %d, ETag %q, text/html and content-version v3-abc", st, len(body), put.ETag)
	}
	rc, info, err := s.Get(ctx, "sites/job-1/index.html")
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(rc)
	rc.Close()
	if err != nil || !bytes.Equal(got, body) {
		t.Fatalf("Get = %q, %v; want %q", got, err, body)
	}
	if info.Size != int64(len(body)) || info.Metadata["content-version"] != "v3-abc" {
		t.Errorf("Get info = %+v", info)
	}
	// An empty object is an object too.
	if _, err := s.Put(ctx, "empty", bytes.NewReader(nil), objstore.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	if st, err := s.Stat(ctx, "empty"); err != nil || st.Size != 0 {
		t.Errorf("Stat(empty) = %+v, %v", st, err)
	}
}

// A 17 MiB object of unknown size goes up as a four-part multipart upload
// (5 MiB parts) and comes back byte for byte.
func TestStore_roundTripLarge(t *testing.T) {
	b := s3test.Start(t)
	s := newStore(t, b, objstore.Options{PartSize: objstore.MinPartSize})
	ctx := ctxT(t)
	body := randomBytes(17<<20, 1)
	put, err := s.Put(ctx, "archives/job-1.tar.gz", sizeless{bytes.NewReader(body)},
		objstore.PutOptions{Metadata: map[string]string{"content-version": "v1"}})
	if err != nil {
		t.Fatal(err)
	}
	if put.Size != int64(len(body)) || !strings.HasSuffix(put.ETag, "-4") {
		t.Errorf("Put = %+v; want size %d and a four-part multipart ETag (…-4)", put, len(body))
	}
	st, err := s.Stat(ctx, "archives/job-1.tar.gz")
	if err != nil || st.Size != int64(len(body)) || st.Metadata["content-version"] != "v1" {
		t.Errorf("Stat = %+v, %v", st, err)
	}
	rc, _, err := s.Get(ctx, "archives/job-1.tar.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	h := sha256.New()
	n, err := io.Copy(h, rc)
	if err != nil {
		t.Fatal(err)
	}
	if want := sha256.Sum256(body); n != int64(len(body)) || !bytes.Equal(h.Sum(nil), want[:]) {
		t.Errorf("Get returned %d bytes with a different digest; want the %d bytes put", n, len(body))
	}
}

func TestStore_missing(t *testing.T) {
	b := s3test.Start(t)
	s := newStore(t, b, objstore.Options{})
	ctx := ctxT(t)
	if _, err := s.Stat(ctx, "nope"); !errors.Is(err, objstore.ErrNotFound) {
		t.Errorf("Stat(missing) = %v; want ErrNotFound", err)
	}
	if _, _, err := s.Get(ctx, "nope"); !errors.Is(err, objstore.ErrNotFound) {
		t.Errorf("Get(missing) = %v; want ErrNotFound", err)
	}
	if err := s.Delete(ctx, "nope"); err != nil {
		t.Errorf("Delete(missing) = %v; want nil, as in S3", err)
	}
}

func TestStore_badInput(t *testing.T) {
	b := s3test.Start(t)
	s := newStore(t, b, objstore.Options{})
	ctx := ctxT(t)
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"empty key", firstErr(s.Stat(ctx, "")), "empty object key"},
		{"leading slash", firstErr(s.Put(ctx, "/a", strings.NewReader("x"), objstore.PutOptions{})), "starts with a slash"},
		{"long key", s.Delete(ctx, strings.Repeat("k", 1025)), "limit is 1024"},
		{"metadata name", firstErr(s.Put(ctx, "a", strings.NewReader("x"), objstore.PutOptions{Metadata: map[string]string{"Content_Version": "1"}})), "lower-case letters"},
		{"metadata value", firstErr(s.Put(ctx, "a", strings.NewReader("x"), objstore.PutOptions{Metadata: map[string]string{"v": "é"}})), "printable ASCII"},
		{"empty prefix", secondErr(s.DeletePrefix(ctx, "")), "empty prefix"},
		{"presign too long", secondErr(s.PresignGet(ctx, "a", 8*24*time.Hour)), "outside 1s to"},
		{"presign zero", secondErr(s.PresignGet(ctx, "a", 0)), "outside 1s to"},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: error %v; want one containing %q", tc.name, tc.err, tc.want)
		}
	}
	if _, err := objstore.New(ctx, objstore.Config{Bucket: "b"}, objstore.Options{PartSize: 1 << 20}); err == nil ||
		!strings.Contains(err.Error(), "below the S3 minimum") {
		t.Errorf("New with a 1 MiB part size: %v", err)
	}
}

func firstErr[T any](_ T, err error) error  { return err }
func secondErr[T any](_ T, err error) error { return err }

// A site is the objects under its prefix: listing shows exactly them, and
// deleting the prefix removes them and nothing else.
func TestStore_listAndDeletePrefix(t *testing.T) {
	b := s3test.Start(t)
	s := newStore(t, b, objstore.Options{})
	ctx := ctxT(t)
	var want []string
	for i := range 25 {
		key := "sites/job-1/page-" + string(rune('a'+i)) + ".html"
		want = append(want, key)
		if _, err := s.Put(ctx, key, strings.NewReader(key), objstore.PutOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, key := range []string{"sites/job-10/index.html", "archives/job-1.tar.gz"} {
		if _, err := s.Put(ctx, key, strings.NewReader(key), objstore.PutOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for o, err := range s.List(ctx, "sites/job-1/") {
		if err != nil {
			t.Fatal(err)
		}
		if o.Size != int64(len(o.Key)) || o.ETag == "" {
			t.Errorf("listed %+v; want size %d and an ETag", o, len(o.Key))
		}
		got = append(got, o.Key)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("List(sites/job-1/) = %q; want %q", got, want)
	}
	n, err := s.DeletePrefix(ctx, "sites/job-1/")
	if err != nil || n != len(want) {
		t.Fatalf("DeletePrefix = %d, %v; want %d", n, err, len(want))
	}
	got = got[:0]
	for o, err := range s.List(ctx, "") {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, o.Key)
	}
	if want := []string{"archives/job-1.tar.gz", "sites/job-10/index.html"}; !slices.Equal(got, want) {
		t.Errorf("after DeletePrefix the bucket holds %q; want %q", got, want)
	}
	// Breaking off a listing early stops it.
	count := 0
	for range s.List(ctx, "") {
		count++
		break
	}
	if count != 1 {
		t.Errorf("a loop broken after one object saw %d", count)
	}
}

// A site of more than a thousand pages spans several listing pages and
// DeleteObjects batches (both limited to 1,000 keys by S3).
func TestStore_deletePrefixLargeSite(t *testing.T) {
	b := s3test.Start(t)
	s := newStore(t, b, objstore.Options{})
	ctx := ctxT(t)
	const pages = 1003
	keys := make(chan string)
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			var err error
			for k := range keys {
				if err == nil {
					_, err = s.Put(ctx, k, strings.NewReader("p"), objstore.PutOptions{})
				}
			}
			errs <- err
		}()
	}
	for i := range pages {
		keys <- fmt.Sprintf("sites/big/p%04d.html", i)
	}
	close(keys)
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Put(ctx, "sites/bigger/index.html", strings.NewReader("p"), objstore.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	listed := 0
	for _, err := range s.List(ctx, "sites/big/") {
		if err != nil {
			t.Fatal(err)
		}
		listed++
	}
	if listed != pages {
		t.Errorf("List saw %d objects; want %d", listed, pages)
	}
	n, err := s.DeletePrefix(ctx, "sites/big/")
	if err != nil || n != pages {
		t.Fatalf("DeletePrefix = %d, %v; want %d", n, err, pages)
	}
	var left []string
	for o, err := range s.List(ctx, "sites/") {
		if err != nil {
			t.Fatal(err)
		}
		left = append(left, o.Key)
	}
	if !slices.Equal(left, []string{"sites/bigger/index.html"}) {
		t.Errorf("after DeletePrefix sites/ holds %d objects (%.3q); want only sites/bigger/index.html", len(left), left)
	}
}
