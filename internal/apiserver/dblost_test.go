package apiserver_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/pgtest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// A server that loses its database turns unready and refuses starts with
// a JSON 503 rather than half-recording them; when the database is back
// it is ready again by itself, and the job it refused can be started.
func TestDatabaseLost_unreadyThenRecovers(t *testing.T) {
	url, proxy := pgtest.Interruptible(t, pgtest.DB(t))
	env := apiservertest.Start(t, apiservertest.WithDatabase(url))
	ready := func() int { return call(t, "GET", env.URL+api.PathReadyz, "", nil).status }
	if s := ready(); s != http.StatusOK {
		t.Fatalf("readyz with the database up: %d", s)
	}
	proxy.Cut()
	testutil.Eventually(t, 30*time.Second, "readyz to fail without the database", func() bool {
		return ready() == http.StatusServiceUnavailable
	})
	r := call(t, "GET", env.URL+api.PathReadyz, "", nil)
	if msg := r.errorMessage(t); msg != "the database is unreachable" {
		t.Fatalf("readyz says %q", msg)
	}
	start := call(t, "POST", env.URL+api.PathExportJobs, env.Key, api.StartExportRequest{Domain: env.Domain})
	if start.status != http.StatusServiceUnavailable || start.header.Get("Retry-After") == "" {
		t.Fatalf("start without the database: %d %s", start.status, start.body)
	}
	start.errorMessage(t)
	proxy.Restore()
	testutil.Eventually(t, 30*time.Second, "readyz to recover with the database", func() bool {
		return ready() == http.StatusOK
	})
	job := env.StartExportAndWait(t, api.StartExportRequest{Domain: env.Domain})
	b := env.Bundle(t, job.JobID)
	download(t, b.BundleURL, b.SizeBytes)
}
