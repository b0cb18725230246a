package apiserver_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export"
)

func createAgentJob(t *testing.T, env *apiservertest.Env, project string) api.AgentJob {
	t.Helper()
	r := call(t, "POST", env.URL+"/v2/agent/"+project+"/job", env.Key, map[string]string{"prompt": "document the new flag"})
	if r.status != http.StatusCreated {
		t.Fatalf("create agent job: %d %s", r.status, r.body)
	}
	var job api.AgentJob
	r.decode(t, &job)
	return job
}

func getAgentJob(t *testing.T, env *apiservertest.Env, project, id string) api.AgentJob {
	t.Helper()
	r := call(t, "GET", env.URL+"/v2/agent/"+project+"/job/"+id, env.Key, nil)
	if r.status != http.StatusOK {
		t.Fatalf("get agent job: %d %s", r.status, r.body)
	}
	var job api.AgentJob
	r.decode(t, &job)
	return job
}

func TestAgentJob_pullRequest(t *testing.T) {
	eachBackend(t, func(t *testing.T, db apiservertest.Option) {
		env := apiservertest.Start(t, db)
		job := createAgentJob(t, env, env.ProjectID)
		if job.Status != api.AgentActive || job.PRLink != nil || job.ArchivedAt != nil {
			t.Fatalf("new job: %+v", job)
		}
		if job.Source.Repository != apiservertest.Repository || job.Source.Ref == nil || *job.Source.Ref != "main" || job.Model != "reference" {
			t.Fatalf("source/model: %+v", job)
		}
		// The raw body must carry prLink and archivedAt as explicit nulls.
		raw := call(t, "GET", env.URL+"/v2/agent/"+env.ProjectID+"/job/"+job.ID, env.Key, nil)
		if !strings.Contains(string(raw.body), `"prLink":null`) || !strings.Contains(string(raw.body), `"archivedAt":null`) {
			t.Fatalf("nullable fields missing: %s", raw.body)
		}
		env.Clock.Advance(2 * time.Second)
		got := getAgentJob(t, env, env.ProjectID, job.ID)
		if got.Status != api.AgentCompleted || got.PRLink == nil || !strings.HasPrefix(*got.PRLink, apiservertest.Repository+"/pull/") {
			t.Fatalf("after 2s: %+v", got)
		}
		second := createAgentJob(t, env, env.ProjectID)
		env.Clock.Advance(2 * time.Second)
		if a, b := *got.PRLink, *getAgentJob(t, env, env.ProjectID, second.ID).PRLink; a == b {
			t.Fatalf("two jobs share pull request %s", a)
		}
	})
}

func TestAgentJob_noChangesAndFailure(t *testing.T) {
	eachBackend(t, func(t *testing.T, db apiservertest.Option) {
		env := apiservertest.Start(t, db)
		nc := createAgentJob(t, env, env.NoChangesProjectID)
		fail := createAgentJob(t, env, env.FailProjectID)
		if nc.Source.Ref != nil {
			t.Fatalf("project without branch has ref %q", *nc.Source.Ref)
		}
		env.Clock.Advance(time.Second)
		if got := getAgentJob(t, env, env.NoChangesProjectID, nc.ID); got.Status != api.AgentCompleted || got.PRLink != nil {
			t.Fatalf("no-changes job: %+v", got)
		}
		if got := getAgentJob(t, env, env.FailProjectID, fail.ID); got.Status != api.AgentFailed || got.PRLink != nil {
			t.Fatalf("failing job: %+v", got)
		}
	})
}

func TestAgentJob_rateLimit(t *testing.T) {
	eachBackend(t, func(t *testing.T, db apiservertest.Option) {
		env := apiservertest.Start(t, db, apiservertest.WithAgentJobsPerHour(3))
		for range 3 {
			createAgentJob(t, env, env.ProjectID)
			env.Clock.Advance(10 * time.Minute)
		}
		r := call(t, "POST", env.URL+"/v2/agent/"+env.ProjectID+"/job", env.Key, map[string]string{"prompt": "one more"})
		if r.status != http.StatusTooManyRequests {
			t.Fatalf("4th job in an hour: %d %s", r.status, r.body)
		}
		// The oldest job was created 30 minutes ago: it leaves the window in 30.
		ra, err := strconv.Atoi(r.header.Get("Retry-After"))
		if err != nil || ra < 29*60 || ra > 30*60 {
			t.Fatalf("Retry-After %q, want about 1800", r.header.Get("Retry-After"))
		}
		if msg := r.errorMessage(t); !strings.Contains(msg, "3 agent jobs per hour") {
			t.Fatalf("message %q", msg)
		}
		// Another project has its own budget.
		createAgentJob(t, env, env.NoChangesProjectID)
		env.Clock.Advance(time.Duration(ra) * time.Second)
		createAgentJob(t, env, env.ProjectID)
	})
}

// TestExport_bundleLifecycle follows the documented flow: start, poll,
// bundle, download; then the link expires and a new call renews it without
// archiving again.
func TestExport_bundleLifecycle(t *testing.T) {
	eachBackend(t, func(t *testing.T, db apiservertest.Option) {
		env := apiservertest.Start(t, db, apiservertest.WithBundleTTL(30*time.Minute))
		job := env.StartExport(t, api.StartExportRequest{Domain: env.Domain, Version: "2026-11-21"})
		if job.Status != api.ExportQueued || job.Progress != 0 || !strings.HasPrefix(job.JobID, "se_") || job.Version != "" {
			t.Fatalf("start: %+v", job)
		}
		final := env.WaitExport(t, job.JobID)
		if final.Status != api.ExportCompleted || final.Progress != 100 || final.PageCount == 0 || final.Error != "" {
			t.Fatalf("final: %+v", final)
		}
		b1 := env.Bundle(t, job.JobID)
		if b1.JobID != job.JobID || b1.SizeBytes <= 0 {
			t.Fatalf("bundle: %+v", b1)
		}
		if want := env.Clock.Now().Add(30 * time.Minute); b1.ExpiresAt.Sub(want).Abs() > 2*time.Second {
			t.Fatalf("expiresAt %v, want about %v", b1.ExpiresAt, want)
		}
		man := download(t, b1.BundleURL, b1.SizeBytes)
		if man.PageCount != final.PageCount || man.Label != "2026-11-21" || man.Kind != string(export.KindAirGapped) {
			t.Fatalf("manifest %+v vs job %+v", man, final)
		}
		// The content version travels through the API: the job's status and the
		// bundle response carry the manifest's version, never the label.
		if final.Version == "" || final.Version != man.Version || b1.Version != man.Version {
			t.Fatalf("versions: job %q, bundle %q, manifest %q", final.Version, b1.Version, man.Version)
		}

		if env.ObjectStore == "" {
			env.Clock.Advance(31 * time.Minute)
			r := call(t, "GET", b1.BundleURL, "", nil)
			if r.status != http.StatusForbidden || !strings.Contains(r.errorMessage(t), "expired") {
				t.Fatalf("expired link: %d %s", r.status, r.body)
			}
		} else {
			// The store judges expiry by its own clock: a link signed
			// 31 minutes ago (on the injected clock) has expired for it.
			env.Clock.Advance(-31 * time.Minute)
			old := env.Bundle(t, job.JobID)
			// Back to the store's time, plus two seconds so that the
			// next link differs from the first; a signing time that far
			// ahead is within the skew the store tolerates (15 minutes).
			env.Clock.Advance(31*time.Minute + 2*time.Second)
			r := call(t, "GET", old.BundleURL, "", nil)
			if r.status != http.StatusForbidden || !strings.Contains(string(r.body), "expired") {
				t.Fatalf("expired link: %d %s", r.status, r.body)
			}
		}
		b2 := env.Bundle(t, job.JobID)
		if b2.BundleURL == b1.BundleURL || !b2.ExpiresAt.After(b1.ExpiresAt) || b2.SizeBytes != b1.SizeBytes || b2.Version != b1.Version {
			t.Fatalf("renewed bundle %+v vs %+v", b2, b1)
		}
		download(t, b2.BundleURL, b2.SizeBytes)
		// A client that sends an empty chunked body without a content type
		// (some HTTP stacks do for a bodyless POST) is served too.
		if r := callWith(t, "POST", env.URL+"/v1/static-export/jobs/"+job.JobID+"/bundle", env.Key, chunked(""),
			map[string]string{"Content-Type": ""}); r.status != http.StatusOK {
			t.Fatalf("bundle with an empty chunked body: %d %s", r.status, r.body)
		}
		if n := env.Server.ArchivesBuilt(); n != 1 {
			t.Fatalf("archives built: %d, want 1 (a new link must not re-archive)", n)
		}
		if got := env.WaitExport(t, job.JobID); got.UpdatedAt != final.UpdatedAt {
			t.Fatalf("bundle calls changed the job: %+v", got)
		}
	})
}

func TestExport_failedJobCarriesError(t *testing.T) {
	eachBackend(t, func(t *testing.T, db apiservertest.Option) {
		env := apiservertest.Start(t, db)
		job := env.WaitExport(t, env.StartExport(t, api.StartExportRequest{Domain: env.FailDomain}).JobID)
		if job.Status != api.ExportFailed || !strings.Contains(job.Error, "docs.json") {
			t.Fatalf("broken export: %+v", job)
		}
	})
}

func TestExport_paths(t *testing.T) {
	eachBackend(t, func(t *testing.T, db apiservertest.Option) {
		env := apiservertest.Start(t, db)
		all := env.WaitExport(t, env.StartExport(t, api.StartExportRequest{Domain: env.Domain}).JobID)
		one := env.WaitExport(t, env.StartExport(t, api.StartExportRequest{Domain: env.Domain, Paths: []string{"index"}}).JobID)
		if one.Status != api.ExportCompleted || one.PageCount != 1 || all.PageCount <= 1 {
			t.Fatalf("paths export: %+v (all: %+v)", one, all)
		}
	})
}

func TestJobRetention(t *testing.T) {
	eachBackend(t, func(t *testing.T, db apiservertest.Option) {
		env := apiservertest.Start(t, db, apiservertest.WithJobRetention(24*time.Hour))
		id := completedExport(t, env)
		agent := createAgentJob(t, env, env.ProjectID)
		env.Clock.Advance(25 * time.Hour)
		if r := call(t, "GET", env.URL+"/v1/static-export/jobs/"+id, env.Key, nil); r.status != http.StatusNotFound {
			t.Fatalf("export past retention: %d", r.status)
		}
		if r := call(t, "GET", env.URL+"/v2/agent/"+env.ProjectID+"/job/"+agent.ID, env.Key, nil); r.status != http.StatusNotFound {
			t.Fatalf("agent job past retention: %d", r.status)
		}
	})
}

func TestHealthAndOpenAPI(t *testing.T) {
	eachBackend(t, func(t *testing.T, db apiservertest.Option) {
		env := apiservertest.Start(t, db)
		for _, p := range []string{"/healthz", "/readyz", "/openapi.json"} {
			if r := call(t, "GET", env.URL+p, "", nil); r.status != http.StatusOK {
				t.Fatalf("%s: %d", p, r.status)
			}
		}
	})
}
