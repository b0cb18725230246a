package apiserver_test

import (
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

var errDiskFull = errors.New("write state.db: no space left on device")

// failWrites makes writes number from..to (1-based, counted from now) of
// env's server fail as a full disk would, and returns the count of writes
// tried so far.
func failWrites(env *apiservertest.Env, from, to int64) *atomic.Int64 {
	var n atomic.Int64
	apiserver.FailStoreWrites(env.Server, func() error {
		if i := n.Add(1); i >= from && i <= to {
			return errDiskFull
		}
		return nil
	})
	return &n
}

// A start whose record cannot be written is answered 503 with Retry-After
// and a message, and leaves no job behind.
func TestStoreFailure_startAnswers503(t *testing.T) {
	eachBackend(t, func(t *testing.T, db apiservertest.Option) {
		env := apiservertest.Start(t, db)
		failWrites(env, 1, 1)
		r := callWith(t, "POST", env.URL+api.PathExportJobs, env.Key, api.StartExportRequest{Domain: env.Domain},
			map[string]string{api.IdempotencyHeader: "disk-full-1"})
		if r.status != http.StatusServiceUnavailable || r.header.Get("Retry-After") == "" {
			t.Fatalf("start on a full disk: %d (Retry-After %q) %s", r.status, r.header.Get("Retry-After"), r.body)
		}
		if msg := r.errorMessage(t); msg == "" {
			t.Fatal("no message")
		}
		// The retry, once the disk has room, creates the job: the refused
		// start did not record the key.
		job := env.StartExport(t, api.StartExportRequest{Domain: env.Domain})
		if got := env.WaitExport(t, job.JobID); got.Status != api.ExportCompleted {
			t.Fatalf("export after the disk recovered: %+v", got)
		}
	})
}

// The worker's writes (the job running, then completed) are retried until
// the store takes them: the job neither stays queued or running nor fails.
func TestStoreFailure_workerRetries(t *testing.T) {
	eachBackend(t, func(t *testing.T, db apiservertest.Option) {
		for _, tc := range []struct {
			name     string
			from, to int64 // the failing writes; the start is write 1
		}{
			{"start of the render", 2, 4},
			{"end of the render", 3, 5},
		} {
			t.Run(tc.name, func(t *testing.T) {
				env := apiservertest.Start(t, db)
				writes := failWrites(env, tc.from, tc.to)
				job := env.StartExport(t, api.StartExportRequest{Domain: env.Domain})
				got := env.WaitExport(t, job.JobID)
				if got.Status != api.ExportCompleted || got.PageCount == 0 {
					t.Fatalf("export through failing writes: %+v", got)
				}
				if n := writes.Load(); n <= tc.to {
					t.Fatalf("only %d writes were tried; the failing ones were not retried", n)
				}
				b := env.Bundle(t, job.JobID)
				download(t, b.BundleURL, b.SizeBytes)
			})
		}
	})
}

// A server stopped while its store refuses writes leaves the job as it
// was recorded, and the next server finishes it.
func TestStoreFailure_shutdownWhileRetrying(t *testing.T) {
	eachBackend(t, func(t *testing.T, db apiservertest.Option) {
		env := apiservertest.Start(t, db)
		writes := failWrites(env, 2, 1<<40)
		job := env.StartExport(t, api.StartExportRequest{Domain: env.Domain})
		testutil.Eventually(t, 30*time.Second, "the worker to retry its write", func() bool { return writes.Load() >= 3 })
		var queued api.ExportJob
		call(t, "GET", env.URL+api.PathExportJobs+"/"+job.JobID, env.Key, nil).decode(t, &queued)
		if queued.Status != api.ExportQueued {
			t.Fatalf("while the disk is full the job should stay queued: %+v", queued)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			env.Restart(t, nil) // the new server's store writes normally
		}()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatal("the server did not stop while its worker retried a write")
		}
		if got := env.WaitExport(t, job.JobID); got.Status != api.ExportCompleted {
			t.Fatalf("export after the restart: %+v", got)
		}
	})
}
