package docsadmintest_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/docsadmintest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// shared is one server for the package's tests that use Scope, started
// in TestMain as another project's suite would.
var shared *docsadmintest.Server

func TestMain(m *testing.M) {
	var err error
	shared, err = docsadmintest.Start(docsadmintest.WithAgent(docsadmintest.Agent{Outcome: docsadmintest.AgentNoChanges, Duration: time.Minute}))
	if err != nil {
		log.Fatal(err)
	}
	code := m.Run()
	if err := shared.Close(); err != nil {
		log.Print(err)
		code = 1
	}
	os.Exit(code)
}

type agentJob struct {
	ID     string  `json:"id"`
	Status string  `json:"status"`
	PRLink *string `json:"prLink"`
}

func startAgentJob(t *testing.T, base, key, project string) agentJob {
	t.Helper()
	var j agentJob
	if st := admin(t, base, key, http.MethodPost, "/v2/agent/"+project+"/job", map[string]string{"prompt": "p"}, &j); st/100 != 2 {
		t.Fatalf("start agent job: %d", st)
	}
	return j
}

// TestScope_parallelTestsShareAServer: tests running in parallel on the
// TestMain server each get an organization of their own; a fault, a
// count, a verification and a reset of one never see the other's
// requests, and the organization is gone when its test ends.
func TestScope_parallelTestsShareAServer(t *testing.T) {
	orgs := make(chan docsadmintest.Organization, 2)
	t.Run("group", func(t *testing.T) {
		for _, name := range []string{"faulted", "clean"} {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				sc := shared.Scope(t, docsadmintest.NewOrganization{})
				orgs <- sc.Organization
				ctx := t.Context()
				if name == "faulted" {
					f, err := sc.Control.Fail(ctx, docsadmintest.Fault{Method: "POST", Path: "/v1/static-export/jobs", Times: 1})
					if err != nil {
						t.Fatal(err)
					}
					if f.Organization != sc.ID || f.Status != http.StatusServiceUnavailable {
						t.Errorf("a scope's fault as created: %+v, want its organization and a 503", f)
					}
					if faults, err := sc.Control.Faults(ctx); err != nil || len(faults) != 1 || faults[0].ID != f.ID {
						t.Errorf("the scope's faults: %+v %v", faults, err)
					}
					if st := admin(t, sc.URL, sc.APIKey, http.MethodPost, "/v1/static-export/jobs", map[string]string{"domain": sc.Domain}, nil); st != 503 {
						t.Errorf("first start under the scope's fault: %d", st)
					}
				}
				j := waitExport(t, sc.URL, sc.APIKey, startExport(t, sc.URL, sc.APIKey, sc.Domain).JobID)
				if j.Status != "completed" {
					t.Fatalf("export: %+v", j)
				}
				starts := map[string]int{"faulted": 2, "clean": 1}[name]
				start := docsadmintest.Match{Method: "POST", Path: "/v1/static-export/jobs"}
				sc.Control.VerifyCount(t, start, starts)
				sc.Control.VerifyOnly(t, docsadmintest.Match{}, start, docsadmintest.Match{Route: "GET /v1/static-export/jobs/{jobId}"})
				sc.Control.VerifyNoUnmatched(t)
				if reqs, err := sc.Control.Journal(ctx, docsadmintest.JournalFilter{}); err != nil || len(reqs) == 0 {
					t.Fatalf("the scope's journal: %d %v", len(reqs), err)
				} else {
					for _, r := range reqs {
						if r.Organization != sc.ID {
							t.Errorf("the scope's journal holds another's request: %+v", r)
						}
					}
				}

				// Reset: this organization's job is gone, the server's
				// own organization untouched.
				if err := sc.Control.Reset(ctx); err != nil {
					t.Fatal(err)
				}
				if n, err := sc.Control.Count(ctx, docsadmintest.Match{}); err != nil || n != 0 {
					t.Errorf("the scope's journal after its reset: %d requests, %v", n, err)
				}
				if st := admin(t, sc.URL, sc.APIKey, http.MethodGet, "/v1/static-export/jobs/"+j.JobID, nil, nil); st != http.StatusNotFound {
					t.Errorf("job after the scope's reset: %d, want 404", st)
				}
			})
		}
	})
	close(orgs)
	for o := range orgs {
		if st := admin(t, shared.URL, o.APIKey, http.MethodGet, "/v1/static-export/jobs/se_0000000000000000", nil, nil); st != http.StatusUnauthorized {
			t.Errorf("organization %s after its test ended: key answered %d, want 401", o.ID, st)
		}
	}
	if faults, err := shared.Control.Faults(t.Context()); err != nil || len(faults) != 0 {
		t.Errorf("faults left behind by the scopes: %+v %v", faults, err)
	}
}

// TestScope_agent: the server's WithAgent scripts the agent of its own
// organization and of the scopes that say nothing; a scope's Agent
// overrides it.
func TestScope_agent(t *testing.T) {
	ctx := t.Context()
	dflt := shared.Scope(t, docsadmintest.NewOrganization{})
	failing := shared.Scope(t, docsadmintest.NewOrganization{Agent: &docsadmintest.Agent{Outcome: docsadmintest.AgentFail}})
	jobs := map[string]agentJob{
		"server's own":    startAgentJob(t, shared.URL, shared.AdminKey, docsadmintest.ProjectID),
		"scope's default": startAgentJob(t, dflt.URL, dflt.APIKey, dflt.ProjectID),
		"scope's fail":    startAgentJob(t, failing.URL, failing.APIKey, failing.ProjectID),
	}
	if jobs["scope's fail"].Status != "failed" {
		t.Errorf("an agent that fails at once: %+v", jobs["scope's fail"])
	}
	for _, name := range []string{"server's own", "scope's default"} {
		if j := jobs[name]; j.Status != "active" {
			t.Errorf("%s agent (a minute to go): %+v", name, j)
		}
	}
	// The clock is the server's: a minute on it finishes both.
	if _, err := shared.Control.Advance(ctx, time.Minute); err != nil {
		t.Fatal(err)
	}
	for name, base := range map[string]struct{ key, project string }{
		"server's own": {shared.AdminKey, docsadmintest.ProjectID}, "scope's default": {dflt.APIKey, dflt.ProjectID},
	} {
		var j agentJob
		admin(t, shared.URL, base.key, http.MethodGet, "/v2/agent/"+base.project+"/job/"+jobs[name].ID, nil, &j)
		if j.Status != "completed" || j.PRLink != nil {
			t.Errorf("%s agent after its minute: %+v, want completed without a pull request", name, j)
		}
	}
	if _, err := shared.Control.NewOrganization(ctx, docsadmintest.NewOrganization{Agent: &docsadmintest.Agent{Duration: -time.Second},
		Source: docsadmintest.Source{Files: map[string]string{"docs.json": "{}"}}}); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Errorf("a negative agent duration: %v", err)
	}
	if _, err := docsadmintest.Start(docsadmintest.WithAgent(docsadmintest.Agent{Outcome: "maybe"})); err == nil {
		t.Error("an unknown agent outcome was accepted")
	}
}

// TestStart_closeTwice: Close stops the server, and again is no error.
func TestStart_closeTwice(t *testing.T) {
	srv, err := docsadmintest.Start()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.Control.Clock(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	if err := srv.Close(); err != nil {
		t.Errorf("second close: %v", err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if _, err := srv.Control.Clock(ctx); err == nil {
		t.Error("the server still answers after Close")
	}
}

// TestWithExportWorkers: with one worker, of two exports one waits
// queued while the other renders.
func TestWithExportWorkers(t *testing.T) {
	srv := docsadmintest.New(t, docsadmintest.WithExportWorkers(1))
	// A site large enough that its render is seen running.
	files := map[string]string{}
	var pages []string
	for i := range 120 {
		name := fmt.Sprintf("p%03d", i)
		pages = append(pages, `"`+name+`"`)
		files[name+".mdx"] = fmt.Sprintf("# Page %d\n\n%s\n", i, strings.Repeat("Some text with `code` and **bold** words. ", 40))
	}
	files["docs.json"] = `{"name": "Large", "navigation": {"pages": [` + strings.Join(pages, ", ") + `]}}`
	o, err := srv.Control.NewOrganization(t.Context(), docsadmintest.NewOrganization{Source: docsadmintest.Source{Files: files}})
	if err != nil {
		t.Fatal(err)
	}
	a := startExport(t, srv.URL, o.APIKey, o.Domain)
	b := startExport(t, srv.URL, o.APIKey, o.Domain)
	sawQueued := false
	testutil.Eventually(t, 2*time.Minute, "both exports to finish", func() bool {
		var ja, jb exportJob
		admin(t, srv.URL, o.APIKey, http.MethodGet, "/v1/static-export/jobs/"+a.JobID, nil, &ja)
		admin(t, srv.URL, o.APIKey, http.MethodGet, "/v1/static-export/jobs/"+b.JobID, nil, &jb)
		if ja.Status == "running" && jb.Status == "running" {
			t.Fatalf("both exports run at once with one worker")
		}
		if ja.Status == "failed" || jb.Status == "failed" {
			t.Fatalf("exports failed: %+v %+v", ja, jb)
		}
		sawQueued = sawQueued || ja.Status == "running" && jb.Status == "queued" || jb.Status == "running" && ja.Status == "queued"
		return ja.Status == "completed" && jb.Status == "completed"
	})
	if !sawQueued {
		t.Error("neither export was seen waiting while the other ran")
	}
}
