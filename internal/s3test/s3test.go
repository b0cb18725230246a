// Package s3test runs a real MinIO server on 127.0.0.1 for tests of the
// object-storage tier. One server serves a whole test binary (it is live
// in about a second, but a second per test adds up); every test gets a
// fresh bucket of its own, emptied and removed when the test ends.
//
// A test binary that uses it calls Main from TestMain, which stops the
// server and removes its data once all tests have run:
//
//	func TestMain(m *testing.M) { os.Exit(s3test.Main(m)) }
//
//	func TestX(t *testing.T) {
//		b := s3test.Start(t)
//		cfg, _ := objstore.ParseURL(b.URL())
//		...
//	}
//
// The binary comes from tools/minio/build.sh (make minio), which compiles
// MinIO from the Go module proxy into a cache. Without it tests skip with
// a message saying so, except where CI is set: there they fail, so the
// tier cannot silently vanish.
package s3test

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// Environment variables that steer the package.
const (
	// EnvBin names the MinIO binary to run instead of the build cache's.
	EnvBin = "DOCSADMIN_MINIO_BIN"
	// EnvCache overrides the cache root, exactly as in tools/minio/build.sh.
	EnvCache = "DOCSADMIN_MINIO_CACHE"
)

// The server shared by the test binary, started by the first Start.
var shared struct {
	mu      sync.Mutex
	inMain  bool
	started bool
	srv     *Server
	err     error
}

// Main runs the tests and then stops the shared server, if one was
// started. Call it from TestMain and pass its result to os.Exit.
func Main(m *testing.M) int { return Wrap(m.Run) }

// Wrap is Main for a TestMain that has another wrapper to run too, such
// as pgtest.Main: run runs the tests (and whatever wraps them).
//
//	os.Exit(s3test.Wrap(func() int { return pgtest.Main(m) }))
func Wrap(run func() int) int {
	shared.mu.Lock()
	shared.inMain = true
	shared.mu.Unlock()
	code := run()
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.srv != nil {
		shared.srv.Stop()
		shared.srv = nil
	}
	return code
}

// Shared returns the binary's MinIO server, starting it on first use. A
// failed start is remembered, so later tests fail at once with the same
// message instead of waiting out the timeout again.
func Shared(t testing.TB) *Server {
	t.Helper()
	testutil.SkipShort(t, testutil.NeedsMinIO)
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if !shared.inMain {
		t.Fatal("s3test: call s3test.Main from TestMain, so that the shared MinIO server is stopped and its data removed after the tests")
	}
	if !shared.started {
		shared.started = true
		shared.srv, shared.err = StartServer()
		if shared.err == nil {
			t.Logf("s3test: MinIO live at %s after %s", shared.srv.Endpoint, shared.srv.StartupTime.Round(time.Millisecond))
		}
	}
	if errors.Is(shared.err, ErrNotBuilt) {
		if os.Getenv("CI") == "" {
			t.Skipf("s3test: %v; run tools/minio/build.sh (make minio) or set %s (where CI is set this fails)", shared.err, EnvBin)
		}
		t.Fatalf("s3test: %v; run tools/minio/build.sh (make minio) or set %s", shared.err, EnvBin)
	}
	if shared.err != nil {
		t.Fatalf("s3test: %v", shared.err)
	}
	return shared.srv
}

// Bucket is a fresh bucket on the shared server.
type Bucket struct {
	*Server
	Name string
}

var bucketSeq atomic.Int64

// Start creates a fresh, empty bucket on the shared server (starting it if
// needed) and removes it with everything in it when the test ends. If the
// test fails, the end of MinIO's log goes into the test's output.
func Start(t testing.TB) *Bucket {
	t.Helper()
	srv := Shared(t)
	suffix, err := randomHex(4)
	if err != nil {
		t.Fatal(err)
	}
	b := &Bucket{Server: srv, Name: fmt.Sprintf("test-%d-%s", bucketSeq.Add(1), suffix)}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := b.Client().CreateBucket(ctx, &s3.CreateBucketInput{Bucket: &b.Name}); err != nil {
		t.Fatalf("s3test: create bucket %s: %v\nlast lines of MinIO's log:\n%s", b.Name, err, srv.Tail())
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("s3test: last lines of MinIO's log:\n%s", srv.Tail())
		}
		if err := b.remove(); err != nil {
			t.Errorf("s3test: remove bucket %s: %v", b.Name, err)
		}
	})
	return b
}

// URL is the bucket as an --object-store value.
func (b *Bucket) URL() string {
	q := url.Values{"endpoint": {b.Endpoint}, "region": {b.Region}, "path-style": {"true"}}
	return "s3://" + b.Name + "?" + q.Encode()
}

// Credentials returns the root credentials as an SDK provider.
func (s *Server) Credentials() aws.CredentialsProvider {
	return credentials.NewStaticCredentialsProvider(s.AccessKey, s.SecretKey, "")
}

// SetEnv puts the root credentials into AWS_ACCESS_KEY_ID and
// AWS_SECRET_ACCESS_KEY for the rest of the test, for code that uses the
// standard credential chain. Like t.Setenv, it rules out t.Parallel.
func (s *Server) SetEnv(t testing.TB) {
	t.Setenv("AWS_ACCESS_KEY_ID", s.AccessKey)
	t.Setenv("AWS_SECRET_ACCESS_KEY", s.SecretKey)
	t.Setenv("AWS_SESSION_TOKEN", "")
}

// Client returns a plain SDK client with root credentials, for setting a
// scene (a bucket policy, an object written behind the code's back).
func (s *Server) Client() *s3.Client {
	return s3.New(s3.Options{
		Region:                     s.Region,
		BaseEndpoint:               aws.String(s.Endpoint),
		UsePathStyle:               true,
		Credentials:                s.Credentials(),
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenRequired,
		ResponseChecksumValidation: aws.ResponseChecksumValidationWhenRequired,
	})
}

// remove aborts unfinished uploads, deletes every object and then the
// bucket. Each loop is bounded by the listing and by a deadline.
func (b *Bucket) remove() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := b.Client()
	ups, err := c.ListMultipartUploads(ctx, &s3.ListMultipartUploadsInput{Bucket: &b.Name})
	if err != nil {
		return fmt.Errorf("list uploads: %w", err)
	}
	for _, u := range ups.Uploads {
		if _, err := c.AbortMultipartUpload(ctx, &s3.AbortMultipartUploadInput{Bucket: &b.Name, Key: u.Key, UploadId: u.UploadId}); err != nil {
			return fmt.Errorf("abort upload: %w", err)
		}
	}
	p := s3.NewListObjectsV2Paginator(c, &s3.ListObjectsV2Input{Bucket: &b.Name})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return fmt.Errorf("list objects: %w", err)
		}
		if len(page.Contents) == 0 {
			continue
		}
		ids := make([]types.ObjectIdentifier, 0, len(page.Contents))
		for _, o := range page.Contents {
			ids = append(ids, types.ObjectIdentifier{Key: o.Key})
		}
		if _, err := c.DeleteObjects(ctx, &s3.DeleteObjectsInput{Bucket: &b.Name, Delete: &types.Delete{Objects: ids, Quiet: aws.Bool(true)}}); err != nil {
			return fmt.Errorf("delete objects: %w", err)
		}
	}
	if _, err := c.DeleteBucket(ctx, &s3.DeleteBucketInput{Bucket: &b.Name}); err != nil {
		return fmt.Errorf("delete bucket: %w", err)
	}
	return nil
}
