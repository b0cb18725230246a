// Package gosuite_test is an acceptance suite in Go, as another project
// would write it for its own client of the admin API: one reference
// server for the package (docsadmintest.Start in TestMain), an
// organization of its own for each test (Server.Scope), faults injected
// into that organization's requests only, and what the server received
// checked with the control plane's verification. The client under test
// is the small one below; a real suite imports its own.
package gosuite_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/docsadmintest"
)

var srv *docsadmintest.Server

func TestMain(m *testing.M) {
	var err error
	if srv, err = docsadmintest.Start(); err != nil {
		log.Fatal(err)
	}
	code := m.Run()
	if err := srv.Close(); err != nil {
		log.Print(err)
		code = 1
	}
	os.Exit(code)
}

// --- The client under test ---------------------------------------------------

// client is a small client of the admin API: it retries a start answered
// 5xx as Retry-After says, and polls an export until it ends, polling
// again (three times at most) after a 5xx or an answer it cannot read.
type client struct {
	base, key string
	http      http.Client
}

type job struct {
	JobID  string `json:"jobId"`
	Status string `json:"status"`
	Error  string `json:"error"`
}

func (c *client) do(ctx context.Context, method, path string, body any) (int, http.Header, []byte, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, nil, nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.key)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, data, err
}

func (c *client) startExport(ctx context.Context, domain string) (job, error) {
	for attempt := 0; ; attempt++ {
		status, h, data, err := c.do(ctx, http.MethodPost, "/v1/static-export/jobs", map[string]string{"domain": domain})
		if err != nil {
			return job{}, err
		}
		if status == http.StatusAccepted {
			var j job
			return j, json.Unmarshal(data, &j)
		}
		if status < 500 || attempt == 3 {
			return job{}, fmt.Errorf("start export: %d %s", status, data)
		}
		secs, _ := strconv.Atoi(h.Get("Retry-After"))
		time.Sleep(time.Duration(max(secs, 1)) * time.Second)
	}
}

func (c *client) waitExport(ctx context.Context, id string) (job, error) {
	broken := 0
	for range 600 {
		status, _, data, err := c.do(ctx, http.MethodGet, "/v1/static-export/jobs/"+id, nil)
		var j job
		switch {
		case err == nil && status >= 500:
			err = fmt.Errorf("export %s: %d", id, status)
		case err == nil && status == http.StatusOK:
			err = json.Unmarshal(data, &j)
		}
		switch {
		case err != nil:
			if broken++; broken > 3 {
				return j, err
			}
			continue
		case status != http.StatusOK:
			return j, fmt.Errorf("export %s: %d %s", id, status, data)
		case j.Status == "completed":
			return j, nil
		case j.Status == "failed":
			return j, errors.New("export failed: " + j.Error)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return job{}, fmt.Errorf("export %s did not finish", id)
}

// --- The suite ---------------------------------------------------------------

var (
	start = docsadmintest.Match{Route: "POST /v1/static-export/jobs"}
	poll  = docsadmintest.Match{Route: "GET /v1/static-export/jobs/{jobId}"}
)

// newClient gives the test an organization of its own and a client of it;
// the test's requests are then all that its Control sees.
func newClient(t *testing.T) (*docsadmintest.Scope, *client) {
	t.Parallel()
	sc := srv.Scope(t, docsadmintest.NewOrganization{})
	t.Cleanup(func() {
		sc.Control.VerifyNoUnmatched(t)
		sc.Control.VerifyOnly(t, docsadmintest.Match{}, start, poll)
	})
	return sc, &client{base: sc.URL, key: sc.APIKey, http: http.Client{Timeout: time.Minute}}
}

func TestClient_retriesAStartAnswered503(t *testing.T) {
	sc, c := newClient(t)
	if _, err := sc.Control.Fail(t.Context(), docsadmintest.Fault{Method: "POST", Path: "/v1/static-export/jobs",
		Status: 503, RetryAfter: time.Second, Times: 2}); err != nil {
		t.Fatal(err)
	}
	j, err := c.startExport(t.Context(), sc.Domain)
	if err != nil {
		t.Fatal(err)
	}
	if done, err := c.waitExport(t.Context(), j.JobID); err != nil || done.JobID != j.JobID || done.Status != "completed" {
		t.Fatalf("the export as the client saw it end: %+v %v", done, err)
	}
	mine := start
	mine.Body = map[string]any{"domain": sc.Domain}
	sc.Control.VerifyCount(t, mine, 3)
	sc.Control.VerifySequence(t, start, docsadmintest.Match{Status: 503}, docsadmintest.Match{Status: 503}, docsadmintest.Match{Status: 202})
}

// A share of the polls answered 502, drawn from a seed the server picks
// and reports (Fault.Seed replays the draws): the client gets through.
func TestClient_pollsThroughProbabilisticFaults(t *testing.T) {
	sc, c := newClient(t)
	ctx := t.Context()
	f, err := sc.Control.Fail(ctx, docsadmintest.Fault{Method: "GET", Path: "/v1/static-export/jobs/*", Status: 502, Probability: 0.3, Times: 3})
	if err != nil {
		t.Fatal(err)
	}
	if f.Seed == 0 {
		t.Fatalf("the server did not say which seed it picked: %+v", f)
	}
	j, err := c.startExport(ctx, sc.Domain)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.waitExport(ctx, j.JobID); err != nil {
		t.Fatal(err)
	}
	// Every 502 was followed by another poll, and the export was seen
	// completed at last.
	reqs, err := sc.Control.Journal(ctx, docsadmintest.JournalFilter{Method: "GET"})
	if err != nil || len(reqs) == 0 || reqs[len(reqs)-1].Status != http.StatusOK {
		t.Fatalf("polls: %+v %v", reqs, err)
	}
}

// Status answers cut short, not JSON and empty: the client polls again.
func TestClient_pollsAgainAfterBrokenAnswers(t *testing.T) {
	sc, c := newClient(t)
	ctx := t.Context()
	if err := sc.Control.Hold(ctx, ""); err != nil {
		t.Fatal(err)
	}
	j, err := c.startExport(ctx, sc.Domain)
	if err != nil {
		t.Fatal(err)
	}
	for _, shape := range []string{docsadmintest.Truncated, docsadmintest.Malformed, docsadmintest.Empty} {
		if _, err := sc.Control.Fail(ctx, docsadmintest.Fault{Method: "GET", Path: "/v1/static-export/jobs/*", Response: shape, Times: 1}); err != nil {
			t.Fatal(err)
		}
	}
	if err := sc.Control.Release(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := c.waitExport(ctx, j.JobID); err != nil {
		t.Fatal(err)
	}
	if left, err := sc.Control.Faults(ctx); err != nil || len(left) != 0 {
		t.Errorf("faults that never struck: %+v %v", left, err)
	}
	sc.Control.VerifyAtLeast(t, poll, 4)
}

// A stub answers the next poll with the export failed: the client passes
// the server's error on.
func TestClient_reportsAFailedExport(t *testing.T) {
	sc, c := newClient(t)
	ctx := t.Context()
	j, err := c.startExport(ctx, sc.Domain)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sc.Control.Fail(ctx, docsadmintest.Fault{Method: "GET", Path: "/v1/static-export/jobs/" + j.JobID, Times: 1,
		Body: map[string]any{"jobId": j.JobID, "status": "failed", "progress": 0, "error": "the docs source has no docs.json"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.waitExport(ctx, j.JobID); err == nil || err.Error() != "export failed: the docs source has no docs.json" {
		t.Errorf("the client reported %v", err)
	}
	sc.Control.VerifyCount(t, poll, 1)
}
