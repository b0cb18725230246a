package apiserver_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/pgtest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// What the control plane set that changes the admin API's answers
// outlives a restart on the same data dir: forced export and agent job
// states (in the jobs' records), a hold on an organization that itself
// survives (a configured one, a runtime one with persist) and the links a
// reset revoked. A reset clears holds and forced states, and that too
// survives a restart.
func TestControl_stateSurvivesRestart(t *testing.T) {
	t.Run("bbolt", func(t *testing.T) { controlStateSurvivesRestart(t, apiservertest.WithDatabase("")) })
	t.Run("postgres", func(t *testing.T) { controlStateSurvivesRestart(t, apiservertest.WithDatabase(pgtest.DB(t))) })
}

func controlStateSurvivesRestart(t *testing.T, db apiservertest.Option) {
	env := controlEnv(t, db)
	exportOf := func(key, id string) api.ExportJob {
		t.Helper()
		var j api.ExportJob
		r := call(t, http.MethodGet, env.URL+fill(api.PathExportJob, "jobId", id), key, nil)
		if r.status != http.StatusOK {
			t.Fatalf("export %s: %d %s", id, r.status, r.body)
		}
		r.decode(t, &j)
		return j
	}
	start := func(key, domain string) string {
		t.Helper()
		return startExportAs(t, env, key, domain)
	}
	force := func(id string, st api.ControlExportState) {
		t.Helper()
		ctl(t, env, http.MethodPost, fill(api.PathControlExportState, "jobId", id), st, http.StatusOK)
	}
	hold := func(org string, on bool) {
		t.Helper()
		ctl(t, env, http.MethodPost, api.PathControlExportHold, api.ControlHold{Organization: org, Hold: &on}, http.StatusNoContent)
	}
	linkStatus := func(link string) (int, string) {
		t.Helper()
		r := call(t, http.MethodGet, link, "", nil)
		return r.status, string(r.body)
	}

	// A persisted runtime organization whose export's link a reset of
	// the organization revokes; then its exports are held. One that is
	// not persisted is held too.
	kept := newOrg(t, env, map[string]any{"id": "kept", "persist": true})
	gone := newOrg(t, env, map[string]any{"id": "gone"})
	keptJob := waitExport(t, env, kept.APIKey, start(kept.APIKey, kept.Domain))
	var keptLink api.Bundle
	call(t, http.MethodPost, env.URL+fill(api.PathExportBundle, "jobId", keptJob.JobID), kept.APIKey, nil).decode(t, &keptLink)
	ctl(t, env, http.MethodPost, api.PathControlReset, api.ControlReset{Organization: "kept"}, http.StatusNoContent)
	if st, body := linkStatus(keptLink.BundleURL); st != http.StatusForbidden || !strings.Contains(body, "revoked") {
		t.Fatalf("link of a job a reset deleted: %d %s", st, body)
	}
	hold("kept", true)
	hold("gone", true)

	// acme: a completed export with a link, one forced failed, one
	// forced running at 40 %, then held with one export waiting.
	done := env.StartExportAndWait(t, api.StartExportRequest{Domain: env.Domain})
	link := env.Bundle(t, done.JobID)
	failed := start(env.Key, env.Domain)
	force(failed, api.ControlExportState{Status: api.ExportFailed, Error: "forced: out of pages"})
	pinned := start(env.Key, env.Domain)
	forty := 40.0
	force(pinned, api.ControlExportState{Status: api.ExportRunning, Progress: &forty})
	hold("acme", true)
	waiting := start(env.Key, env.Domain)

	// An agent job forced failed while the agent would still work on it.
	var aj api.AgentJob
	call(t, http.MethodPost, env.URL+fill(api.PathAgentJobs, "projectId", env.ProjectID), env.Key,
		api.CreateAgentJobRequest{Prompt: "document the flag"}).decode(t, &aj)
	ctl(t, env, http.MethodPost, fill(api.PathControlAgentState, "projectId", env.ProjectID, "id", aj.ID),
		api.ControlAgentState{Status: api.AgentFailed}, http.StatusOK)

	env.Restart(t, nil)

	if j := exportOf(env.Key, failed); j.Status != api.ExportFailed || j.Error != "forced: out of pages" {
		t.Errorf("forced failed export after a restart: %+v", j)
	}
	if j := exportOf(env.Key, waiting); j.Status != api.ExportQueued {
		t.Errorf("held export after a restart: %+v", j)
	}
	// The hold still applies to new exports.
	waiting2 := start(env.Key, env.Domain)
	if j := exportOf(env.Key, waiting2); j.Status != api.ExportQueued {
		t.Errorf("new export of a held organization after a restart: %+v", j)
	}
	var agent api.AgentJob
	call(t, http.MethodGet, env.URL+fill(api.PathAgentJob, "projectId", env.ProjectID, "id", aj.ID), env.Key, nil).decode(t, &agent)
	if agent.Status != api.AgentFailed {
		t.Errorf("forced failed agent job after a restart: %+v", agent)
	}
	if st, body := linkStatus(keptLink.BundleURL); st != http.StatusForbidden || !strings.Contains(body, "revoked") {
		t.Errorf("revoked link after a restart: %d %s", st, body)
	}
	keptWaiting := start(kept.APIKey, kept.Domain)
	if j := exportOf(kept.APIKey, keptWaiting); j.Status != api.ExportQueued {
		t.Errorf("new export of a held persisted organization after a restart: %+v", j)
	}
	if r := call(t, http.MethodPost, env.URL+api.PathExportJobs, gone.APIKey, api.StartExportRequest{Domain: gone.Domain}); r.status != http.StatusUnauthorized {
		t.Errorf("organization not persisted, after a restart: %d", r.status)
	}
	// Released, the held exports render; the pinned one, older than
	// them, was not taken meanwhile: claims go oldest first.
	hold("acme", false)
	for _, id := range []string{waiting, waiting2} {
		if j := waitExport(t, env, env.Key, id); j.Status != api.ExportCompleted {
			t.Errorf("released export %s: %+v", id, j)
		}
	}
	if j := exportOf(env.Key, pinned); j.Status != api.ExportRunning || j.Progress != 40 {
		t.Errorf("export forced running after a restart: %+v", j)
	}

	// A reset clears it all, for good: after another restart nothing is
	// held or forced, and the links of the jobs it deleted stay revoked.
	hold("acme", true)
	ctl(t, env, http.MethodPost, api.PathControlReset, nil, http.StatusNoContent)
	env.Restart(t, nil)
	if j := waitExport(t, env, env.Key, start(env.Key, env.Domain)); j.Status != api.ExportCompleted {
		t.Errorf("export after a reset and a restart: %+v", j)
	}
	for _, id := range []string{failed, pinned} {
		if r := call(t, http.MethodGet, env.URL+fill(api.PathExportJob, "jobId", id), env.Key, nil); r.status != http.StatusNotFound {
			t.Errorf("export %s after a reset and a restart: %d", id, r.status)
		}
	}
	if r := call(t, http.MethodGet, env.URL+fill(api.PathAgentJob, "projectId", env.ProjectID, "id", aj.ID), env.Key, nil); r.status != http.StatusNotFound {
		t.Errorf("agent job after a reset and a restart: %d", r.status)
	}
	for _, l := range []string{link.BundleURL, keptLink.BundleURL} {
		if st, body := linkStatus(l); st != http.StatusForbidden || !strings.Contains(body, "revoked") {
			t.Errorf("link of a job a reset deleted, after a restart: %d %s", st, body)
		}
	}
}

// The same across a SIGKILL of the server process: holds, forced states
// and revocations were on disk before their requests were answered.
func TestControl_stateSurvivesKill(t *testing.T) {
	dir := t.TempDir()
	apiservertest.WriteSites(t, dir)
	key := "dak_" + strings.Repeat("cd", 16)
	cfg := fmt.Sprintf(`
control: {token: %q}
organizations:
  - id: acme
    plan: enterprise
    apiKeys: [%q]
    projects:
      - id: docs
        repository: https://git.example.com/acme/docs
        agent: {duration: 1h}
        deployments:
          - {domain: small.acme.test, source: ./site, kind: air-gapped}
`, testControlToken, key)
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	args := fmt.Sprintf("--config %s --data-dir %s --addr %s", filepath.Join(dir, "config.yaml"), filepath.Join(dir, "data"), testutil.FreeAddr(t))
	env := &apiservertest.Env{Key: key, Domain: "small.acme.test", ProjectID: "docs"}
	first := startChild(t, args)
	env.URL = first.url

	kept := newOrg(t, env, map[string]any{"id": "kept", "persist": true})
	keptJob := waitExport(t, env, kept.APIKey, startExportAs(t, env, kept.APIKey, kept.Domain))
	var keptLink api.Bundle
	call(t, http.MethodPost, env.URL+fill(api.PathExportBundle, "jobId", keptJob.JobID), kept.APIKey, nil).decode(t, &keptLink)
	ctl(t, env, http.MethodPost, api.PathControlReset, api.ControlReset{Organization: "kept"}, http.StatusNoContent)
	ctl(t, env, http.MethodPost, api.PathControlExportHold, api.ControlHold{Organization: "kept"}, http.StatusNoContent)
	failed := startExportAs(t, env, key, env.Domain)
	ctl(t, env, http.MethodPost, fill(api.PathControlExportState, "jobId", failed),
		api.ControlExportState{Status: api.ExportFailed, Error: "forced"}, http.StatusOK)
	ctl(t, env, http.MethodPost, api.PathControlExportHold, api.ControlHold{Organization: "acme"}, http.StatusNoContent)
	held := startExportAs(t, env, key, env.Domain)
	var aj api.AgentJob
	call(t, http.MethodPost, env.URL+fill(api.PathAgentJobs, "projectId", "docs"), key,
		api.CreateAgentJobRequest{Prompt: "document the flag"}).decode(t, &aj)
	ctl(t, env, http.MethodPost, fill(api.PathControlAgentState, "projectId", "docs", "id", aj.ID),
		api.ControlAgentState{Status: api.AgentFailed}, http.StatusOK)

	if err := first.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = first.cmd.Wait()
	env.URL = startChild(t, args).url

	var j api.ExportJob
	call(t, http.MethodGet, env.URL+fill(api.PathExportJob, "jobId", failed), key, nil).decode(t, &j)
	if j.Status != api.ExportFailed || j.Error != "forced" {
		t.Errorf("forced failed export after a kill: %+v", j)
	}
	for _, id := range []string{held, startExportAs(t, env, key, env.Domain)} {
		j = api.ExportJob{}
		call(t, http.MethodGet, env.URL+fill(api.PathExportJob, "jobId", id), key, nil).decode(t, &j)
		if j.Status != api.ExportQueued {
			t.Errorf("export of a held organization after a kill: %+v", j)
		}
	}
	id := startExportAs(t, env, kept.APIKey, kept.Domain)
	j = api.ExportJob{}
	call(t, http.MethodGet, env.URL+fill(api.PathExportJob, "jobId", id), kept.APIKey, nil).decode(t, &j)
	if j.Status != api.ExportQueued {
		t.Errorf("export of a held persisted organization after a kill: %+v", j)
	}
	var agent api.AgentJob
	call(t, http.MethodGet, env.URL+fill(api.PathAgentJob, "projectId", "docs", "id", aj.ID), key, nil).decode(t, &agent)
	if agent.Status != api.AgentFailed {
		t.Errorf("forced agent job after a kill: %+v", agent)
	}
	if r := call(t, http.MethodGet, keptLink.BundleURL, "", nil); r.status != http.StatusForbidden || !strings.Contains(string(r.body), "revoked") {
		t.Errorf("revoked link after a kill: %d %s", r.status, r.body)
	}
}

// startExportAs starts an export of domain with key and returns its id.
func startExportAs(t *testing.T, env *apiservertest.Env, key, domain string) string {
	t.Helper()
	var j api.ExportJob
	r := call(t, http.MethodPost, env.URL+api.PathExportJobs, key, api.StartExportRequest{Domain: domain})
	if r.status != http.StatusAccepted {
		t.Fatalf("start %s: %d %s", domain, r.status, r.body)
	}
	r.decode(t, &j)
	return j.JobID
}
