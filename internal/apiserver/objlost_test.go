package apiserver_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/objstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/pgtest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/s3test"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// interruptibleBucket is a fresh bucket reached through a TCP proxy the
// test can cut, so MinIO, shared by the whole test binary, keeps running.
func interruptibleBucket(t *testing.T) (apiservertest.Option, *pgtest.Proxy) {
	t.Helper()
	b := s3test.Start(t)
	endpoint, proxy := pgtest.Interruptible(t, b.Endpoint)
	q := url.Values{"endpoint": {endpoint}, "region": {b.Region}, "path-style": {"true"}}
	return apiservertest.WithObjectStore("s3://"+b.Name+"?"+q.Encode(), objstore.Options{Credentials: b.Credentials()}), proxy
}

// Losing the bucket or the database turns the server unready, with the
// cause; an export started meanwhile is refused with a JSON 503 and
// leaves nothing behind; both recover by themselves.
func TestObjectStoreLost_unreadyThenRecovers(t *testing.T) {
	bucket, bucketProxy := interruptibleBucket(t)
	dbURL, dbProxy := pgtest.Interruptible(t, pgtest.DB(t))
	env := apiservertest.Start(t, bucket, apiservertest.WithDatabase(dbURL))
	readyz := func() reply { return call(t, "GET", env.URL+api.PathReadyz, "", nil) }
	if r := readyz(); r.status != http.StatusOK {
		t.Fatalf("readyz with both up: %d %s", r.status, r.body)
	}
	for _, tc := range []struct {
		name  string
		proxy *pgtest.Proxy
		msg   string
	}{
		{"bucket", bucketProxy, "the object store is unreachable"},
		{"database", dbProxy, "the database is unreachable"},
	} {
		tc.proxy.Cut()
		testutil.Eventually(t, 30*time.Second, "readyz to fail without the "+tc.name, func() bool {
			return readyz().status == http.StatusServiceUnavailable
		})
		if msg := readyz().errorMessage(t); msg != tc.msg {
			t.Fatalf("readyz without the %s says %q", tc.name, msg)
		}
		// An idempotency key shows whether the refused start stored a
		// job: reusing it for another request would then be a conflict.
		const key = "lost-storage-start"
		start := callWith(t, "POST", env.URL+api.PathExportJobs, env.Key, api.StartExportRequest{Domain: env.Domain},
			map[string]string{api.IdempotencyHeader: key + tc.name})
		if start.status != http.StatusServiceUnavailable || start.header.Get("Retry-After") == "" {
			t.Fatalf("start without the %s: %d %s", tc.name, start.status, start.body)
		}
		start.errorMessage(t)
		tc.proxy.Restore()
		testutil.Eventually(t, 30*time.Second, "readyz to recover with the "+tc.name, func() bool {
			return readyz().status == http.StatusOK
		})
		again := callWith(t, "POST", env.URL+api.PathExportJobs, env.Key, api.StartExportRequest{Domain: env.Domain, Version: "other"},
			map[string]string{api.IdempotencyHeader: key + tc.name})
		if again.status != http.StatusAccepted {
			t.Fatalf("the refused start left a job behind: reusing its key gives %d %s", again.status, again.body)
		}
		var job api.ExportJob
		again.decode(t, &job)
		env.WaitExport(t, job.JobID)
		b := env.Bundle(t, job.JobID)
		download(t, b.BundleURL, b.SizeBytes)
	}
}

// An export whose upload meets a bucket that is down waits for it rather
// than failing: the job completes once the bucket is back.
func TestObjectStoreLost_uploadWaitsForBucket(t *testing.T) {
	bucket, proxy := interruptibleBucket(t)
	var log testutil.SyncBuffer
	env := apiservertest.Start(t, bucket, apiservertest.WithDatabase(pgtest.DB(t)),
		apiservertest.WithLogger(hclog.New(&hclog.LoggerOptions{Output: &log, Level: hclog.Info})))
	// The bucket goes away as the render starts, so its upload meets it down.
	apiserver.OnRender(env.Server, func(string) { proxy.Cut() })
	job := env.StartExport(t, api.StartExportRequest{Domain: env.Domain})
	testutil.Eventually(t, 30*time.Second, "the upload to be retried", func() bool {
		return strings.Contains(log.String(), "upload rendered site; retrying")
	})
	if got := jobOn(t, env.URL, env.Key, job.JobID); got.Status != api.ExportRunning {
		t.Fatalf("while the bucket is down: %+v, want running", got)
	}
	proxy.Restore()
	done := env.WaitExport(t, job.JobID)
	if done.Status != api.ExportCompleted {
		t.Fatalf("after the bucket came back: %+v", done)
	}
	b := env.Bundle(t, job.JobID)
	download(t, b.BundleURL, b.SizeBytes)
}
