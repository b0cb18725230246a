package docsadmintest_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/docsadmintest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// Every control operation, through the package, against the real server.

type exportJob struct {
	JobID   string `json:"jobId"`
	Status  string `json:"status"`
	Error   string `json:"error"`
	Version string `json:"version"`
	Warning struct {
		Messages []string `json:"messages"`
	} `json:"warnings"`
}

type bundle struct {
	BundleURL string `json:"bundleUrl"`
}

// admin sends one admin API request to the server at base with key and
// decodes a JSON answer.
func admin(t *testing.T, base, key, method, path string, body any, out any) int {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, base+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if out != nil && resp.StatusCode/100 == 2 {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s %s: %v: %s", method, path, err, data)
		}
	}
	return resp.StatusCode
}

func startExport(t *testing.T, base, key, domain string) exportJob {
	t.Helper()
	var j exportJob
	if st := admin(t, base, key, http.MethodPost, "/v1/static-export/jobs", map[string]string{"domain": domain}, &j); st != 202 {
		t.Fatalf("start export of %s: %d", domain, st)
	}
	return j
}

// waitExport polls a job until it has finished, for at most a minute.
func waitExport(t *testing.T, base, key, id string) exportJob {
	t.Helper()
	var j exportJob
	testutil.Eventually(t, time.Minute, "export "+id, func() bool {
		admin(t, base, key, http.MethodGet, "/v1/static-export/jobs/"+id, nil, &j)
		return j.Status == "completed" || j.Status == "failed"
	})
	return j
}

func TestNew_exportsAndExpiresLinks(t *testing.T) {
	srv := docsadmintest.New(t, docsadmintest.WithBundleLinkTTL(10*time.Minute))
	ctx := t.Context()
	j := waitExport(t, srv.URL, srv.AdminKey, startExport(t, srv.URL, srv.AdminKey, docsadmintest.Domain).JobID)
	if j.Status != "completed" || j.Version == "" {
		t.Fatalf("export: %+v", j)
	}
	var b bundle
	admin(t, srv.URL, srv.AdminKey, http.MethodPost, "/v1/static-export/jobs/"+j.JobID+"/bundle", nil, &b)
	frozen, err := srv.Control.Freeze(ctx)
	if err != nil || !frozen.Frozen {
		t.Fatalf("freeze answered %+v %v", frozen, err)
	}
	if c, err := srv.Control.Advance(ctx, 11*time.Minute); err != nil || !c.Frozen || !c.Now.Equal(frozen.Now.Add(11*time.Minute)) {
		t.Fatalf("advance of the frozen clock answered %+v %v, want %s and still frozen", c, err, frozen.Now.Add(11*time.Minute))
	}
	resp, err := http.Get(b.BundleURL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("link after its TTL on the advanced clock: %d, want 403", resp.StatusCode)
	}
	c, err := srv.Control.Clock(ctx)
	if err != nil || !c.Frozen {
		t.Fatalf("clock: %+v %v", c, err)
	}
	if c, err := srv.Control.Unfreeze(ctx); err != nil || c.Frozen {
		t.Fatalf("unfreeze answered %+v %v", c, err)
	}
	at := time.Date(2031, 1, 2, 3, 4, 5, 0, time.UTC)
	if c, err := srv.Control.SetClock(ctx, at); err != nil || c.Now.Before(at) || c.Frozen {
		t.Fatalf("set clock answered %+v %v, want from %s, running", c, err, at)
	}

	// Reset: the job is gone, its link revoked.
	if err := srv.Control.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if st := admin(t, srv.URL, srv.AdminKey, http.MethodGet, "/v1/static-export/jobs/"+j.JobID, nil, nil); st != 404 {
		t.Errorf("job after reset: %d", st)
	}
	if c, _ := srv.Control.Clock(ctx); c.Now.Year() == 2031 {
		t.Errorf("clock not reset: %s", c.Now)
	}
}

func TestControl_failHoldStatesJournal(t *testing.T) {
	srv := docsadmintest.New(t)
	ctx := t.Context()
	created, err := srv.Control.Fail(ctx, docsadmintest.Fault{Method: "POST", Path: "/v1/static-export/jobs", Status: 503, RetryAfter: time.Second, Times: 1})
	if err != nil {
		t.Fatal(err)
	}
	id := created.ID
	if created.Remaining != 1 || created.Status != 503 || created.RetryAfter != time.Second || created.Hits != 0 {
		t.Errorf("the created fault as answered: %+v", created)
	}
	faults, err := srv.Control.Faults(ctx)
	if err != nil || len(faults) != 1 || faults[0].ID != id {
		t.Fatalf("faults: %+v %v", faults, err)
	}
	if st := admin(t, srv.URL, srv.AdminKey, http.MethodPost, "/v1/static-export/jobs", map[string]string{"domain": docsadmintest.Domain}, nil); st != 503 {
		t.Fatalf("start under the fault: %d", st)
	}
	if err := srv.Control.RemoveFault(ctx, id); err == nil {
		t.Error("removing a used-up fault: no error")
	} else if ce := (*docsadmintest.Error)(nil); !errors.As(err, &ce) || ce.Status != 404 {
		t.Errorf("removing a used-up fault: %v", err)
	}

	if err := srv.Control.Hold(ctx, docsadmintest.OrganizationID); err != nil {
		t.Fatal(err)
	}
	held := startExport(t, srv.URL, srv.AdminKey, docsadmintest.Domain)
	if got, err := srv.Control.SetExportState(ctx, held.JobID, docsadmintest.ExportState{Status: "failed", Error: "quota"}); err != nil {
		t.Fatal(err)
	} else if got.JobID != held.JobID || got.Status != "failed" || got.Error != "quota" {
		t.Errorf("forced failure returned %+v", got)
	}
	if j := waitExport(t, srv.URL, srv.AdminKey, held.JobID); j.Status != "failed" || j.Error != "quota" {
		t.Fatalf("forced failure: %+v", j)
	}
	if err := srv.Control.Release(ctx, docsadmintest.OrganizationID); err != nil {
		t.Fatal(err)
	}
	if got, err := srv.Control.SetExportState(ctx, held.JobID, docsadmintest.ExportState{Status: "completed"}); err != nil {
		t.Fatal(err)
	} else if got.Status != "completed" || got.Version == "" {
		t.Errorf("forced completion returned %+v", got)
	}
	if j := waitExport(t, srv.URL, srv.AdminKey, held.JobID); j.Status != "completed" {
		t.Fatalf("forced completion: %+v", j)
	}

	var aj struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	}
	admin(t, srv.URL, srv.AdminKey, http.MethodPost, "/v2/agent/"+docsadmintest.ProjectID+"/job", map[string]string{"prompt": "p"}, &aj)
	if got, err := srv.Control.SetAgentJobState(ctx, docsadmintest.ProjectID, aj.ID, docsadmintest.AgentJobState{Status: "failed"}); err != nil {
		t.Fatal(err)
	} else if got.ID != aj.ID || got.Status != "failed" {
		t.Errorf("forced agent state returned %+v", got)
	}
	admin(t, srv.URL, srv.AdminKey, http.MethodGet, "/v2/agent/"+docsadmintest.ProjectID+"/job/"+aj.ID, nil, &aj)
	if aj.Status != "failed" {
		t.Errorf("forced agent state: %s", aj.Status)
	}

	reqs, err := srv.Control.Journal(ctx, docsadmintest.JournalFilter{Method: "POST", Path: "/v1/static-export/jobs", Limit: 5})
	if err != nil || len(reqs) != 2 || reqs[0].Status != 503 || reqs[1].Status != 202 {
		t.Fatalf("journal of starts: %+v %v", reqs, err)
	}
	all, _ := srv.Control.Journal(ctx, docsadmintest.JournalFilter{})
	raw, _ := json.Marshal(all)
	if strings.Contains(string(raw), srv.AdminKey[4:]) {
		t.Fatal("the journal holds the admin key")
	}
	if err := srv.Control.ClearJournal(ctx); err != nil {
		t.Fatal(err)
	}
	if reqs, _ := srv.Control.Journal(ctx, docsadmintest.JournalFilter{}); len(reqs) != 0 {
		t.Errorf("journal after clear: %d", len(reqs))
	}
}

// TestControl_twoSuites: two suites on one server, each with its own
// runtime organization, cannot see each other's jobs, and a fault scoped
// to one never touches the other.
func TestControl_twoSuites(t *testing.T) {
	srv := docsadmintest.New(t)
	ctx := t.Context()
	site := docsadmintest.Source{Files: map[string]string{"docs.json": `{"name": "Suite"}`, "index.mdx": "# Suite\n"}}
	a, err := srv.Control.NewOrganization(ctx, docsadmintest.NewOrganization{ID: "suite-a", Source: site})
	if err != nil {
		t.Fatal(err)
	}
	b, err := srv.Control.NewOrganization(ctx, docsadmintest.NewOrganization{Source: site})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.Control.Fail(ctx, docsadmintest.Fault{Path: "/v1/static-export/jobs/*", Status: 500, Organization: a.ID}); err != nil {
		t.Fatal(err)
	}
	ja, jb := startExport(t, srv.URL, a.APIKey, a.Domain), startExport(t, srv.URL, b.APIKey, b.Domain)
	if st := admin(t, srv.URL, a.APIKey, http.MethodGet, "/v1/static-export/jobs/"+ja.JobID, nil, nil); st != 500 {
		t.Errorf("suite a under its fault: %d", st)
	}
	if j := waitExport(t, srv.URL, b.APIKey, jb.JobID); j.Status != "completed" {
		t.Errorf("suite b: %+v", j)
	}
	if st := admin(t, srv.URL, b.APIKey, http.MethodGet, "/v1/static-export/jobs/"+ja.JobID, nil, nil); st != 404 {
		t.Errorf("suite b reading suite a's job: %d", st)
	}
	reqs, err := srv.Control.Journal(ctx, docsadmintest.JournalFilter{Organization: b.ID})
	if err != nil || len(reqs) == 0 {
		t.Fatalf("suite b's journal: %v %v", reqs, err)
	}
	for _, r := range reqs {
		if r.Organization != b.ID {
			t.Errorf("suite b's journal holds %+v", r)
		}
	}
	if err := srv.Control.ResetOrganization(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if err := srv.Control.DeleteOrganization(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if st := admin(t, srv.URL, a.APIKey, http.MethodGet, "/v1/static-export/jobs/"+ja.JobID, nil, nil); st != 401 {
		t.Errorf("deleted organization's key: %d", st)
	}
}

// WithStrict: no field and no status the real service does not document.
func TestNew_strict(t *testing.T) {
	srv := docsadmintest.New(t, docsadmintest.WithStrict(), docsadmintest.WithMaxActiveExports(1))
	j := waitExport(t, srv.URL, srv.AdminKey, startExport(t, srv.URL, srv.AdminKey, docsadmintest.Domain).JobID)
	if j.Status != "completed" || j.Version != "" {
		t.Fatalf("export in strict mode (no version): %+v", j)
	}
	// A missing key on an agent job: the documented 404, not a 401.
	if st := admin(t, srv.URL, "", http.MethodGet, "/v2/agent/"+docsadmintest.ProjectID+"/job/aj_0000000000000000", nil, nil); st != http.StatusNotFound {
		t.Errorf("agent job without a key: %d, want 404", st)
	}
	// Over maxActiveExports: the documented 403, not a 429.
	if err := srv.Control.Hold(t.Context(), docsadmintest.OrganizationID); err != nil {
		t.Fatal(err)
	}
	startExport(t, srv.URL, srv.AdminKey, docsadmintest.Domain)
	if st := admin(t, srv.URL, srv.AdminKey, http.MethodPost, "/v1/static-export/jobs", map[string]string{"domain": docsadmintest.Domain}, nil); st != http.StatusForbidden {
		t.Errorf("start over the limit: %d, want 403", st)
	}
}

// TestControl_basePath: an organization created with the base path its
// site is served under gets exports whose links written with that prefix
// resolve; without it the same source reports them unresolved.
func TestControl_basePath(t *testing.T) {
	srv := docsadmintest.New(t)
	ctx := t.Context()
	site := docsadmintest.Source{Files: map[string]string{
		"docs.json": `{"name": "Prefixed", "navigation": {"pages": ["index", "guide"]}}`,
		"index.mdx": "# Home\n\nRead [the guide](/docs/guide).\n",
		"guide.mdx": "# Guide\n\nBack [home](/docs).\n",
	}}
	for _, tc := range []struct {
		base       string
		unresolved bool
	}{{"/docs", false}, {"", true}} {
		o, err := srv.Control.NewOrganization(ctx, docsadmintest.NewOrganization{BasePath: tc.base, Source: site})
		if err != nil {
			t.Fatal(err)
		}
		j := waitExport(t, srv.URL, o.APIKey, startExport(t, srv.URL, o.APIKey, o.Domain).JobID)
		if j.Status != "completed" {
			t.Fatalf("base path %q: export %+v", tc.base, j)
		}
		var got exportJob
		admin(t, srv.URL, o.APIKey, http.MethodGet, "/v1/static-export/jobs/"+j.JobID, nil, &got)
		reported := strings.Contains(strings.Join(got.Warning.Messages, "\n"), "index: /docs/guide")
		if reported != tc.unresolved {
			t.Errorf("base path %q: /docs/guide reported unresolved: %v, want %v (warnings %q)", tc.base, reported, tc.unresolved, got.Warning.Messages)
		}
	}
	if _, err := srv.Control.NewOrganization(ctx, docsadmintest.NewOrganization{BasePath: "/a/../b", Source: site}); err == nil {
		t.Error("a base path with dot segments was accepted")
	}
}
