package apiserver_test

import (
	"net/http"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
)

// A fault a suite injects answers the status the suite asked for, strict
// or not: strict mode only keeps the server's own statuses to those the
// real service documents.
func TestStrict_injectedFaultKeepsItsStatus(t *testing.T) {
	env := controlEnv(t, apiservertest.WithStrict())
	ctl(t, env, http.MethodPost, api.PathControlFaults, api.ControlFault{
		Path: api.PathExportJobs, Status: http.StatusServiceUnavailable, RetryAfter: "2s", Times: 1}, http.StatusCreated)
	r := call(t, http.MethodPost, env.URL+api.PathExportJobs, env.Key, api.StartExportRequest{Domain: env.Domain})
	if r.status != http.StatusServiceUnavailable || r.header.Get("Retry-After") != "2" {
		t.Fatalf("start under an injected 503 in strict mode: %d (Retry-After %q) %s", r.status, r.header.Get("Retry-After"), r.body)
	}
	// The server's own 401 on an agent job is not documented there: 404.
	r = call(t, http.MethodGet, env.URL+fill(api.PathAgentJob, "projectId", env.ProjectID, "id", "aj_0000000000000000"), "", nil)
	if r.status != http.StatusNotFound || r.header.Get("WWW-Authenticate") != "" {
		t.Fatalf("agent job without a key in strict mode: %d (WWW-Authenticate %q) %s", r.status, r.header.Get("WWW-Authenticate"), r.body)
	}
}

// The reference's bundle and update operations take no body: in strict
// mode one sent anyway is not looked at, where the default refuses a body
// that is not JSON with 415.
func TestStrict_bodyOfBodilessOperationIgnored(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []apiservertest.Option
		want int
	}{
		{"default", nil, http.StatusUnsupportedMediaType},
		{"strict", []apiservertest.Option{apiservertest.WithStrict()}, http.StatusNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := apiservertest.Start(t, tc.opts...)
			r := callWith(t, http.MethodPost, env.URL+fill(api.PathExportBundle, "jobId", "se_0123456789abcdef"), env.Key,
				"not json", map[string]string{"Content-Type": "text/plain"})
			if r.status != tc.want {
				t.Fatalf("bundle with a text body: %d, want %d: %s", r.status, tc.want, r.body)
			}
		})
	}
}
