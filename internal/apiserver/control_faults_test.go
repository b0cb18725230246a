package apiserver_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
)

// addFault creates a fault and returns its id.
func addFault(t *testing.T, env *apiservertest.Env, fault string) string {
	t.Helper()
	return createFault(t, env, fault).ID
}

// createFault creates a fault and returns it as the server answered.
func createFault(t *testing.T, env *apiservertest.Env, fault string) api.ControlFaultState {
	t.Helper()
	var st api.ControlFaultState
	ctl(t, env, http.MethodPost, api.PathControlFaults, fault, 201).decode(t, &st)
	return st
}

// TestControl_faultProbability: a fault with a probability strikes some
// matching requests and not others, and the same seed strikes the same
// ones again; without a seed the server picks one and lists it.
func TestControl_faultProbability(t *testing.T) {
	env := controlEnv(t)
	run := func(fault string) []int {
		id := addFault(t, env, fault)
		var got []int
		for range 24 {
			got = append(got, call(t, http.MethodGet, env.URL+"/healthz", "", nil).status)
		}
		ctl(t, env, http.MethodDelete, fill(api.PathControlFault, "id", id), nil, 204)
		return got
	}
	first := run(`{"path": "/healthz", "probability": 0.5, "seed": 42}`)
	if !slices.Contains(first, 503) || !slices.Contains(first, 200) {
		t.Fatalf("probability 0.5 over 24 requests: %v", first)
	}
	if again := run(`{"path": "/healthz", "probability": 0.5, "seed": 42}`); !slices.Equal(first, again) {
		t.Errorf("the same seed struck other requests:\n%v\n%v", first, again)
	}

	created := createFault(t, env, `{"path": "/healthz", "probability": 0.25, "times": 3}`)
	if created.ID == "" || created.Seed == nil || created.Remaining == nil || *created.Remaining != 3 || created.Hits != 0 {
		t.Fatalf("the creation's answer does not show the fault with its picked seed: %+v", created)
	}
	var faults api.ControlFaults
	ctl(t, env, http.MethodGet, api.PathControlFaults, nil, 200).decode(t, &faults)
	if len(faults.Faults) != 1 || faults.Faults[0].Seed == nil || *faults.Faults[0].Probability != 0.25 {
		t.Fatalf("an unseeded fault does not show its seed: %+v", faults.Faults)
	}
	if *faults.Faults[0].Seed != *created.Seed {
		t.Errorf("seed listed %d, answered at creation %d", *faults.Faults[0].Seed, *created.Seed)
	}
}

// TestControl_faultStub: a fault with a body answers it, with its status,
// for the next N matching requests instead of the real operation.
func TestControl_faultStub(t *testing.T) {
	env := controlEnv(t)
	stub := `{"jobId": "se_00000000000000aa", "status": "queued", "progress": 0}`
	addFault(t, env, `{"method": "POST", "path": "/v1/static-export/jobs", "status": 202, "body": `+stub+`, "times": 2}`)
	start := map[string]string{"domain": env.Domain}
	for i := range 2 {
		r := call(t, http.MethodPost, env.URL+api.PathExportJobs, env.Key, start)
		if r.status != 202 || string(r.body) != stub || r.header.Get("Content-Type") != "application/json" {
			t.Fatalf("start %d under the stub: %d %s", i, r.status, r.body)
		}
	}
	if r := call(t, http.MethodGet, env.URL+fill(api.PathExportJob, "jobId", "se_00000000000000aa"), env.Key, nil); r.status != 404 {
		t.Errorf("the stub created a job: %d", r.status)
	}
	var j api.ExportJob
	call(t, http.MethodPost, env.URL+api.PathExportJobs, env.Key, start).decode(t, &j)
	if j.JobID == "" || j.JobID == "se_00000000000000aa" {
		t.Errorf("start after the stub's 2 times: %+v", j)
	}
	// Without a status a stub is a 200.
	addFault(t, env, `{"path": "/healthz", "body": {"status": "stubbed"}, "times": 1}`)
	if r := call(t, http.MethodGet, env.URL+"/healthz", "", nil); r.status != 200 || string(r.body) != `{"status": "stubbed"}` {
		t.Errorf("stub without a status: %d %s", r.status, r.body)
	}
}

// TestControl_faultResponses: malformed, truncated and empty answers,
// of the real operation or of the fault's own status.
func TestControl_faultResponses(t *testing.T) {
	env := controlEnv(t)
	job := env.StartExport(t, api.StartExportRequest{Domain: env.Domain})
	jobURL := env.URL + fill(api.PathExportJob, "jobId", job.JobID)

	addFault(t, env, `{"path": "/v1/static-export/jobs/*", "response": "malformed", "times": 1}`)
	r := call(t, http.MethodGet, jobURL, env.Key, nil)
	if r.status != 200 || json.Valid(r.body) || len(r.body) == 0 || r.header.Get("Content-Length") != strconv.Itoa(len(r.body)) {
		t.Errorf("malformed: %d %q (Content-Length %s)", r.status, r.body, r.header.Get("Content-Length"))
	}

	addFault(t, env, `{"path": "/v1/static-export/jobs/*", "status": 502, "response": "empty", "times": 1}`)
	if r := call(t, http.MethodGet, jobURL, env.Key, nil); r.status != 502 || len(r.body) != 0 {
		t.Errorf("empty 502: %d %q", r.status, r.body)
	}
	addFault(t, env, `{"path": "/v1/static-export/jobs/*", "response": "empty", "times": 1}`)
	if r := call(t, http.MethodGet, jobURL, env.Key, nil); r.status != 200 || len(r.body) != 0 {
		t.Errorf("empty real answer: %d %q", r.status, r.body)
	}

	addFault(t, env, `{"path": "/v1/static-export/jobs/*", "response": "truncated", "times": 1}`)
	req, _ := http.NewRequest(http.MethodGet, jobURL, nil)
	req.Header.Set("Authorization", "Bearer "+env.Key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !errors.Is(err, io.ErrUnexpectedEOF) || resp.ContentLength <= 0 || int64(len(got)) >= resp.ContentLength {
		t.Errorf("truncated: %d, read %d of %d bytes announced, err %v", resp.StatusCode, len(got), resp.ContentLength, err)
	}
	e := journal(t, env, "?path=/v1/static-export/jobs/*&limit=1").Requests[0]
	if e.Status != 200 || e.Aborted != api.AbortedByServer || e.ResponseBytes != int64(len(got)) {
		t.Errorf("truncated answer's journal entry: %+v", e)
	}

	if r := call(t, http.MethodGet, jobURL, env.Key, nil); r.status != 200 || !json.Valid(r.body) {
		t.Errorf("after the faults: %d %s", r.status, r.body)
	}
	wantBadRequests(t, env.URL+api.PathControlFaults,
		`{"path": "/x", "response": "garbled"}`, `{"path": "/x", "body": {}, "error": "e"}`, `{"path": "/x", "body": {}, "reset": true}`,
		`{"path": "/x", "body": {}, "status": 100}`, `{"path": "/x", "probability": 0}`, `{"path": "/x", "probability": 1.5}`,
		`{"path": "/x", "bytesPerSecond": -1}`, `{"path": "/x", "response": "empty", "reset": true}`, `{"path": "/x", "body": nope}`,
		`{"path": "/x", "status": 200, "response": "empty", "error": "e"}`)
}

// TestControl_faultSlowBody: the body arrives at the rate given; a client
// with a shorter timeout than that takes gives up on it, and the journal
// says so.
func TestControl_faultSlowBody(t *testing.T) {
	env := controlEnv(t)
	want := call(t, http.MethodGet, env.URL+"/healthz", "", nil).body // 16 bytes: at 20 B/s, at least 0.7 s
	addFault(t, env, `{"path": "/healthz", "bytesPerSecond": 20, "times": 2}`)
	if r := call(t, http.MethodGet, env.URL+"/healthz", "", nil); r.status != 200 || string(r.body) != string(want) {
		t.Errorf("slow body: %d %q, want %q", r.status, r.body, want)
	}
	if e := journal(t, env, "?path=/healthz&limit=1").Requests[0]; e.DurationMs < 500 || e.ResponseBytes != int64(len(want)) {
		t.Errorf("slow body's journal entry: %+v", e)
	}

	impatient := &http.Client{Timeout: 200 * time.Millisecond}
	resp, err := impatient.Get(env.URL + "/healthz")
	if err == nil {
		_, err = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	if err == nil {
		t.Fatal("a client with a 200 ms timeout read a body sent at 20 bytes/s")
	}
	var e api.ControlRequest
	eventuallyJournaled(t, env, "?path=/healthz", 3, &e)
	if e.Status != 200 || e.Aborted != api.AbortedByClient || e.ResponseBytes >= int64(len(want)) {
		t.Errorf("abandoned slow body: %+v", e)
	}
}
