package apiserver_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// journal reads the journal entries that match query ("?path=/x").
func journal(t *testing.T, env *apiservertest.Env, query string) api.ControlJournal {
	t.Helper()
	var j api.ControlJournal
	ctl(t, env, http.MethodGet, api.PathControlRequests+query, nil, 200).decode(t, &j)
	return j
}

// eventuallyJournaled waits until query selects n entries, the last of
// which it puts in e: a request is journaled as its handler ends.
func eventuallyJournaled(t *testing.T, env *apiservertest.Env, query string, n int, e *api.ControlRequest) {
	t.Helper()
	testutil.Eventually(t, 10*time.Second, "the request to be journaled", func() bool {
		got := journal(t, env, query).Requests
		if len(got) >= n {
			*e = got[n-1]
		}
		return len(got) >= n
	})
}

// TestControl_journalKeepsEveryBody: a request answered without its body
// being read (struck by a fault, refused for its key, or closed by a
// reset fault) is journaled with the body it sent, redacted as ever.
func TestControl_journalKeepsEveryBody(t *testing.T) {
	env := controlEnv(t)
	ctl(t, env, http.MethodPost, api.PathControlFaults, map[string]any{"method": "POST", "path": api.PathExportJobs, "status": 503, "times": 1}, 201)
	body := `{"domain": "` + env.Domain + `", "note": "` + env.OtherKey + `"}`
	if r := call(t, http.MethodPost, env.URL+api.PathExportJobs, env.Key, body); r.status != 503 {
		t.Fatalf("start under the fault: %d", r.status)
	}
	call(t, http.MethodPost, env.URL+api.PathExportJobs, "dak_unknown0123456789abcdef", `{"domain": "x.test"}`)
	ctl(t, env, http.MethodPost, api.PathControlFaults, map[string]any{"method": "POST", "path": api.PathExportJobs, "reset": true, "times": 1}, 201)
	fresh := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	req, _ := http.NewRequest(http.MethodPost, env.URL+api.PathExportJobs, strings.NewReader(`{"domain": "reset.test"}`))
	req.Header.Set("Authorization", "Bearer "+env.Key)
	req.Header.Set("Content-Type", "application/json")
	if resp, err := fresh.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("reset fault: got an answer %d", resp.StatusCode)
	}

	got := journal(t, env, "?path="+api.PathExportJobs).Requests
	if len(got) != 3 {
		t.Fatalf("journal: %+v", got)
	}
	for i, want := range []struct {
		status  int
		body    string
		bytes   int
		aborted string
	}{
		{503, `{"domain": "` + env.Domain + `", "note": "dak_REDACTED"}`, len(body), ""},
		{401, `{"domain": "x.test"}`, 20, ""},
		{0, `{"domain": "reset.test"}`, 24, api.AbortedByServer},
	} {
		e := got[i]
		if e.Status != want.status || e.Body != want.body || e.BodyBytes != int64(want.bytes) || e.Aborted != want.aborted {
			t.Errorf("entry %d: status %d body %q (%d bytes) aborted %q, want %d %q (%d) %q",
				i, e.Status, e.Body, e.BodyBytes, e.Aborted, want.status, want.body, want.bytes, want.aborted)
		}
	}
}

// TestControl_journalAnswers: every entry says what was answered: its
// status, the body bytes sent and how long it took.
func TestControl_journalAnswers(t *testing.T) {
	env := controlEnv(t)
	job := env.StartExport(t, api.StartExportRequest{Domain: env.Domain})
	r := call(t, http.MethodGet, env.URL+fill(api.PathExportJob, "jobId", job.JobID), env.Key, nil)
	ctl(t, env, http.MethodPost, api.PathControlFaults, map[string]any{"path": "/healthz", "delay": "200ms", "times": 1}, 201)
	call(t, http.MethodGet, env.URL+"/healthz", "", nil)

	got := journal(t, env, "?method=GET").Requests
	if len(got) != 2 {
		t.Fatalf("journal: %+v", got)
	}
	if e := got[0]; e.Status != 200 || e.ResponseBytes != int64(len(r.body)) || e.DurationMs <= 0 || e.Aborted != "" {
		t.Errorf("job read: %+v, want 200 with %d bytes", e, len(r.body))
	}
	if e := got[1]; e.Status != 200 || e.ResponseBytes == 0 || e.DurationMs < 200 {
		t.Errorf("delayed probe: %+v, want 200 after at least 200 ms", e)
	}
}

// TestControl_journalClientGaveUp: a client that stops waiting before the
// answer is journaled with status 0 and aborted "client".
func TestControl_journalClientGaveUp(t *testing.T) {
	env := controlEnv(t)
	var id api.ControlFaultState
	ctl(t, env, http.MethodPost, api.PathControlFaults, map[string]any{"path": "/healthz", "delay": "1m", "times": 1}, 201).decode(t, &id)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, env.URL+"/healthz", nil)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	testutil.Eventually(t, 10*time.Second, "the request to reach the fault", func() bool {
		var fs api.ControlFaults
		ctl(t, env, http.MethodGet, api.PathControlFaults, nil, 200).decode(t, &fs)
		return len(fs.Faults) == 0 // struck once, so used up
	})
	cancel()
	if err := <-done; err == nil {
		t.Fatal("the request was answered")
	}
	var e api.ControlRequest
	eventuallyJournaled(t, env, "?path=/healthz", 1, &e)
	if e.Status != 0 || e.Aborted != api.AbortedByClient || e.ResponseBytes != 0 {
		t.Errorf("abandoned request: %+v, want status 0 aborted by the client", e)
	}
}

// TestControl_journalReportsDropped: the ring says how many requests it
// let go, and a verification they could change fails saying so.
func TestControl_journalReportsDropped(t *testing.T) {
	env := controlEnv(t, apiservertest.WithConfig(func(c *apiconfig.Config) { c.Control.JournalSize = 3 }))
	at := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
	ctl(t, env, http.MethodPost, api.PathControlClock, map[string]any{"now": at, "frozen": true}, 200)
	for range 5 {
		call(t, http.MethodGet, env.URL+"/healthz", "", nil)
	}
	ctl(t, env, http.MethodPost, api.PathControlClockAdvance, map[string]string{"by": "1m"}, 200)
	call(t, http.MethodGet, env.URL+"/readyz", "", nil)
	if j := journal(t, env, ""); len(j.Requests) != 3 || j.Size != 3 || j.Dropped != 3 {
		t.Fatalf("journal of 3 after 6 requests: %d requests, size %d, dropped %d", len(j.Requests), j.Size, j.Dropped)
	}
	v := verify(t, env.URL, `{"match": {"path": "/healthz"}, "count": 2}`, 409)
	if !strings.Contains(v.Report, "but the journal let 3 older requests go to make room (it keeps 3; the newest it let go arrived 2030-01-01T12:00:00.000Z)") {
		t.Errorf("report:\n%s", v.Report)
	}
	verify(t, env.URL, `{"match": {"path": "/healthz"}, "atLeast": 1}`, 200)                               // more can only add
	verify(t, env.URL, `{"match": {"path": "/readyz", "since": "2030-01-01T12:00:30Z"}, "count": 1}`, 200) // after the loss
	ctl(t, env, http.MethodDelete, api.PathControlRequests, nil, 204)
	if j := journal(t, env, ""); j.Dropped != 0 {
		t.Errorf("dropped after emptying: %d", j.Dropped)
	}
}
