package apiserver_test

import (
	"fmt"
	"math"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
)

// The reference contract test holds our server to the real service's own
// published OpenAPI documents (testdata/reference: their structure, with
// the service's prose taken out, since everything in this repository is
// written here): a client generated from them must work
// against ours. Every operation of those documents is either implemented
// (and then exercised here: success and each documented error status) or
// listed in refNotImplemented; every response is validated by kin-openapi
// against the operation's documented statuses, content types and schemas.
// By default, where we answer a status the reference does not document,
// it must be listed in refExtensions with its reason; with --strict no
// such status may be answered at all (strictAnswers says what stands in,
// and TestStrictStatuses_matchReference covers the statuses this test
// cannot provoke).

// refDocs are the reference documents and where their server URL's path
// puts their paths on our server: the static-export and external
// documents' server is https://api.mintlify.com/v1, so its
// /static-export/jobs is our /v1/static-export/jobs; the admin document's
// server has no path.
var refDocs = []struct{ file, prefix string }{
	{"admin-openapi.json", ""},
	{"static-export-openapi.json", "/v1"},
	{"external-openapi.json", "/v1"},
}

// refNotImplemented are reference operations the server does not serve,
// with the reason.
var refNotImplemented = map[string]string{
	"POST /v1/agent/{projectId}/job":     "deprecated v1 agent API (messages, branch, model; answers a text/event-stream with X-Session-Id); superseded by /v2",
	"GET /v1/agent/{projectId}/job/{id}": "deprecated v1 agent API (session objects: haulted, haultReason, pullRequestLink); superseded by /v2",
	"GET /v1/agent/{projectId}/jobs":     "deprecated v1 agent API (paged session list); superseded by /v2",
	"POST /v1/project/preview/{projectId}": "preview deployments need branches of a repository; the reference server " +
		"has one docs source per deployment and no git",
	"POST /v1/workflow/{projectId}/{workflowSchemaId}/trigger": "automations are scheduled workflows of the hosted " +
		"service, which the reference server does not model",
}

// refExtensions are statuses our server answers by default that the
// reference does not document for the operation, each with why. Their
// bodies must still be the reference's Error schema, as JSON. An entry
// with elsewhere set is not provoked here; the named test covers it. In
// strict mode none is answered: strictAnswers says what stands in.
var refExtensions = map[string]map[int]struct{ why, elsewhere string }{
	"POST /v2/agent/{projectId}/job": {
		401: {why: "the reference says to authenticate with an admin key but lists no 401 for agent operations; ours is the same 401 the export operations document"},
		404: {why: "an unknown project, or another organization's (never 403, so existence does not leak)"},
		413: {why: "bodies over 1 MiB are refused before they are read"},
		415: {why: "a body that is not application/json"},
		503: {why: "the store could not record the job, with Retry-After"},
	},
	"GET /v2/agent/{projectId}/job/{id}": {
		401: {why: "as for creating a job"},
	},
	"POST /v2/agent/{projectId}/job/{id}/message": {
		401: {why: "as for creating a job"},
		413: {why: "as for creating a job"},
		415: {why: "as for creating a job"},
		503: {why: "as for creating a job"},
	},
	"POST /v1/static-export/jobs": {
		408: {why: "the announced body did not arrive within the read timeout", elsewhere: "timeouts_test.go"},
		409: {why: "an Idempotency-Key reused with another request (keys are our addition)"},
		413: {why: "as for creating an agent job"},
		415: {why: "as for creating an agent job"},
		429: {why: "the organization has maxActiveExports queued or running, with Retry-After"},
		503: {why: "the store could not record the job, with Retry-After"},
		507: {why: "the organization has maxStoredExports or maxStoredBytes stored"},
	},
	"POST /v1/project/update/{projectId}": {
		401: {why: "as for creating an agent job"},
		404: {why: "an unknown project, or another organization's"},
		429: {why: "the project has five updates queued or in progress, with Retry-After"},
		503: {why: "the store could not record the update, with Retry-After"},
	},
	"GET /v1/project/update-status/{statusId}": {
		401: {why: "as for creating an agent job"},
		404: {why: "an unknown status id, or another organization's update"},
	},
	"POST /v1/static-export/jobs/{jobId}/bundle": {
		500: {why: "the store could not record the archive built for a job an older server completed"},
		503: {why: "the request ended while the archive was built; the build goes on", elsewhere: "export_test.go"},
	},
}

// strictAnswers are what --strict answers instead of each status the
// reference does not document for an operation (strict.go gives the
// reasons): only statuses the reference documents, the update operations
// (which document none but their success) taking the errors their
// document lists elsewhere. 0 is no answer: the connection is closed.
// TestStrictStatuses_matchReference holds the server to this table for
// every status it can produce, TestRefContract provokes what it can.
var strictAnswers = map[string]map[int]int{
	"POST /v2/agent/{projectId}/job": {
		401: 400, 403: 400, 404: 400, 408: 400, 409: 400, 413: 400, 415: 400,
		500: 429, 503: 429, 507: 429,
	},
	"GET /v2/agent/{projectId}/job/{id}": {
		400: 404, 401: 404, 403: 404, 408: 404, 409: 404, 413: 404, 415: 404,
		429: 0, 500: 0, 503: 0, 507: 0,
	},
	"POST /v2/agent/{projectId}/job/{id}/message": {
		401: 404, 403: 404, 408: 400, 409: 400, 413: 400, 415: 400,
		500: 429, 503: 429, 507: 429,
	},
	"POST /v1/static-export/jobs": {
		404: 400, 408: 400, 409: 400, 413: 400, 415: 400,
		429: 403, 500: 403, 503: 403, 507: 403,
	},
	"GET /v1/static-export/jobs/{jobId}": {
		400: 404, 403: 404, 408: 404, 409: 404, 413: 404, 415: 404,
		429: 0, 500: 0, 503: 0, 507: 0,
	},
	"POST /v1/static-export/jobs/{jobId}/bundle": {
		400: 404, 403: 404, 408: 404, 413: 404, 415: 404,
		429: 409, 500: 409, 503: 409, 507: 409,
	},
	"POST /v1/project/update/{projectId}": {
		401: 404, 408: 400, 409: 400, 413: 400, 415: 400,
		429: 403, 500: 403, 503: 403, 507: 403,
	},
	"GET /v1/project/update-status/{statusId}": {
		401: 404, 408: 400, 409: 400, 413: 400, 415: 400,
		429: 403, 500: 403, 503: 403, 507: 403,
	},
}

// refFieldExtensions are response fields we add to reference schemas,
// described in our own openapi.json. Any other field the reference does
// not document fails the test.
var refFieldExtensions = map[string][]string{
	"StaticExportJob": {"version", "warnings"}, // the content version of the manifest; the export's warnings
	"BundleResponse":  {"version"},             // the same content version, beside the link
}

// TestRefContract runs in both modes: by default our additions are
// allowed where refFieldExtensions lists them; with --strict no answer may
// carry them.
func TestRefContract(t *testing.T) {
	t.Run("default", func(t *testing.T) { testRefContract(t, false) })
	t.Run("strict", func(t *testing.T) { testRefContract(t, true) })
}

// ourStatuses are the error statuses the server can answer on a
// reference operation, in any mode: a bad body or path (400, 404, 408,
// 413, 415), a bad key (401), a plan or an origin refused (403), a
// reused Idempotency-Key (409), a limit (429, 507), a failed store or
// bucket (500, 503).
var ourStatuses = []int{400, 401, 403, 404, 408, 409, 413, 415, 429, 500, 503, 507}

// With --strict, every status the server can produce on a reference
// operation becomes one the reference documents for that operation, as
// strictAnswers says; and the server's table of documented statuses is
// the reference's.
func TestStrictStatuses_matchReference(t *testing.T) {
	c := loadRefContract(t, true)
	documented := apiserver.StrictDocumented()
	if len(documented) != len(c.ops) {
		t.Errorf("the server knows the documented statuses of %d operations; the reference has %d we serve", len(documented), len(c.ops))
	}
	for key := range c.ops {
		allowed := c.strictAllowed(key)
		if got := slices.Sorted(slices.Values(documented[key])); !slices.Equal(got, allowed) {
			t.Errorf("%s: the server takes %v as documented, the reference %v", key, got, allowed)
		}
		for _, st := range ourStatuses {
			want, listed := strictAnswers[key][st]
			switch {
			case slices.Contains(allowed, st) && listed:
				t.Errorf("strictAnswers maps %d of %s, which the reference documents", st, key)
			case slices.Contains(allowed, st):
				want = st
			case !listed:
				t.Errorf("strictAnswers does not say what strict mode answers for %d on %s", st, key)
				continue
			}
			got, answered := apiserver.StrictStatus(key, st)
			if !answered {
				got = 0
			}
			if got != want {
				t.Errorf("strict %s: %d answered as %d, want %d", key, st, got, want)
			}
			if answered && !slices.Contains(allowed, got) {
				t.Errorf("strict %s: %d answered as %d, which the reference does not document", key, st, got)
			}
		}
	}
}

func testRefContract(t *testing.T, strict bool) {
	c := loadRefContract(t, strict)
	mode := apiservertest.Combine()
	if strict {
		mode = apiservertest.WithStrict()
	}
	// Idempotency-Key is our addition, which strict mode ignores: a
	// reused key there starts another job.
	reusedKey := http.StatusConflict
	if strict {
		reusedKey = http.StatusAccepted
	}

	// One server for the flows, one with tight limits for the 429s.
	env := apiservertest.Start(t, mode, apiservertest.WithConfig(func(cfg *apiconfig.Config) {
		cfg.Organizations[0].Projects[0].Agent.Duration = apiconfig.Duration(10 * time.Minute)
		cfg.Organizations[0].Projects[0].Agent.ArchiveAfter = apiconfig.Duration(time.Hour)
	}))
	largeDir := filepath.Join(t.TempDir(), "large")
	writeLargeSite(t, largeDir, 1500)
	limited := apiservertest.Start(t, mode, apiservertest.WithAgentJobsPerHour(2), apiservertest.WithDeployment("large.acme.test", largeDir),
		apiservertest.WithConfig(func(cfg *apiconfig.Config) { cfg.MaxActiveExports = 1 }))

	const (
		createAgent   = "POST /v2/agent/{projectId}/job"
		getAgent      = "GET /v2/agent/{projectId}/job/{id}"
		message       = "POST /v2/agent/{projectId}/job/{id}/message"
		startExport   = "POST /v1/static-export/jobs"
		getExport     = "GET /v1/static-export/jobs/{jobId}"
		bundle        = "POST /v1/static-export/jobs/{jobId}/bundle"
		triggerUpdate = "POST /v1/project/update/{projectId}"
		updateStatus  = "GET /v1/project/update-status/{statusId}"
	)
	prompt := func(p string) string { return fmt.Sprintf(`{"prompt": %q}`, p) }
	proj := map[string]string{"projectId": env.ProjectID}
	jobOf := func(id string) map[string]string { return map[string]string{"projectId": env.ProjectID, "id": id} }
	huge := prompt(strings.Repeat("a", api.MaxRequestBodyBytes))

	// Agent jobs: create, poll, follow up, until archived.
	var job api.AgentJob
	c.do(t, env, createAgent, proj, env.Key, prompt("document the new flag"), nil, 201, true).decode(t, &job)
	c.do(t, env, getAgent, jobOf(job.ID), env.Key, "", nil, 200, true)
	c.do(t, env, message, jobOf(job.ID), env.Key, prompt("and the changelog"), nil, 200, true)
	env.Clock.Advance(20 * time.Minute)
	done := c.do(t, env, getAgent, jobOf(job.ID), env.Key, "", nil, 200, true)
	if !strings.Contains(string(done.body), `"status":"completed"`) || !strings.Contains(string(done.body), `/pull/`) {
		t.Fatalf("job after its message: %s", done.body)
	}
	nc := map[string]string{"projectId": env.NoChangesProjectID}
	var ncJob api.AgentJob
	c.do(t, env, createAgent, nc, env.Key, prompt("tidy up"), nil, 201, true).decode(t, &ncJob)
	fl := map[string]string{"projectId": env.FailProjectID}
	var flJob api.AgentJob
	c.do(t, env, createAgent, fl, env.Key, prompt("break"), nil, 201, true).decode(t, &flJob)
	env.Clock.Advance(time.Second)
	c.do(t, env, getAgent, map[string]string{"projectId": env.NoChangesProjectID, "id": ncJob.ID}, env.Key, "", nil, 200, true)
	c.do(t, env, getAgent, map[string]string{"projectId": env.FailProjectID, "id": flJob.ID}, env.Key, "", nil, 200, true)
	for range 10 {
		c.do(t, env, message, jobOf(job.ID), env.Key, prompt("one more step"), nil, 200, true)
	}
	c.do(t, env, message, jobOf(job.ID), env.Key, prompt("too many waiting"), nil, 429, true)
	env.Clock.Advance(3 * time.Hour)
	archived := c.do(t, env, getAgent, jobOf(job.ID), env.Key, "", nil, 200, true)
	if !strings.Contains(string(archived.body), `"status":"archived"`) {
		t.Fatalf("job after its archive time: %s", archived.body)
	}
	c.do(t, env, message, jobOf(job.ID), env.Key, prompt("too late"), nil, 400, true)

	// Agent errors.
	c.do(t, env, createAgent, proj, env.Key, `{"prompt": ""}`, nil, 400, false)
	c.do(t, env, createAgent, proj, env.Key, `{"prompt": "x", "promt": "y"}`, nil, 400, false)
	c.do(t, env, createAgent, proj, "", prompt("x"), nil, 401, true)
	c.do(t, env, createAgent, map[string]string{"projectId": apiservertest.OtherProjectID}, env.Key, prompt("x"), nil, 404, true)
	c.do(t, env, createAgent, proj, env.Key, huge, nil, 413, false)
	c.do(t, env, createAgent, proj, env.Key, prompt("x"), map[string]string{"Content-Type": "text/plain"}, 415, false)
	c.do(t, env, getAgent, jobOf("aj_0000000000000000"), env.Key, "", nil, 404, true)
	c.do(t, env, getAgent, map[string]string{"projectId": env.FailProjectID, "id": job.ID}, env.Key, "", nil, 404, true)
	c.do(t, env, getAgent, jobOf(job.ID), env.OtherKey, "", nil, 404, true)
	c.do(t, env, getAgent, jobOf(job.ID), "", "", nil, 401, true)
	c.do(t, env, message, jobOf(ncJob.ID), env.Key, `{"prompt": ""}`, nil, 400, false)
	c.do(t, env, message, jobOf(ncJob.ID), env.Key, `{"prompt": "x", "prompt": "y"}`, nil, 400, false)
	c.do(t, env, message, jobOf("aj_0000000000000000"), env.Key, prompt("x"), nil, 404, true)
	c.do(t, env, message, jobOf(job.ID), env.OtherKey, prompt("x"), nil, 404, true)
	c.do(t, env, message, jobOf(job.ID), "", prompt("x"), nil, 401, true)
	c.do(t, env, message, jobOf(job.ID), env.Key, huge, nil, 413, false)
	c.do(t, env, message, jobOf(job.ID), env.Key, prompt("x"), map[string]string{"Content-Type": "text/plain"}, 415, false)

	// The hourly limit, shared by jobs and messages.
	lproj := map[string]string{"projectId": limited.ProjectID}
	var lJob api.AgentJob
	c.do(t, limited, createAgent, lproj, limited.Key, prompt("first"), nil, 201, true).decode(t, &lJob)
	c.do(t, limited, message, map[string]string{"projectId": limited.ProjectID, "id": lJob.ID}, limited.Key, prompt("second"), nil, 200, true)
	c.do(t, limited, createAgent, lproj, limited.Key, prompt("third"), nil, 429, true)
	c.do(t, limited, message, map[string]string{"projectId": limited.ProjectID, "id": lJob.ID}, limited.Key, prompt("third"), nil, 429, true)

	// Static exports: start, poll through to completed and failed, bundle.
	var exp api.ExportJob
	c.do(t, env, startExport, nil, env.Key, fmt.Sprintf(`{"domain": %q, "version": "2026-11-23", "paths": ["index"]}`, env.Domain), nil, 202, true).decode(t, &exp)
	c.do(t, env, getExport, map[string]string{"jobId": exp.JobID}, env.Key, "", nil, 200, true)
	env.WaitExport(t, exp.JobID)
	c.do(t, env, getExport, map[string]string{"jobId": exp.JobID}, env.Key, "", nil, 200, true)
	var b api.Bundle
	c.do(t, env, bundle, map[string]string{"jobId": exp.JobID}, env.Key, "", nil, 200, true).decode(t, &b)
	download(t, b.BundleURL, b.SizeBytes)
	var failed api.ExportJob
	c.do(t, env, startExport, nil, env.Key, fmt.Sprintf(`{"domain": %q}`, env.FailDomain), nil, 202, true).decode(t, &failed)
	env.WaitExport(t, failed.JobID)
	c.do(t, env, getExport, map[string]string{"jobId": failed.JobID}, env.Key, "", nil, 200, true)
	c.do(t, env, bundle, map[string]string{"jobId": failed.JobID}, env.Key, "", nil, 409, true)

	// Export errors.
	c.do(t, env, startExport, nil, env.Key, `{"domain": "https://docs.acme.test/"}`, nil, 400, true)
	c.do(t, env, startExport, nil, env.Key, `{}`, nil, 400, false)
	c.do(t, env, startExport, nil, "", fmt.Sprintf(`{"domain": %q}`, env.Domain), nil, 401, true)
	c.do(t, env, startExport, nil, env.ProKey, `{"domain": "docs.beta.test"}`, nil, 403, true)
	c.do(t, env, startExport, nil, env.Key, `{"domain": "`+strings.Repeat("a", api.MaxRequestBodyBytes)+`"}`, nil, 413, false)
	c.do(t, env, startExport, nil, env.Key, fmt.Sprintf(`{"domain": %q}`, env.Domain), map[string]string{"Content-Type": "text/plain"}, 415, false)
	idem := map[string]string{api.IdempotencyHeader: "contract-1"}
	c.do(t, env, startExport, nil, env.Key, fmt.Sprintf(`{"domain": %q, "paths": ["index"]}`, env.Domain), idem, 202, true)
	c.do(t, env, startExport, nil, env.Key, fmt.Sprintf(`{"domain": %q}`, env.Domain), idem, reusedKey, true)
	c.do(t, env, getExport, map[string]string{"jobId": "se_0123456789abcdef"}, env.Key, "", nil, 404, true)
	c.do(t, env, getExport, map[string]string{"jobId": exp.JobID}, env.OtherKey, "", nil, 404, true)
	c.do(t, env, getExport, map[string]string{"jobId": exp.JobID}, "", "", nil, 401, true)
	c.do(t, env, bundle, map[string]string{"jobId": "se_0123456789abcdef"}, env.Key, "", nil, 404, true)
	c.do(t, env, bundle, map[string]string{"jobId": exp.JobID}, "", "", nil, 401, true)

	// maxActiveExports: a large export keeps the one slot while the next
	// start is refused.
	var large api.ExportJob
	c.do(t, limited, startExport, nil, limited.Key, `{"domain": "large.acme.test"}`, nil, 202, true).decode(t, &large)
	c.do(t, limited, startExport, nil, limited.Key, fmt.Sprintf(`{"domain": %q}`, limited.Domain), nil, 429, true)
	c.do(t, limited, getExport, map[string]string{"jobId": large.JobID}, limited.Key, "", nil, 200, true)

	// Documentation updates: queued, then (updates_test.go has the steps) success; a
	// project without a deployment fails; five running are the limit.
	var upd api.TriggerUpdateResponse
	c.do(t, env, triggerUpdate, proj, env.Key, "", nil, 202, true).decode(t, &upd)
	status := map[string]string{"statusId": upd.StatusID}
	c.do(t, env, updateStatus, status, env.Key, "", nil, 200, true)
	env.Clock.Advance(10 * time.Second)
	endedUpdate(t, env, upd.StatusID) // its build check runs after the trigger has answered
	var st api.UpdateStatus
	if c.do(t, env, updateStatus, status, env.Key, "", nil, 200, true).decode(t, &st); st.Status != api.UpdateSuccess || st.EndedAt == nil {
		t.Fatalf("update after its build time: %+v", st)
	}
	var failedUpd api.TriggerUpdateResponse
	c.do(t, env, triggerUpdate, fl, env.Key, "", nil, 202, true).decode(t, &failedUpd)
	env.Clock.Advance(time.Minute)
	c.do(t, env, updateStatus, map[string]string{"statusId": failedUpd.StatusID}, env.Key, "", nil, 200, true)
	for range 5 {
		c.do(t, env, triggerUpdate, proj, env.Key, "", nil, 202, true)
	}
	c.do(t, env, triggerUpdate, proj, env.Key, "", nil, 429, true)
	c.do(t, env, triggerUpdate, proj, "", "", nil, 401, true)
	c.do(t, env, triggerUpdate, map[string]string{"projectId": apiservertest.OtherProjectID}, env.Key, "", nil, 404, true)
	c.do(t, env, updateStatus, status, env.OtherKey, "", nil, 404, true)
	c.do(t, env, updateStatus, map[string]string{"statusId": "upd_0123456789abcdef"}, env.Key, "", nil, 404, true)
	c.do(t, env, updateStatus, status, "", "", nil, 401, true)

	// A bad key, not only a missing one.
	c.do(t, env, createAgent, proj, "dak_notakeyofthisserver0", prompt("x"), nil, 401, true)
	c.do(t, env, getAgent, jobOf(job.ID), "dak_notakeyofthisserver0", "", nil, 401, true)

	// A store that cannot write (a full disk): every write the API does
	// is refused, and what strict mode answers instead is documented.
	// No export is rendering now, so no worker's write is struck.
	var second api.ExportJob
	c.do(t, env, startExport, nil, env.Key, fmt.Sprintf(`{"domain": %q}`, env.Domain), nil, 202, true).decode(t, &second)
	env.WaitExport(t, second.JobID)
	// Only a job an older server completed has its archive built, and
	// its size recorded, by a bundle call.
	if err := apiserver.AsOlderServerLeftIt(env.Server, second.JobID); err != nil {
		t.Fatal(err)
	}
	storeFails := func(call func()) {
		t.Helper()
		failWrites(env, 1, math.MaxInt64)
		defer apiserver.FailStoreWrites(env.Server, func() error { return nil })
		call()
	}
	storeFails(func() { c.do(t, env, createAgent, proj, env.Key, prompt("on a full disk"), nil, 503, true) })
	storeFails(func() { c.do(t, env, message, jobOf(ncJob.ID), env.Key, prompt("on a full disk"), nil, 503, true) })
	storeFails(func() {
		c.do(t, env, startExport, nil, env.Key, fmt.Sprintf(`{"domain": %q}`, env.Domain), nil, 503, true)
	})
	storeFails(func() { c.do(t, env, bundle, map[string]string{"jobId": second.JobID}, env.Key, "", nil, 500, true) })
	storeFails(func() { c.do(t, env, triggerUpdate, nc, env.Key, "", nil, 503, true) })

	// maxStoredExports: a second export is refused while the first is kept.
	stored := apiservertest.Start(t, mode, apiservertest.WithConfig(func(cfg *apiconfig.Config) { cfg.MaxStoredExports = 1 }))
	c.do(t, stored, startExport, nil, stored.Key, fmt.Sprintf(`{"domain": %q}`, stored.Domain), nil, 202, true)
	c.do(t, stored, startExport, nil, stored.Key, fmt.Sprintf(`{"domain": %q}`, stored.Domain), nil, 507, true)

	// What a v1 agent client sees: the JSON 404 of an unknown path.
	for key := range refNotImplemented {
		method, pattern, _ := strings.Cut(key, " ")
		r := call(t, method, env.URL+api.FillPath(pattern, map[string]string{"projectId": env.ProjectID, "id": job.ID, "workflowSchemaId": "wf_1"}), env.Key, nil)
		if r.status != http.StatusNotFound || !strings.Contains(r.errorMessage(t), "no such endpoint") {
			t.Errorf("%s (not implemented): %d %s", key, r.status, r.body)
		}
	}

	c.checkCoverage(t, strict)
}
