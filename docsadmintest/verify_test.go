package docsadmintest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/docsadmintest"
)

// failures is a testing.TB that keeps what a helper reports instead of
// failing the test that uses it.
type failures struct {
	testing.TB
	errors []string
}

func (f *failures) Helper() {}

func (f *failures) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}

// The helpers pass on what the server received and fail the test, with the
// server's report, on what it did not.
func TestControl_verify(t *testing.T) {
	srv := docsadmintest.New(t)
	ctx := t.Context()
	site := docsadmintest.Source{Files: map[string]string{"docs.json": `{"name": "Suite"}`, "index.mdx": "# Suite\n"}}
	org, err := srv.Control.NewOrganization(ctx, docsadmintest.NewOrganization{Source: site})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Control.Hold(ctx, org.ID); err != nil {
		t.Fatal(err)
	}
	j := startExport(t, srv.URL, org.APIKey, org.Domain)
	startExport(t, srv.URL, org.APIKey, org.Domain)
	admin(t, srv.URL, org.APIKey, http.MethodGet, "/v1/static-export/jobs/"+j.JobID, nil, nil)
	admin(t, srv.URL, org.APIKey, http.MethodGet, "/v1/nothing", nil, nil)

	start := docsadmintest.Match{Method: "POST", Path: "/v1/static-export/jobs", Organization: org.ID,
		Body: map[string]any{"domain": org.Domain}}
	read := docsadmintest.Match{Route: "GET /v1/static-export/jobs/{jobId}"}
	mine := docsadmintest.Match{Organization: org.ID}
	srv.Control.VerifyCount(t, start, 2)
	srv.Control.VerifyAtLeast(t, read, 1)
	srv.Control.VerifyNever(t, docsadmintest.Match{Organization: docsadmintest.OrganizationID})
	srv.Control.VerifySequence(t, mine, start, start, read)
	srv.Control.VerifyOnly(t, mine, start, read, docsadmintest.Match{Unmatched: true})
	if n, err := srv.Control.Count(ctx, start); err != nil || n != 2 {
		t.Errorf("count of starts: %d %v", n, err)
	}
	if un, err := srv.Control.Unmatched(ctx); err != nil || len(un) != 1 || un[0].Path != "/v1/nothing" || un[0].Status != 404 {
		t.Errorf("unmatched: %+v %v", un, err)
	}

	for _, tc := range []struct {
		name  string
		check func(testing.TB)
		want  []string
	}{
		{"count", func(ft testing.TB) { srv.Control.VerifyCount(ft, start, 1) }, []string{
			`want exactly 1 request matching POST /v1/static-export/jobs organization=` + org.ID + ` body.domain="` + org.Domain + `"; got 2`,
			"POST /v1/static-export/jobs -> 202  organization=" + org.ID, "<- match",
		}},
		{"sequence", func(ft testing.TB) { srv.Control.VerifySequence(ft, mine, read, start) }, []string{
			"step 2 (POST /v1/static-export/jobs", "was not received after request 3 (step 1)", "matches step 2, but too early",
		}},
		{"only", func(ft testing.TB) { srv.Control.VerifyOnly(ft, mine, start, read) }, []string{
			"got 1 other request", "GET /v1/nothing -> 404  organization=" + org.ID + "  (no route)  <- not allowed",
		}},
		{"unmatched", func(ft testing.TB) { srv.Control.VerifyNoUnmatched(ft) }, []string{
			"want no request matching no route; got 1", "GET /v1/nothing -> 404",
		}},
	} {
		ft := &failures{TB: t}
		tc.check(ft)
		if len(ft.errors) != 1 {
			t.Errorf("%s: the helper reported %d failures, want 1: %q", tc.name, len(ft.errors), ft.errors)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(ft.errors[0], w) {
				t.Errorf("%s: the failure lacks %q:\n%s", tc.name, w, ft.errors[0])
			}
		}
	}
}

// WithJournalSize bounds the journal; what it let go is reported, and a
// count it could change fails saying so.
func TestControl_journalSize(t *testing.T) {
	srv := docsadmintest.New(t, docsadmintest.WithJournalSize(2))
	for range 3 {
		admin(t, srv.URL, srv.AdminKey, http.MethodGet, "/v1/static-export/jobs/se_0123456789abcdef", nil, nil)
	}
	p, err := srv.Control.ReadJournal(t.Context(), docsadmintest.JournalFilter{})
	if err != nil || len(p.Requests) != 2 || p.Size != 2 || p.Dropped != 1 {
		t.Fatalf("journal of 2 after 3 requests: %+v %v", p, err)
	}
	ft := &failures{TB: t}
	srv.Control.VerifyCount(ft, docsadmintest.Match{Path: "/v1/static-export/jobs/*"}, 2)
	if len(ft.errors) != 1 || !strings.Contains(ft.errors[0], "but the journal let 1 older request go") {
		t.Errorf("count over a journal that let a request go: %q", ft.errors)
	}
}

// Faults take and list time.Duration, a stub's body as any Go value, and
// a probability whose seed the server picked; journaled requests carry
// their Duration.
func TestControl_faultTypes(t *testing.T) {
	srv := docsadmintest.New(t)
	ctx := t.Context()
	stub := map[string]any{"jobId": "se_00000000000000aa", "status": "queued"}
	if _, err := srv.Control.Fail(ctx, docsadmintest.Fault{Method: "POST", Path: "/v1/static-export/jobs", Status: 202,
		Body: stub, RetryAfter: 1500 * time.Millisecond, Times: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.Control.Fail(ctx, docsadmintest.Fault{Path: "/healthz", Delay: time.Millisecond, Probability: 0.5, TTL: time.Hour}); err != nil {
		t.Fatal(err)
	}
	faults, err := srv.Control.Faults(ctx)
	if err != nil || len(faults) != 2 {
		t.Fatalf("faults: %+v %v", faults, err)
	}
	if f := faults[0]; f.RetryAfter != 1500*time.Millisecond || f.Remaining != 1 || string(f.Body.(json.RawMessage)) == "" {
		t.Errorf("stub as listed: %+v", f)
	}
	if f := faults[1]; f.Delay != time.Millisecond || f.TTL != time.Hour || f.Seed == 0 || f.Remaining != -1 || f.ExpiresAt.IsZero() {
		t.Errorf("probable delay as listed: %+v", f)
	}
	var got exportJob
	if st := admin(t, srv.URL, srv.AdminKey, http.MethodPost, "/v1/static-export/jobs", map[string]string{"domain": docsadmintest.Domain}, &got); st != 202 || got.JobID != "se_00000000000000aa" {
		t.Errorf("start under the stub: %d %+v", st, got)
	}
	reqs, err := srv.Control.Journal(ctx, docsadmintest.JournalFilter{Method: "POST"})
	if err != nil || len(reqs) != 1 || reqs[0].Duration <= 0 || reqs[0].ResponseBytes == 0 || reqs[0].Route != "POST /v1/static-export/jobs" {
		t.Errorf("journaled start: %+v %v", reqs, err)
	}
}
