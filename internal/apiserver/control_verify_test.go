package apiserver_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
)

// verify sends a check and wants status back.
func verify(t *testing.T, envURL string, check string, want int) api.ControlVerification {
	t.Helper()
	r := call(t, http.MethodPost, envURL+api.PathControlVerify, testControlToken, check)
	if r.status != want {
		t.Fatalf("verify %s: %d, want %d: %s", check, r.status, want, r.body)
	}
	var v api.ControlVerification
	r.decode(t, &v)
	return v
}

// TestControl_verify: counts by method, path, organization and body
// fields, sequences, "nothing else" and unmatched requests, each answered
// 200 when it holds and 409 with a report of what was received when not.
func TestControl_verify(t *testing.T) {
	env := controlEnv(t)
	ctl(t, env, http.MethodPost, api.PathControlExportHold, map[string]string{"organization": "acme"}, 204)
	start := map[string]string{"domain": env.Domain}
	call(t, http.MethodPost, env.URL+api.PathExportJobs, env.Key, start)
	job := env.StartExport(t, api.StartExportRequest{Domain: env.Domain})
	call(t, http.MethodGet, env.URL+fill(api.PathExportJob, "jobId", job.JobID), env.Key, nil)
	call(t, http.MethodPost, env.URL+api.PathExportJobs, env.OtherKey, map[string]string{"domain": apiservertest.OtherDomain})
	call(t, http.MethodGet, env.URL+"/v1/nothing", env.Key, nil)                 // 404: no route
	call(t, http.MethodDelete, env.URL+api.PathExportJobs, env.Key, nil)         // 405: no route
	call(t, http.MethodGet, env.URL+api.PathControlClock, testControlToken, nil) // never journaled

	starts := `"match": {"method": "POST", "path": "/v1/static-export/jobs", "organization": "acme", "body": {"domain": "` + env.Domain + `"}}`
	if v := verify(t, env.URL, `{`+starts+`, "count": 2}`, 200); !v.OK || v.Count != 2 || len(v.Requests) != 2 || v.Error != "" {
		t.Errorf("two starts: %+v", v)
	}
	v := verify(t, env.URL, `{`+starts+`, "count": 3}`, 409)
	if v.OK || v.Count != 2 || v.Error != v.Report ||
		!strings.Contains(v.Report, `want exactly 3 requests matching POST /v1/static-export/jobs organization=acme body.domain="`+env.Domain+`"; got 2`) ||
		strings.Count(v.Report, "<- match") != 2 || !strings.Contains(v.Report, "received: 6 requests") {
		t.Errorf("three starts, report:\n%s", v.Report)
	}
	verify(t, env.URL, `{"match": {"route": "POST /v1/static-export/jobs"}, "count": 3}`, 200)
	verify(t, env.URL, `{"match": {"method": "post", "path": "/v1/static-export/jobs", "body": {"domain": "elsewhere.test"}}, "count": 0}`, 200)
	verify(t, env.URL, `{"match": {"path": "/v1/static-export/jobs/*", "organization": "acme"}, "atLeast": 1, "atMost": 1}`, 200)
	verify(t, env.URL, `{"match": {"organization": "other"}, "atMost": 0}`, 409)
	verify(t, env.URL, `{"match": {"path": "/v1/agent*"}}`, 409) // no count: at least once

	// Order.
	get := `{"method": "GET", "route": "GET /v1/static-export/jobs/{jobId}"}`
	post := `{"method": "POST", "path": "/v1/static-export/jobs"}`
	verify(t, env.URL, `{"within": {"organization": "acme"}, "sequence": [`+post+`, `+post+`, `+get+`]}`, 200)
	v = verify(t, env.URL, `{"within": {"organization": "acme"}, "sequence": [`+get+`, `+post+`]}`, 409)
	if !strings.Contains(v.Report, "step 2 (POST /v1/static-export/jobs) was not received after request 3 (step 1)") ||
		!strings.Contains(v.Report, "matches step 2, but too early") || !strings.Contains(v.Report, "received within organization=acme: 5 requests") {
		t.Errorf("out of order, report:\n%s", v.Report)
	}

	// Nothing else.
	verify(t, env.URL, `{"within": {"organization": "acme"}, "only": [`+post+`, `+get+`, {"unmatched": true}]}`, 200)
	v = verify(t, env.URL, `{"within": {"organization": "acme"}, "only": [`+post+`]}`, 409)
	if v.Count != 3 || strings.Count(v.Report, "<- not allowed") != 3 || !strings.Contains(v.Report, "DELETE /v1/static-export/jobs -> 405") {
		t.Errorf("only starts, report:\n%s", v.Report)
	}

	// Requests no route matched, by the journal and by a check.
	var unmatched api.ControlJournal
	ctl(t, env, http.MethodGet, api.PathControlRequests+"?unmatched=true", nil, 200).decode(t, &unmatched)
	if len(unmatched.Requests) != 2 || unmatched.Requests[0].Status != 404 || unmatched.Requests[1].Status != 405 ||
		unmatched.Requests[0].Route != "" {
		t.Errorf("unmatched requests: %+v", unmatched.Requests)
	}
	if v := verify(t, env.URL, `{"match": {"unmatched": true}, "count": 0}`, 409); !strings.Contains(v.Report, "GET /v1/nothing -> 404  organization=acme  (no route)  <- match") {
		t.Errorf("unmatched report:\n%s", v.Report)
	}
	var all api.ControlJournal
	ctl(t, env, http.MethodGet, api.PathControlRequests+"?method=GET&path=/v1/static-export/jobs/*", nil, 200).decode(t, &all)
	if len(all.Requests) != 1 || all.Requests[0].Route != "GET /v1/static-export/jobs/{jobId}" {
		t.Errorf("route of a job read: %+v", all.Requests)
	}

	wantBadRequests(t, env.URL+api.PathControlVerify,
		`{}`, `{"count": 1, "sequence": [{}]}`, `{"count": 1, "atLeast": 1}`, `{"atLeast": 2, "atMost": 1}`,
		`{"count": -1}`, `{"match": {"path": "v1"}}`, `{"match": {"colour": "red"}}`, `{"match": {"route": "GET /x", "unmatched": true}}`,
		`{"match": {"since": "2030-01-02T00:00:00Z", "until": "2030-01-01T00:00:00Z"}}`, `{"sequence": [{"since": "soon"}]}`)
}

// wantBadRequests POSTs each body to a control plane URL and wants a 400
// with a JSON error.
func wantBadRequests(t *testing.T, url string, bodies ...string) {
	t.Helper()
	for _, bad := range bodies {
		r := call(t, http.MethodPost, url, testControlToken, bad)
		if r.status != http.StatusBadRequest {
			t.Errorf("POST %s %s: %d, want 400: %s", url, bad, r.status, r.body)
			continue
		}
		r.errorMessage(t)
	}
}

// TestControl_verifyTimeWindow: since and until select by the server
// clock, which the suite moves.
func TestControl_verifyTimeWindow(t *testing.T) {
	env := controlEnv(t)
	at := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
	ctl(t, env, http.MethodPost, api.PathControlClock, map[string]any{"now": at, "frozen": true}, 200)
	call(t, http.MethodGet, env.URL+"/healthz", "", nil)
	ctl(t, env, http.MethodPost, api.PathControlClockAdvance, map[string]string{"by": "1h"}, 200)
	call(t, http.MethodGet, env.URL+"/healthz", "", nil)
	call(t, http.MethodGet, env.URL+"/healthz", "", nil)
	verify(t, env.URL, `{"match": {"path": "/healthz", "since": "2030-01-01T12:30:00Z"}, "count": 2}`, 200)
	verify(t, env.URL, `{"match": {"path": "/healthz", "until": "2030-01-01T12:30:00Z"}, "count": 1}`, 200)
	v := verify(t, env.URL, `{"match": {"path": "/healthz", "since": "2030-01-01T13:00:00Z", "until": "2030-01-01T13:00:00.001Z"}, "count": 1}`, 409)
	if !strings.Contains(v.Report, "since=2030-01-01T13:00:00.000Z until=2030-01-01T13:00:00.001Z; got 2") ||
		!strings.Contains(v.Report, "2030-01-01T12:00:00.000Z  GET /healthz -> 200") {
		t.Errorf("report:\n%s", v.Report)
	}
}
