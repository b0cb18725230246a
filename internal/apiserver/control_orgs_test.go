package apiserver_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// miniSite is the smallest docs source that exports.
var miniSite = map[string]string{"docs.json": `{"name": "Mini"}`, "index.mdx": "# Home\n\nHello."}

func newOrg(t *testing.T, env *apiservertest.Env, body map[string]any) api.ControlOrganization {
	t.Helper()
	if _, ok := body["source"]; !ok {
		body["source"] = map[string]any{"files": miniSite}
	}
	var o api.ControlOrganization
	ctl(t, env, http.MethodPost, api.PathControlOrganizations, body, 201).decode(t, &o)
	return o
}

// waitExport polls a job with key until it has finished.
func waitExport(t *testing.T, env *apiservertest.Env, key, id string) api.ExportJob {
	t.Helper()
	var j api.ExportJob
	testutil.Eventually(t, apiservertest.ExportTimeout, "export "+id, func() bool {
		call(t, http.MethodGet, env.URL+fill(api.PathExportJob, "jobId", id), key, nil).decode(t, &j)
		return api.ExportTerminal(j.Status)
	})
	return j
}

// TestControl_runtimeOrganizationsIsolated runs two suites at once, each
// with its own runtime organization, on one server: neither sees the
// other's jobs, a fault scoped to one never touches the other, and the
// journal filtered by organization shows only that organization's requests.
func TestControl_runtimeOrganizationsIsolated(t *testing.T) {
	env := controlEnv(t)
	orgs := []api.ControlOrganization{newOrg(t, env, map[string]any{"id": "suite-a"}), newOrg(t, env, map[string]any{"id": "suite-b", "kind": "air-gapped"})}
	if orgs[0].Domain != "suite-a.docs.test" || orgs[0].ProjectID != "proj_suite-a" || !strings.HasPrefix(orgs[0].APIKey, "dak_") {
		t.Fatalf("created: %+v", orgs[0])
	}
	// Suite a breaks its own starts once; suite b must never see it.
	ctl(t, env, http.MethodPost, api.PathControlFaults, map[string]any{"path": api.PathExportJobs, "status": 503, "times": 1, "organization": "suite-a"}, 201)

	jobs := make([]string, 2)
	var wg sync.WaitGroup
	for i, o := range orgs {
		wg.Go(func() {
			start := map[string]string{"domain": o.Domain}
			r := call(t, http.MethodPost, env.URL+api.PathExportJobs, o.APIKey, start)
			if i == 0 {
				if r.status != 503 {
					t.Errorf("suite a's first start: %d, want its fault's 503", r.status)
				}
				r = call(t, http.MethodPost, env.URL+api.PathExportJobs, o.APIKey, start)
			}
			if r.status != 202 {
				t.Errorf("suite %d start: %d %s", i, r.status, r.body)
				return
			}
			var j api.ExportJob
			r.decode(t, &j)
			jobs[i] = j.JobID
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	for i, o := range orgs {
		if j := waitExport(t, env, o.APIKey, jobs[i]); j.Status != api.ExportCompleted {
			t.Fatalf("suite %d export: %+v", i, j)
		}
		other := orgs[1-i]
		if r := call(t, http.MethodGet, env.URL+fill(api.PathExportJob, "jobId", jobs[i]), other.APIKey, nil); r.status != 404 {
			t.Errorf("suite %d's job seen by the other suite: %d", i, r.status)
		}
		if r := call(t, http.MethodPost, env.URL+api.PathExportJobs, o.APIKey, map[string]string{"domain": other.Domain}); r.status != 400 {
			t.Errorf("suite %d exporting the other's domain: %d", i, r.status)
		}
		if r := call(t, http.MethodGet, env.URL+fill(api.PathExportJob, "jobId", jobs[i]), env.Key, nil); r.status != 404 {
			t.Errorf("suite %d's job seen by a configured organization: %d", i, r.status)
		}
	}
	for _, o := range orgs {
		var j api.ControlJournal
		ctl(t, env, http.MethodGet, api.PathControlRequests+"?organization="+o.ID, nil, 200).decode(t, &j)
		if len(j.Requests) == 0 {
			t.Errorf("no requests journaled for %s", o.ID)
		}
		for _, e := range j.Requests {
			if e.Organization != o.ID {
				t.Errorf("journal filtered by %s holds %+v", o.ID, e)
			}
		}
	}

	// Deleting one organization takes its jobs and key with it.
	ctl(t, env, http.MethodDelete, fill(api.PathControlOrganization, "id", "suite-a"), nil, 204)
	if r := call(t, http.MethodGet, env.URL+fill(api.PathExportJob, "jobId", jobs[0]), orgs[0].APIKey, nil); r.status != 401 {
		t.Errorf("deleted organization's key: %d, want 401", r.status)
	}
	if r := call(t, http.MethodGet, env.URL+fill(api.PathExportJob, "jobId", jobs[1]), orgs[1].APIKey, nil); r.status != 200 {
		t.Errorf("the other suite after a deletion: %d", r.status)
	}
	ctl(t, env, http.MethodDelete, fill(api.PathControlOrganization, "id", "suite-a"), nil, 404)
	ctl(t, env, http.MethodDelete, fill(api.PathControlOrganization, "id", "acme"), nil, 409)
}

func TestControl_runtimeOrganizationsPersist(t *testing.T) {
	env := controlEnv(t)
	kept := newOrg(t, env, map[string]any{"persist": true, "plan": "pro"})
	gone := newOrg(t, env, map[string]any{})
	env.Restart(t, nil)
	// pro: authenticated, but static export is refused.
	if r := call(t, http.MethodPost, env.URL+api.PathExportJobs, kept.APIKey, map[string]string{"domain": kept.Domain}); r.status != 403 {
		t.Errorf("persisted organization after a restart: %d %s", r.status, r.body)
	}
	if r := call(t, http.MethodPost, env.URL+api.PathExportJobs, gone.APIKey, map[string]string{"domain": gone.Domain}); r.status != 401 {
		t.Errorf("organization not persisted, after a restart: %d", r.status)
	}
	// A reset removes runtime organizations, persisted ones too.
	ctl(t, env, http.MethodPost, api.PathControlReset, nil, 204)
	env.Restart(t, nil)
	if r := call(t, http.MethodPost, env.URL+api.PathExportJobs, kept.APIKey, map[string]string{"domain": kept.Domain}); r.status != 401 {
		t.Errorf("persisted organization after a reset and a restart: %d", r.status)
	}
}

func TestControl_runtimeOrganizationsBadInput(t *testing.T) {
	env := controlEnv(t)
	newOrg(t, env, map[string]any{"id": "taken", "domain": "taken.example.test"})
	for _, tc := range []struct {
		body string
		want int
	}{
		{`{"id": "taken", "source": {"files": {"docs.json": "{}"}}}`, 409},
		{`{"domain": "taken.example.test", "source": {"files": {"docs.json": "{}"}}}`, 409},
		{`{"domain": "docs.acme.test", "source": {"files": {"docs.json": "{}"}}}`, 409},
		{`{"id": "../x", "source": {"files": {"docs.json": "{}"}}}`, 400},
		{`{"plan": "free", "source": {"files": {"docs.json": "{}"}}}`, 400},
		{`{"kind": "moon", "source": {"files": {"docs.json": "{}"}}}`, 400},
		{`{"domain": "Not A Host", "source": {"files": {"docs.json": "{}"}}}`, 400},
		{`{"source": {}}`, 400},
		{`{"source": {"files": {"index.mdx": "x"}}}`, 400},
		{`{"source": {"files": {"docs.json": "{}", "../escape.mdx": "x"}}}`, 400},
		{`{"source": {"files": {"docs.json": "{}"}, "path": "/tmp"}}`, 400},
		{`{"source": {"path": "relative"}}`, 400},
		{`{"source": {"path": "/nonexistent-dir"}}`, 400},
		{`{"source": {"files": {"docs.json": "{}"}}, "apiKey": "dak_x"}`, 400},
	} {
		r := call(t, http.MethodPost, env.URL+api.PathControlOrganizations, testControlToken, tc.body)
		if r.status != tc.want {
			t.Errorf("%s: %d, want %d: %s", tc.body, r.status, tc.want, r.body)
		}
		r.errorMessage(t)
	}
}

// source.path is confined to control.sourceRoots, symlinks resolved: a
// directory elsewhere (another organization's inline source in the data
// dir included), a link out of a root, a directory without docs.json and
// one that does not exist all get the same 400, so the answer does not
// say what exists on the server. Without roots no path is taken at all.
func TestControl_sourcePathConfinedToRoots(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	for _, d := range []string{filepath.Join(root, "a"), filepath.Join(root, "empty"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFiles(t, filepath.Join(root, "a"), miniSite)
	writeFiles(t, outside, miniSite)
	if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	env := controlEnv(t, apiservertest.WithConfig(func(c *apiconfig.Config) { c.Control.SourceRoots = []string{root} }))
	inline := newOrg(t, env, map[string]any{"id": "inline"}) // its source is kept in the data dir
	refused := []string{
		outside,
		filepath.Join(root, "link"),
		filepath.Join(root, "a", "..", "..", filepath.Base(outside)),
		filepath.Join(root, "empty"),
		filepath.Join(root, "missing"),
		filepath.Join(env.DataDir, "runtime-organizations", inline.ID),
		"a",
	}
	var first string
	for _, p := range refused {
		r := call(t, http.MethodPost, env.URL+api.PathControlOrganizations, testControlToken,
			map[string]any{"source": map[string]any{"path": p}})
		msg := ""
		if r.status == http.StatusBadRequest {
			msg = r.errorMessage(t)
		}
		if first == "" {
			first = msg
		}
		if r.status != http.StatusBadRequest || msg != first || strings.Contains(msg, "/") {
			t.Errorf("source.path %s: %d %s; want 400 %q", p, r.status, r.body, first)
		}
	}

	o := newOrg(t, env, map[string]any{"source": map[string]any{"path": filepath.Join(root, "a")}})
	var j api.ExportJob
	call(t, http.MethodPost, env.URL+api.PathExportJobs, o.APIKey, map[string]string{"domain": o.Domain}).decode(t, &j)
	if j = waitExport(t, env, o.APIKey, j.JobID); j.Status != api.ExportCompleted {
		t.Fatalf("export of a path source under a root: %+v", j)
	}

	plain := controlEnv(t)
	if r := call(t, http.MethodPost, plain.URL+api.PathControlOrganizations, testControlToken,
		map[string]any{"source": map[string]any{"path": filepath.Join(root, "a")}}); r.status != http.StatusBadRequest {
		t.Errorf("source.path without source roots: %d %s", r.status, r.body)
	}
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestControl_runtimeOrganizationAgent: a runtime organization's agent
// does what its "agent" says, keeps it across a restart when persisted,
// and a script the server cannot follow is a 400 naming the field.
func TestControl_runtimeOrganizationAgent(t *testing.T) {
	env := controlEnv(t)
	failing := newOrg(t, env, map[string]any{"agent": map[string]any{"outcome": "fail", "duration": "0s"}, "persist": true})
	slow := newOrg(t, env, map[string]any{"agent": map[string]any{"outcome": "noChanges", "duration": "10m"}})
	dflt := newOrg(t, env, map[string]any{})
	status := func(o api.ControlOrganization, id string) api.AgentJob {
		t.Helper()
		var j api.AgentJob
		call(t, http.MethodGet, env.URL+fill(fill(api.PathAgentJob, "projectId", o.ProjectID), "id", id), o.APIKey, nil).decode(t, &j)
		return j
	}
	start := func(o api.ControlOrganization) string {
		t.Helper()
		var j api.AgentJob
		call(t, http.MethodPost, env.URL+fill(api.PathAgentJobs, "projectId", o.ProjectID), o.APIKey, map[string]string{"prompt": "p"}).decode(t, &j)
		return j.ID
	}
	f, s, d := start(failing), start(slow), start(dflt)
	if j := status(failing, f); j.Status != api.AgentFailed {
		t.Errorf("agent that fails at once: %+v", j)
	}
	env.Clock.Advance(5 * time.Second)
	if j := status(dflt, d); j.Status != api.AgentCompleted || j.PRLink == nil {
		t.Errorf("default agent after 5s: %+v, want a pull request", j)
	}
	if j := status(slow, s); j.Status != api.AgentActive {
		t.Errorf("ten-minute agent after 5s: %+v", j)
	}
	env.Clock.Advance(10 * time.Minute)
	if j := status(slow, s); j.Status != api.AgentCompleted || j.PRLink != nil {
		t.Errorf("ten-minute agent after its time: %+v, want no pull request", j)
	}
	env.Restart(t, nil)
	if j := status(failing, start(failing)); j.Status != api.AgentFailed {
		t.Errorf("persisted agent script after a restart: %+v", j)
	}

	for body, want := range map[string]string{
		`{"outcome": "maybe"}`: `agent outcome "maybe"`,
		`{"duration": "-1s"}`:  `agent.duration "-1s"`,
		`{"duration": "soon"}`: `agent.duration "soon"`,
		`{"speed": "fast"}`:    `speed`,
	} {
		r := ctl(t, env, http.MethodPost, api.PathControlOrganizations,
			`{"source": {"files": {"docs.json": "{}"}}, "agent": `+body+`}`, 400)
		if msg := r.errorMessage(t); !strings.Contains(msg, want) {
			t.Errorf("agent %s: %q, want it to name %s", body, msg, want)
		}
	}
}
