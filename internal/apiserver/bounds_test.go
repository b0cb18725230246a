package apiserver_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
)

func startWithKey(t *testing.T, env *apiservertest.Env, key string, body any) reply {
	t.Helper()
	return callWith(t, "POST", env.URL+"/v1/static-export/jobs", env.Key, body, map[string]string{"Idempotency-Key": key})
}

func TestStartExport_idempotencyKey(t *testing.T) {
	eachBackend(t, func(t *testing.T, db apiservertest.Option) {
		env := apiservertest.Start(t, db)
		req := api.StartExportRequest{Domain: env.Domain, Version: "v1"}
		first := startWithKey(t, env, "retry-1", req)
		if first.status != http.StatusAccepted {
			t.Fatalf("first start: %d %s", first.status, first.body)
		}
		var a, b api.ExportJob
		first.decode(t, &a)
		// The same request, spelt differently, is the same body.
		again := startWithKey(t, env, "retry-1", `{"version": "v1", "domain": "DOCS.ACME.TEST"}`)
		again.decode(t, &b)
		if again.status != http.StatusAccepted || b.JobID != a.JobID {
			t.Fatalf("retried start: %d job %s, want the first job %s", again.status, b.JobID, a.JobID)
		}
		other := startWithKey(t, env, "retry-1", api.StartExportRequest{Domain: env.Domain, Version: "v2"})
		if other.status != http.StatusConflict || !strings.Contains(other.errorMessage(t), "Idempotency-Key") {
			t.Fatalf("same key, other body: %d %s", other.status, other.body)
		}
		// Keys belong to an organization: another one's key of the same name
		// starts its own job.
		o := callWith(t, "POST", env.URL+"/v1/static-export/jobs", env.OtherKey,
			api.StartExportRequest{Domain: apiservertest.OtherDomain}, map[string]string{"Idempotency-Key": "retry-1"})
		if o.status != http.StatusAccepted {
			t.Fatalf("other organization, same key name: %d %s", o.status, o.body)
		}
		// After 24 hours the key may be used afresh.
		env.WaitExport(t, a.JobID)
		env.Clock.Advance(25 * time.Hour)
		var c api.ExportJob
		later := startWithKey(t, env, "retry-1", api.StartExportRequest{Domain: env.Domain, Version: "v2"})
		later.decode(t, &c)
		if later.status != http.StatusAccepted || c.JobID == a.JobID {
			t.Fatalf("key reused after 25 h: %d %+v", later.status, c)
		}
		if r := startWithKey(t, env, "has space", req); r.status != http.StatusBadRequest {
			t.Fatalf("malformed key: %d", r.status)
		}
		// Without the header nothing changes: two starts are two jobs.
		x, y := env.StartExport(t, req), env.StartExport(t, req)
		if x.JobID == y.JobID {
			t.Fatal("two starts without a key returned one job")
		}
	})
}

func TestStartExport_activeCap(t *testing.T) {
	eachBackend(t, func(t *testing.T, db apiservertest.Option) {
		dir := t.TempDir()
		writeLargeSite(t, dir, 400)
		env := apiservertest.Start(t, db, apiservertest.WithDeployment("large.acme.test", dir),
			apiservertest.WithConfig(func(c *apiconfig.Config) { c.MaxActiveExports = 2; c.ExportWorkers = 1 }))
		a := env.StartExport(t, api.StartExportRequest{Domain: "large.acme.test"})
		env.StartExport(t, api.StartExportRequest{Domain: "large.acme.test"})
		r := call(t, "POST", env.URL+"/v1/static-export/jobs", env.Key, api.StartExportRequest{Domain: env.Domain})
		if r.status != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" || !strings.Contains(r.errorMessage(t), "queued or running") {
			t.Fatalf("third active export: %d %v %s", r.status, r.header, r.body)
		}
		// The cap is per organization.
		if o := call(t, "POST", env.URL+"/v1/static-export/jobs", env.OtherKey, api.StartExportRequest{Domain: apiservertest.OtherDomain}); o.status != http.StatusAccepted {
			t.Fatalf("other organization: %d %s", o.status, o.body)
		}
		env.WaitExport(t, a.JobID)
		env.StartExport(t, api.StartExportRequest{Domain: env.Domain}) // room again
	})
}

func TestStartExport_storedCap(t *testing.T) {
	eachBackend(t, func(t *testing.T, db apiservertest.Option) {
		env := apiservertest.Start(t, db, apiservertest.WithConfig(func(c *apiconfig.Config) { c.MaxStoredExports = 2 }))
		completedExport(t, env)
		completedExport(t, env)
		r := call(t, "POST", env.URL+"/v1/static-export/jobs", env.Key, api.StartExportRequest{Domain: env.Domain})
		if r.status != http.StatusInsufficientStorage || !strings.Contains(r.errorMessage(t), "retention") {
			t.Fatalf("third stored export: %d %s", r.status, r.body)
		}
	})
}

func TestExport_timeLimit(t *testing.T) {
	eachBackend(t, func(t *testing.T, db apiservertest.Option) {
		dir := t.TempDir()
		writeLargeSite(t, dir, 2000)
		env := apiservertest.Start(t, db, apiservertest.WithDeployment("large.acme.test", dir),
			apiservertest.WithConfig(func(c *apiconfig.Config) { c.ExportTimeout = apiconfig.Duration(20 * time.Millisecond) }))
		job := env.WaitExport(t, env.StartExport(t, api.StartExportRequest{Domain: "large.acme.test"}).JobID)
		if job.Status != api.ExportFailed || !strings.Contains(job.Error, "longer than the limit of 20ms") {
			t.Fatalf("export past its time limit: %+v", job)
		}
		if left, _ := filepath.Glob(filepath.Join(env.DataDir, "exports", job.JobID, "site*")); len(left) > 0 {
			t.Fatalf("a stopped export left files behind: %v", left)
		}
	})
}

// The sweeper deletes a job past the retention, files included, without
// anyone asking for it.
func TestJobRetention_backgroundSweep(t *testing.T) {
	eachBackend(t, func(t *testing.T, db apiservertest.Option) {
		env := apiservertest.Start(t, db, apiservertest.WithJobRetention(time.Hour))
		job := completedExport(t, env)
		dir := filepath.Join(env.DataDir, "exports", job)
		// Where the job's files are: the data dir, or the bucket.
		stored := func() bool {
			if env.ObjectStore != "" {
				return len(keys(t, bucketOf(t, env), "exports/"+job+"/")) > 0
			}
			_, err := os.Stat(dir)
			return err == nil
		}
		env.Clock.Advance(30 * time.Minute)
		if err := env.Server.Sweep(); err != nil {
			t.Fatal(err)
		}
		if !stored() {
			t.Fatal("a job within its retention was swept")
		}
		env.Clock.Advance(31 * time.Minute)
		if err := env.Server.Sweep(); err != nil {
			t.Fatal(err)
		}
		if stored() {
			t.Fatal("files of a job past its retention are still stored")
		}
	})
}
