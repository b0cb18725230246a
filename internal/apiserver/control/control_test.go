package control

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/httpapi"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
)

const adminKey = "dak_0123456789abcdef0123"

func testConfig(t *testing.T) *apiconfig.Config {
	t.Helper()
	cfg, err := apiconfig.ParseConfig([]byte("organizations:\n  - id: acme\n    plan: enterprise\n    apiKeys: ["+adminKey+"]\n"), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestNew_checksTokenAndJournal: a control token must be a secret of its
// own, and the journal's size bounded.
func TestNew_checksTokenAndJournal(t *testing.T) {
	cfg := testConfig(t)
	good := strings.Repeat("t", minControlToken)
	for _, tc := range []struct {
		name, token string
		journal     int
		wantErr     string
	}{
		{"the shortest token", good, 0, ""},
		{"the largest journal", good, maxJournalSize, ""},
		{"too short", good[1:], 0, "want 16 to 256 characters"},
		{"too long", strings.Repeat("t", maxControlToken+1), 0, "want 16 to 256 characters"},
		{"a space", good + " x", 0, "printable ASCII without spaces"},
		{"an admin key", adminKey, 0, `also an admin key of organization "acme"`},
		{"a journal too large", good, maxJournalSize + 1, "control journal size"},
		{"a negative journal", good, -1, "control journal size"},
	} {
		_, err := New(Options{Config: cfg, Token: tc.token, JournalSize: tc.journal, DataDir: t.TempDir(),
			Clock: clock.Real{}, Random: rand.Reader, Log: hclog.NewNullLogger(), Orgs: NewOrgs(cfg, t.TempDir())})
		if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("%s: New = %v, want %q", tc.name, err, tc.wantErr)
		}
	}
}

// TestParseFault: what a suite may ask of a fault, and what a fault that
// says little becomes.
func TestParseFault(t *testing.T) {
	cfg := testConfig(t)
	fs := &Faults{orgs: NewOrgs(cfg, t.TempDir()), random: rand.Reader}
	half, zero := 0.5, 0.0
	for _, tc := range []struct {
		name       string
		req        api.ControlFault
		wantStatus int    // the fault's answer, when it is accepted
		wantErr    string // the 4xx message, when it is not
		wantCode   int
	}{
		{"nothing said is an outage", api.ControlFault{Path: "/v1/*"}, http.StatusServiceUnavailable, "", 0},
		{"a stub answers 200", api.ControlFault{Path: "/v1/x", Body: json.RawMessage(`{}`)}, http.StatusOK, "", 0},
		{"an error status", api.ControlFault{Path: "/v1/x", Status: 429, RetryAfter: "2s"}, 429, "", 0},
		{"a delay alone", api.ControlFault{Path: "/v1/x", Delay: "10ms"}, 0, "", 0},
		{"a probability with a seed", api.ControlFault{Path: "/v1/x", Probability: &half}, http.StatusServiceUnavailable, "", 0},
		{"not a path", api.ControlFault{Path: "v1/x"}, 0, "want a path of the admin API", 400},
		{"the control plane itself", api.ControlFault{Path: api.ControlPrefix + "/faults"}, 0, "want a path of the admin API", 400},
		{"a lower-case method", api.ControlFault{Path: "/v1/x", Method: "post"}, 0, "upper-case HTTP method", 400},
		{"a bad duration", api.ControlFault{Path: "/v1/x", Delay: "soon"}, 0, `delay "soon"`, 400},
		{"a success without a body", api.ControlFault{Path: "/v1/x", Status: 204}, 0, "want an error status", 400},
		{"reset with a status", api.ControlFault{Path: "/v1/x", Reset: true, Status: 500}, 0, "reset closes the connection", 400},
		{"body and error", api.ControlFault{Path: "/v1/x", Body: json.RawMessage(`{}`), Error: "e"}, 0, "body is the whole answer", 400},
		{"an unknown response", api.ControlFault{Path: "/v1/x", Response: "odd"}, 0, `response "odd"`, 400},
		{"a probability of 0", api.ControlFault{Path: "/v1/x", Probability: &zero}, 0, "probability 0", 400},
		{"negative times", api.ControlFault{Path: "/v1/x", Times: -1}, 0, "times must not be negative", 400},
		{"an unknown organization", api.ControlFault{Path: "/v1/x", Organization: "nobody"}, 0, `organization "nobody" not found`, 404},
	} {
		f, err := fs.parseFault(tc.req)
		if tc.wantErr == "" {
			if err != nil || f.Status != tc.wantStatus {
				t.Errorf("%s: status %v, %v; want %d", tc.name, f, err, tc.wantStatus)
			}
			if tc.req.Probability != nil && f.Seed == nil {
				t.Errorf("%s: no seed was drawn, so the run cannot be replayed", tc.name)
			}
			continue
		}
		var he *httpapi.Error
		if !errors.As(err, &he) || he.Status != tc.wantCode || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("%s: %v, want a %d containing %q", tc.name, err, tc.wantCode, tc.wantErr)
		}
	}
}

// TestGlobMatch: "*" stands for any run of characters, slashes included.
func TestGlobMatch(t *testing.T) {
	for _, tc := range []struct {
		pattern, path string
		want          bool
	}{
		{"/v1/jobs", "/v1/jobs", true},
		{"/v1/jobs", "/v1/jobs/1", false},
		{"/v1/*", "/v1/jobs/1/bundle", true},
		{"*/bundle", "/v1/jobs/1/bundle", true},
		{"/v1/*/bundle", "/v1/jobs/1/bundle", true},
		{"/v1/*/bundle", "/v1/jobs/1/status", false},
		{"/v1/*/1/*", "/v1/jobs/1/x", true},
		{"/v1/*a*b", "/v1/ba", false},
		{"*", "/anything", true},
	} {
		if got := globMatch(tc.pattern, tc.path); got != tc.want {
			t.Errorf("globMatch(%q, %q) = %v, want %v", tc.pattern, tc.path, got, tc.want)
		}
	}
}
