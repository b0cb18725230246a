package apiserver_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

const testControlToken = "ctl-0123456789abcdef-token"

// controlEnv starts a reference server with the control plane on.
func controlEnv(t *testing.T, opts ...apiservertest.Option) *apiservertest.Env {
	t.Helper()
	return apiservertest.Start(t, append([]apiservertest.Option{apiservertest.WithControlToken(testControlToken)}, opts...)...)
}

// ctl sends one control plane request with the control token.
func ctl(t *testing.T, env *apiservertest.Env, method, path string, body any, want int) reply {
	t.Helper()
	r := call(t, method, env.URL+path, testControlToken, body)
	if r.status != want {
		t.Fatalf("%s %s: status %d, want %d: %s", method, path, r.status, want, r.body)
	}
	return r
}

// fill puts values into a path pattern.
func fill(pattern string, kv ...string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return api.FillPath(pattern, m)
}

func TestControl_absentWithoutToken(t *testing.T) {
	env := apiservertest.Start(t)
	for _, rt := range apiserver.ControlRoutes() {
		path := fill(rt.Pattern, "id", "x", "jobId", "se_0123456789abcdef", "projectId", "p")
		for _, key := range []string{"", testControlToken, env.Key} {
			r := call(t, rt.Method, env.URL+path, key, nil)
			if r.status != http.StatusNotFound {
				t.Errorf("%s %s without a control plane: %d, want 404", rt.Method, path, r.status)
				continue
			}
			if msg := r.errorMessage(t); !strings.Contains(msg, "no such endpoint") {
				t.Errorf("%s %s: %q is not the 404 of any unknown path", rt.Method, path, msg)
			}
		}
	}
}

func TestControl_credentialsDoNotCrossOver(t *testing.T) {
	env := controlEnv(t)
	for _, key := range []string{"", env.Key, testControlToken + "x", "Basic abc"} {
		r := call(t, http.MethodGet, env.URL+api.PathControlClock, key, nil)
		if r.status != http.StatusUnauthorized || r.header.Get("WWW-Authenticate") == "" {
			t.Errorf("control plane with %q: %d (WWW-Authenticate %q), want 401 with a challenge", key, r.status, r.header.Get("WWW-Authenticate"))
		}
	}
	r := call(t, http.MethodGet, env.URL+fill(api.PathExportJob, "jobId", "se_0123456789abcdef"), testControlToken, nil)
	if r.status != http.StatusUnauthorized {
		t.Errorf("admin API with the control token: %d, want 401", r.status)
	}
	// A token that is also an admin key is refused at start.
	_, err := apiserver.New(t.Context(), apiserver.Options{
		Config: apiserver.DemoConfig(env.Key), DataDir: t.TempDir(), PublicURL: "http://127.0.0.1:1", ControlToken: env.Key,
	})
	if err == nil || !strings.Contains(err.Error(), "also an admin key") {
		t.Errorf("control token equal to an admin key: %v", err)
	}
}

func TestControl_clock(t *testing.T) {
	env := controlEnv(t)
	var c api.ControlClock
	ctl(t, env, http.MethodGet, api.PathControlClock, nil, 200).decode(t, &c)
	if c.Frozen || time.Since(c.Now) > time.Minute || time.Until(c.Now) > time.Minute {
		t.Fatalf("clock at start: %+v", c)
	}
	at := time.Date(2030, 5, 1, 12, 0, 0, 0, time.UTC)
	ctl(t, env, http.MethodPost, api.PathControlClock, map[string]any{"now": at, "frozen": true}, 200).decode(t, &c)
	if !c.Now.Equal(at) || !c.Frozen {
		t.Fatalf("after set: %+v", c)
	}
	var n api.ControlClock
	ctl(t, env, http.MethodPost, api.PathControlClockAdvance, map[string]string{"by": "90m"}, 200).decode(t, &n)
	if want := at.Add(90 * time.Minute); !n.Now.Equal(want) || !n.Frozen {
		t.Fatalf("advance: %+v, want %s, still frozen", n, want)
	}

	// A link past its expiry answers 403 at once; a new link works.
	job := completedExport(t, env)
	b := env.Bundle(t, job)
	if !b.ExpiresAt.Equal(at.Add(90 * time.Minute).Add(time.Hour)) {
		t.Errorf("link expires %s: not on the frozen clock", b.ExpiresAt)
	}
	ctl(t, env, http.MethodPost, api.PathControlClockAdvance, map[string]string{"by": "61m"}, 200)
	if r := call(t, http.MethodGet, b.BundleURL, "", nil); r.status != http.StatusForbidden || !strings.Contains(r.errorMessage(t), "expired") {
		t.Fatalf("expired link: %d %s", r.status, r.body)
	}
	b = env.Bundle(t, job)
	download(t, b.BundleURL, b.SizeBytes)

	// Agent jobs follow the clock (proj_docs: 2s, pull request).
	var aj api.AgentJob
	call(t, http.MethodPost, env.URL+fill(api.PathAgentJobs, "projectId", env.ProjectID), env.Key, map[string]string{"prompt": "p"}).decode(t, &aj)
	ctl(t, env, http.MethodPost, api.PathControlClockAdvance, map[string]string{"by": "3s"}, 200)
	call(t, http.MethodGet, env.URL+fill(api.PathAgentJob, "projectId", env.ProjectID, "id", aj.ID), env.Key, nil).decode(t, &aj)
	if aj.Status != api.AgentCompleted {
		t.Errorf("agent job after its duration: %s", aj.Status)
	}

	ctl(t, env, http.MethodPost, api.PathControlClock, map[string]any{"frozen": false}, 200).decode(t, &c)
	if c.Frozen {
		t.Error("still frozen")
	}
	wantBadRequests(t, env.URL+api.PathControlClockAdvance, `{"by": "-1m"}`, `{"by": "soon"}`, `{"by": "1m", "by": "2m"}`, `{"By": "1m"}`, `{"by": 60}`)
}

func TestControl_reset(t *testing.T) {
	env := controlEnv(t)
	job := completedExport(t, env)
	link := env.Bundle(t, job)
	ctl(t, env, http.MethodPost, api.PathControlFaults, map[string]any{"path": "/healthz"}, 201)
	ctl(t, env, http.MethodPost, api.PathControlClockAdvance, map[string]string{"by": "24h"}, 200)

	// One organization: the other's jobs stay.
	otherJob := call(t, http.MethodPost, env.URL+api.PathExportJobs, env.OtherKey, map[string]string{"domain": apiservertest.OtherDomain})
	var oj api.ExportJob
	otherJob.decode(t, &oj)
	ctl(t, env, http.MethodPost, api.PathControlReset, map[string]string{"organization": "acme"}, 204)
	if r := call(t, http.MethodGet, env.URL+fill(api.PathExportJob, "jobId", job), env.Key, nil); r.status != 404 {
		t.Errorf("acme's job after acme's reset: %d", r.status)
	}
	if r := call(t, http.MethodGet, env.URL+fill(api.PathExportJob, "jobId", oj.JobID), env.OtherKey, nil); r.status != 200 {
		t.Errorf("other's job after acme's reset: %d", r.status)
	}
	if r := call(t, http.MethodGet, link.BundleURL, "", nil); r.status != http.StatusForbidden {
		t.Errorf("link of a reset job: %d, want 403", r.status)
	}
	ctl(t, env, http.MethodPost, api.PathControlReset, map[string]string{"organization": "nobody"}, 404)

	// Everything.
	ctl(t, env, http.MethodPost, api.PathControlReset, nil, 204)
	var faults api.ControlFaults
	ctl(t, env, http.MethodGet, api.PathControlFaults, nil, 200).decode(t, &faults)
	var journal api.ControlJournal
	ctl(t, env, http.MethodGet, api.PathControlRequests, nil, 200).decode(t, &journal)
	var c api.ControlClock
	ctl(t, env, http.MethodGet, api.PathControlClock, nil, 200).decode(t, &c)
	if len(faults.Faults) != 0 || len(journal.Requests) != 0 || time.Until(c.Now) > time.Hour {
		t.Errorf("after reset: %d faults, %d journaled, clock %s", len(faults.Faults), len(journal.Requests), c.Now)
	}
	if r := call(t, http.MethodGet, env.URL+fill(api.PathExportJob, "jobId", oj.JobID), env.OtherKey, nil); r.status != 404 {
		t.Errorf("other's job after a full reset: %d", r.status)
	}
	// The server works on after a reset.
	completedExport(t, env)
}

func TestControl_faults(t *testing.T) {
	env := controlEnv(t)
	var f api.ControlFaultState
	ctl(t, env, http.MethodPost, api.PathControlFaults, map[string]any{
		"method": "POST", "path": "/v1/static-export/jobs*", "status": 503, "retryAfter": "2s", "times": 2,
	}, 201).decode(t, &f)
	start := map[string]string{"domain": env.Domain}
	for i := range 2 {
		r := call(t, http.MethodPost, env.URL+api.PathExportJobs, env.Key, start)
		if r.status != 503 || r.header.Get("Retry-After") != "2" || !strings.Contains(r.errorMessage(t), "injected") {
			t.Fatalf("start %d under the fault: %d Retry-After %q", i, r.status, r.header.Get("Retry-After"))
		}
	}
	if r := call(t, http.MethodPost, env.URL+api.PathExportJobs, env.Key, start); r.status != 202 {
		t.Fatalf("start after the fault's 2 times: %d %s", r.status, r.body)
	}
	// A GET is not a POST: the method filter holds.
	var faults api.ControlFaults
	ctl(t, env, http.MethodGet, api.PathControlFaults, nil, 200).decode(t, &faults)
	if len(faults.Faults) != 0 {
		t.Errorf("a used-up fault is still listed: %+v", faults)
	}

	// reset closes the connection without an answer. A fresh connection:
	// net/http retries a GET that failed on a reused one.
	ctl(t, env, http.MethodPost, api.PathControlFaults, map[string]any{"path": "/healthz", "reset": true, "times": 1}, 201)
	fresh := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	if resp, err := fresh.Get(env.URL + "/healthz"); err == nil {
		resp.Body.Close()
		t.Fatalf("reset fault: got an answer %d", resp.StatusCode)
	}
	// delay only delays.
	ctl(t, env, http.MethodPost, api.PathControlFaults, map[string]any{"path": "/healthz", "delay": "300ms", "times": 1}, 201)
	began := time.Now()
	if r := call(t, http.MethodGet, env.URL+"/healthz", "", nil); r.status != 200 || time.Since(began) < 300*time.Millisecond {
		t.Errorf("delay fault: %d after %s", r.status, time.Since(began))
	}

	// Bundle downloads, scoped by the job's organization; listed and deleted.
	job := completedExport(t, env)
	b := env.Bundle(t, job)
	ctl(t, env, http.MethodPost, api.PathControlFaults, map[string]any{"path": "/bundles/*", "status": 500, "organization": "other"}, 201)
	download(t, b.BundleURL, b.SizeBytes) // another organization's fault
	ctl(t, env, http.MethodPost, api.PathControlFaults, map[string]any{"path": "/bundles/*", "status": 500, "error": "disk on fire", "organization": "acme", "ttl": "1m"}, 201).decode(t, &f)
	if r := call(t, http.MethodGet, b.BundleURL, "", nil); r.status != 500 || r.errorMessage(t) != "disk on fire" {
		t.Fatalf("download under acme's fault: %d %s", r.status, r.body)
	}
	ctl(t, env, http.MethodGet, api.PathControlFaults, nil, 200).decode(t, &faults)
	if len(faults.Faults) != 2 || faults.Faults[1].ID != f.ID || faults.Faults[1].Hits != 1 || faults.Faults[1].ExpiresAt == nil {
		t.Fatalf("faults: %+v", faults)
	}
	ctl(t, env, http.MethodDelete, fill(api.PathControlFault, "id", f.ID), nil, 204)
	ctl(t, env, http.MethodDelete, fill(api.PathControlFault, "id", f.ID), nil, 404)
	download(t, b.BundleURL, b.SizeBytes)

	wantBadRequests(t, env.URL+api.PathControlFaults,
		`{}`, `{"path": "v1"}`, `{"path": "/x", "status": 200}`, `{"path": "/x", "reset": true, "status": 503}`,
		`{"path": "/x", "delay": "1h"}`, `{"path": "/x", "times": -1}`, `{"path": "/x", "ttl": "soon"}`,
		`{"path": "/x", "method": "get"}`, `{"path": "/x", "colour": "red"}`, `{"path": "/_control/v1/clock"}`)
	ctl(t, env, http.MethodPost, api.PathControlFaults, map[string]any{"path": "/x", "organization": "nobody"}, 404)
}

func TestControl_journal(t *testing.T) {
	env := controlEnv(t)
	job := completedExport(t, env)
	b := env.Bundle(t, job)
	download(t, b.BundleURL, b.SizeBytes)
	call(t, http.MethodGet, env.URL+"/healthz", "", nil)
	call(t, http.MethodGet, env.URL+fill(api.PathExportJob, "jobId", job), env.OtherKey, nil) // another organization: 404
	call(t, http.MethodGet, env.URL+api.PathControlClock, testControlToken, nil)              // not journaled

	var all api.ControlJournal
	raw := ctl(t, env, http.MethodGet, api.PathControlRequests, nil, 200)
	raw.decode(t, &all)
	u, _ := url.Parse(b.BundleURL)
	for _, secret := range []string{env.Key, env.OtherKey, testControlToken, u.Query().Get("signature"),
		strings.TrimPrefix(env.Key, "dak_"), strings.TrimPrefix(env.OtherKey, "dak_")} {
		if strings.Contains(string(raw.body), secret) {
			t.Fatalf("the journal holds a secret %q: %s", secret, raw.body)
		}
	}
	var start, dl *api.ControlRequest
	for i, e := range all.Requests {
		if strings.HasPrefix(e.Path, api.ControlPrefix) {
			t.Errorf("control request journaled: %+v", e)
		}
		switch {
		case e.Method == "POST" && e.Path == api.PathExportJobs:
			start = &all.Requests[i]
		case strings.HasPrefix(e.Path, "/bundles/"):
			dl = &all.Requests[i]
		}
	}
	if start == nil || dl == nil {
		t.Fatalf("journal lacks the start or the download: %+v", all.Requests)
	}
	if start.Status != 202 || start.Organization != "acme" || start.Headers["Authorization"] != "Bearer REDACTED" ||
		!strings.Contains(start.Body, env.Domain) || start.BodyBytes != int64(len(start.Body)) {
		t.Errorf("start entry: %+v", start)
	}
	if dl.Status != 200 || dl.Organization != "acme" || !strings.Contains(dl.Query, "signature=REDACTED") || !strings.Contains(dl.Query, "expires=") {
		t.Errorf("download entry: %+v", dl)
	}

	var some api.ControlJournal
	ctl(t, env, http.MethodGet, api.PathControlRequests+"?organization=other", nil, 200).decode(t, &some)
	if len(some.Requests) != 1 || some.Requests[0].Status != 404 {
		t.Errorf("other's requests: %+v", some.Requests)
	}
	ctl(t, env, http.MethodGet, api.PathControlRequests+"?method=get&path=/v1/static-export/jobs/*&limit=1", nil, 200).decode(t, &some)
	if len(some.Requests) != 1 || some.Requests[0].Organization != "other" {
		t.Errorf("newest GET of a job: %+v", some.Requests)
	}
	for _, q := range []string{"?limit=0", "?limit=x", "?colour=red"} {
		ctl(t, env, http.MethodGet, api.PathControlRequests+q, nil, 400).errorMessage(t)
	}
	ctl(t, env, http.MethodDelete, api.PathControlRequests, nil, 204)
	ctl(t, env, http.MethodGet, api.PathControlRequests, nil, 200).decode(t, &some)
	if len(some.Requests) != 0 {
		t.Errorf("after DELETE: %+v", some.Requests)
	}
}

func TestControl_journalIsBounded(t *testing.T) {
	env := controlEnv(t, apiservertest.WithConfig(func(c *apiconfig.Config) { c.Control.JournalSize = 3 }))
	for range 5 {
		call(t, http.MethodGet, env.URL+"/healthz", "", nil)
	}
	call(t, http.MethodGet, env.URL+"/readyz", "", nil)
	var j api.ControlJournal
	ctl(t, env, http.MethodGet, api.PathControlRequests, nil, 200).decode(t, &j)
	if len(j.Requests) != 3 || j.Requests[2].Path != "/readyz" {
		t.Fatalf("journal of 3: %+v", j.Requests)
	}
}

func TestControl_exportState(t *testing.T) {
	env := controlEnv(t)
	job := completedExport(t, env)
	state := fill(api.PathControlExportState, "jobId", job)
	get := func() api.ExportJob {
		var j api.ExportJob
		call(t, http.MethodGet, env.URL+fill(api.PathExportJob, "jobId", job), env.Key, nil).decode(t, &j)
		return j
	}
	ctl(t, env, http.MethodPost, state, map[string]any{"status": "running", "progress": 40}, 200)
	if j := get(); j.Status != api.ExportRunning || j.Progress != 40 {
		t.Fatalf("forced running: %+v", j)
	}
	ctl(t, env, http.MethodPost, state, map[string]any{"status": "failed", "error": "out of ink"}, 200)
	if j := get(); j.Status != api.ExportFailed || j.Error != "out of ink" || j.Version != "" {
		t.Fatalf("forced failed: %+v", j)
	}
	if r := call(t, http.MethodPost, env.URL+fill(api.PathExportBundle, "jobId", job), env.Key, nil); r.status != 409 {
		t.Errorf("bundle of a failed job: %d", r.status)
	}
	ctl(t, env, http.MethodPost, state, map[string]any{"status": "completed"}, 200)
	if j := get(); j.Status != api.ExportCompleted || j.Version == "" {
		t.Fatalf("forced completed: %+v", j)
	}
	b := env.Bundle(t, job)
	download(t, b.BundleURL, b.SizeBytes)

	for _, bad := range []string{`{"status": "queued"}`, `{"status": "running", "progress": 100}`, `{"status": "failed", "progress": 3}`,
		`{"status": "completed", "error": "x"}`, `{"status": "running", "prLink": "x"}`} {
		r := call(t, http.MethodPost, env.URL+state, testControlToken, bad)
		if r.status != 400 {
			t.Errorf("state %s: %d, want 400", bad, r.status)
		}
	}
	ctl(t, env, http.MethodPost, fill(api.PathControlExportState, "jobId", "se_0000000000000000"), map[string]string{"status": "failed"}, 404)
}

func TestControl_hold(t *testing.T) {
	env := controlEnv(t)
	ctl(t, env, http.MethodPost, api.PathControlExportHold, map[string]string{"organization": "acme"}, 204)
	held := env.StartExport(t, api.StartExportRequest{Domain: env.Domain})
	// Another organization's export completes: the workers are running,
	// and they left acme's job alone.
	var other api.ExportJob
	call(t, http.MethodPost, env.URL+api.PathExportJobs, env.OtherKey, map[string]string{"domain": apiservertest.OtherDomain}).decode(t, &other)
	testutil.Eventually(t, apiservertest.ExportTimeout, "other's export", func() bool {
		var j api.ExportJob
		call(t, http.MethodGet, env.URL+fill(api.PathExportJob, "jobId", other.JobID), env.OtherKey, nil).decode(t, &j)
		return j.Status == api.ExportCompleted
	})
	var j api.ExportJob
	call(t, http.MethodGet, env.URL+fill(api.PathExportJob, "jobId", held.JobID), env.Key, nil).decode(t, &j)
	if j.Status != api.ExportQueued {
		t.Fatalf("held job: %s", j.Status)
	}
	ctl(t, env, http.MethodPost, api.PathControlExportHold, map[string]any{"organization": "acme", "hold": false}, 204)
	if j := env.WaitExport(t, held.JobID); j.Status != api.ExportCompleted {
		t.Fatalf("released job: %+v", j)
	}
	ctl(t, env, http.MethodPost, api.PathControlExportHold, map[string]string{"organization": "nobody"}, 404)
}

func TestControl_agentState(t *testing.T) {
	env := controlEnv(t)
	var aj api.AgentJob
	call(t, http.MethodPost, env.URL+fill(api.PathAgentJobs, "projectId", env.ProjectID), env.Key, map[string]string{"prompt": "p"}).decode(t, &aj)
	state := fill(api.PathControlAgentState, "projectId", env.ProjectID, "id", aj.ID)
	get := func() api.AgentJob {
		var j api.AgentJob
		call(t, http.MethodGet, env.URL+fill(api.PathAgentJob, "projectId", env.ProjectID, "id", aj.ID), env.Key, nil).decode(t, &j)
		return j
	}
	ctl(t, env, http.MethodPost, state, map[string]any{"status": "completed", "prLink": "https://git.example.com/acme/docs/pull/77"}, 200)
	if j := get(); j.Status != api.AgentCompleted || j.PRLink == nil || !strings.HasSuffix(*j.PRLink, "/pull/77") {
		t.Fatalf("forced completed: %+v", j)
	}
	ctl(t, env, http.MethodPost, state, map[string]any{"status": "failed"}, 200)
	if j := get(); j.Status != api.AgentFailed {
		t.Fatalf("forced failed: %+v", j)
	}
	ctl(t, env, http.MethodPost, state, map[string]any{"status": "archived"}, 200)
	if j := get(); j.Status != api.AgentArchived || j.ArchivedAt == nil {
		t.Fatalf("forced archived: %+v", j)
	}
	msg := fill(api.PathAgentMessage, "projectId", env.ProjectID, "id", aj.ID)
	if r := call(t, http.MethodPost, env.URL+msg, env.Key, map[string]string{"prompt": "more"}); r.status != 400 {
		t.Errorf("message to a job forced archived: %d", r.status)
	}
	ctl(t, env, http.MethodPost, state, map[string]any{"status": "active"}, 400)
	ctl(t, env, http.MethodPost, state, map[string]any{"status": "failed", "prLink": "x"}, 400)
	ctl(t, env, http.MethodPost, fill(api.PathControlAgentState, "projectId", env.NoChangesProjectID, "id", aj.ID), map[string]any{"status": "failed"}, 404)
}

func TestControl_openAPIMatchesRoutes(t *testing.T) {
	env := controlEnv(t)
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	ctl(t, env, http.MethodGet, api.PathControlOpenAPI, nil, 200).decode(t, &doc)
	var documented, served []string
	for p, ops := range doc.Paths {
		for m := range ops {
			documented = append(documented, strings.ToUpper(m)+" "+p)
		}
	}
	for _, rt := range apiserver.ControlRoutes() {
		served = append(served, rt.Method+" "+rt.Pattern)
	}
	slices.Sort(documented)
	slices.Sort(served)
	if !slices.Equal(documented, served) {
		t.Fatalf("control OpenAPI document:\n%v\nregistered routes:\n%v", documented, served)
	}
}

// TestControl_openAPISchemasMatchTypes: every field the control plane
// sends or takes is in its document's schema, and nothing more.
func TestControl_openAPISchemasMatchTypes(t *testing.T) {
	env := controlEnv(t)
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]json.RawMessage `json:"properties"`
				AllOf      []struct {
					Properties map[string]json.RawMessage `json:"properties"`
				} `json:"allOf"`
			} `json:"schemas"`
		} `json:"components"`
	}
	ctl(t, env, http.MethodGet, api.PathControlOpenAPI, nil, 200).decode(t, &doc)
	for name, v := range map[string]any{
		"ControlRequest": api.ControlRequest{}, "ControlJournal": api.ControlJournal{}, "ControlMatch": api.ControlMatch{},
		"ControlVerify": api.ControlVerify{}, "ControlVerification": api.ControlVerification{}, "ControlFault": api.ControlFault{},
		"ControlClock": api.ControlClock{}, "ControlSetClock": api.ControlSetClock{}, "ControlAdvance": api.ControlAdvance{},
		"ControlNewOrganization": api.ControlNewOrganization{}, "ControlOrganization": api.ControlOrganization{},
	} {
		s, ok := doc.Components.Schemas[name]
		if !ok {
			t.Errorf("schema %s is missing", name)
			continue
		}
		var documented, fields []string
		for p := range s.Properties {
			documented = append(documented, p)
		}
		for _, a := range s.AllOf {
			for p := range a.Properties {
				documented = append(documented, p)
			}
		}
		typ := reflect.TypeOf(v)
		for i := range typ.NumField() {
			tag, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			fields = append(fields, tag)
		}
		slices.Sort(documented)
		slices.Sort(fields)
		if !slices.Equal(documented, fields) {
			t.Errorf("schema %s documents %v; the type has %v", name, documented, fields)
		}
	}
}

// TestControl_advanceDoesNotAbandonRenders: export leases run on the
// server's own clock, so moving the control clock hours ahead while a
// render runs does not make it look abandoned (three takeovers would fail
// the job).
func TestControl_advanceDoesNotAbandonRenders(t *testing.T) {
	dir := t.TempDir()
	writeLargeSite(t, dir, 1500)
	// Idle workers stand ready to take over a render whose lease looks
	// run out.
	env := controlEnv(t, apiservertest.WithDeployment("large.acme.test", dir),
		apiservertest.WithConfig(func(c *apiconfig.Config) { c.ExportWorkers = 6 }))
	job := env.StartExport(t, api.StartExportRequest{Domain: "large.acme.test"})
	var j api.ExportJob
	testutil.Eventually(t, apiservertest.ExportTimeout, "the render to start", func() bool {
		call(t, http.MethodGet, env.URL+fill(api.PathExportJob, "jobId", job.JobID), env.Key, nil).decode(t, &j)
		return j.Status != api.ExportQueued
	})
	for range 4 {
		ctl(t, env, http.MethodPost, api.PathControlClockAdvance, map[string]string{"by": "1h"}, 200)
	}
	call(t, http.MethodGet, env.URL+fill(api.PathExportJob, "jobId", job.JobID), env.Key, nil).decode(t, &j)
	if j.Status != api.ExportRunning {
		t.Skipf("the render ended (%s) before the clock moved; nothing to check", j.Status)
	}
	if j = env.WaitExport(t, job.JobID); j.Status != api.ExportCompleted {
		t.Fatalf("export after the clock moved 4h during its render: %+v", j)
	}
}

// TestControl_badRequests: the control plane answers bad requests like the
// admin API, with a JSON error and the documented status.
func TestControl_badRequests(t *testing.T) {
	env := controlEnv(t)
	for _, tc := range []struct {
		method, path, body, contentType string
		want                            int
	}{
		{http.MethodPut, api.PathControlClock, "", "", 405},
		{http.MethodPost, api.PathControlReset, `{"organisation": "acme"}`, "application/json", 400},
		{http.MethodPost, api.PathControlReset, `{"organization": "acme"} {}`, "application/json", 400},
		{http.MethodPost, api.PathControlReset, `organization=acme`, "application/x-www-form-urlencoded", 415},
		{http.MethodPost, api.PathControlClock, `{"now": "yesterday"}`, "application/json", 400},
		{http.MethodPost, api.PathControlClock, `{"frozen": true, "Frozen": false}`, "application/json", 400},
		{http.MethodPost, api.PathControlFaults, `{"path": "/x", "error": "` + strings.Repeat("a", api.MaxRequestBodyBytes) + `"}`, "application/json", 413},
		{http.MethodGet, "/_control/v1/nothing", "", "", 404},
	} {
		r := callWith(t, tc.method, env.URL+tc.path, testControlToken, tc.body, map[string]string{"Content-Type": tc.contentType})
		if r.status != tc.want {
			t.Errorf("%s %s %.40q: %d, want %d: %.200s", tc.method, tc.path, tc.body, r.status, tc.want, r.body)
			continue
		}
		r.errorMessage(t)
		if tc.want == 405 && r.header.Get("Allow") == "" {
			t.Errorf("%s %s: 405 without Allow", tc.method, tc.path)
		}
	}
}

// Secrets where a client should not put them still never reach the
// journal: a key or the control token in the path, and a key cut in two
// by the end of what the journal keeps of a body.
func TestControl_journalHoldsNoSecretAnywhere(t *testing.T) {
	env := controlEnv(t)
	call(t, http.MethodGet, env.URL+"/v1/static-export/jobs/"+env.OtherKey, env.Key, nil)
	call(t, http.MethodGet, env.URL+"/v2/agent/"+testControlToken+"/job/x", env.Key, nil)
	const secret = "Zq7Xw9Vb3Nm5Lk8Jh2Gf4Ds6" //nolint:gosec // G101: a made-up key, to see it is not journaled
	lead := `{"prompt": "`
	filler := strings.Repeat("a", 64<<10-len(lead)-10)
	call(t, http.MethodPost, env.URL+fill(api.PathAgentJobs, "projectId", env.ProjectID), env.Key,
		lead+filler+"dak_"+secret+` tail"}`)
	job := "se_0123456789abcdef"
	call(t, http.MethodGet, env.URL+fill(api.PathExportJob, "jobId", job), env.Key, nil)
	raw := ctl(t, env, http.MethodGet, api.PathControlRequests, nil, 200)
	for _, s := range []string{strings.TrimPrefix(env.OtherKey, "dak_")[:8], testControlToken[:8], secret[:6]} {
		if strings.Contains(string(raw.body), s) {
			t.Errorf("the journal holds (part of) a secret %q", s)
		}
	}
	// Ids, shaped much like keys, stay readable.
	if !strings.Contains(string(raw.body), `"path":"/v1/static-export/jobs/`+job+`"`) {
		t.Errorf("the journal lost a job id: %s", raw.body)
	}
}
