// Package docsadmintest runs the docsadmin reference admin API server
// in-process for a Go test, with its control plane on, so another
// project's suite can test its client against a faithful server: real
// jobs, real archives, presigned links that really expire, and the
// controls of a test double (reset, a clock to move, injected faults,
// forced job states, runtime organizations, a journal of requests).
//
//	srv := docsadmintest.New(t)
//	client := myclient.New(srv.URL, srv.AdminKey)
//	if _, err := srv.Control.Fail(ctx, docsadmintest.Fault{Path: "/v1/static-export/jobs", Status: 503, Times: 1}); err != nil { ... }
//
// The server listens on a random 127.0.0.1 port and is stopped, its data
// removed, when the test ends. For a suite that runs the binary instead,
// NewControl drives the control plane of a server started with
// --control-token.
package docsadmintest

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
)

// Names of the organization every Server starts with: one enterprise
// organization whose project exports the built-in demo docs site.
const (
	OrganizationID = apiserver.DemoOrganization
	ProjectID      = apiserver.DemoProject
	Domain         = apiserver.DemoDomain
)

// Server is a reference server running for one test.
type Server struct {
	// URL is the base of the admin API and of bundle links.
	URL string
	// AdminKey is the admin API key of OrganizationID.
	AdminKey string
	// Control drives the control plane.
	Control *Control
}

type settings struct {
	linkTTL     time.Duration
	journalSize int
	strict      bool
	tune        []func(*apiconfig.Config)
}

// Option changes how New starts the server.
type Option func(*settings)

// WithBundleLinkTTL sets the lifetime of presigned links (default 1h).
func WithBundleLinkTTL(d time.Duration) Option { return func(s *settings) { s.linkTTL = d } }

// WithJournalSize sets how many requests the journal keeps (default
// 1000). Past it the oldest go, Journal reports how many, and a
// verification they could change fails saying so.
func WithJournalSize(n int) Option { return func(s *settings) { s.journalSize = n } }

// WithAgentJobsPerHour sets the per-project limit on agent jobs and
// follow-up messages (default 100), to test a client against 429s.
func WithAgentJobsPerHour(n int) Option {
	return func(s *settings) {
		s.tune = append(s.tune, func(c *apiconfig.Config) { c.AgentJobsPerHour = n })
	}
}

// WithStrict runs the server as `apiserver --strict` does: answers carry
// only the fields and statuses the real service documents (a missing key
// on an agent job is its 404, a start over a limit its 403), so a suite
// proves it does not depend on what the reference server adds.
func WithStrict() Option { return func(s *settings) { s.strict = true } }

// WithMaxActiveExports sets how many exports an organization may have
// queued or running (default 10); one more is a 429 (with WithStrict, a
// 403).
func WithMaxActiveExports(n int) Option {
	return func(s *settings) {
		s.tune = append(s.tune, func(c *apiconfig.Config) { c.MaxActiveExports = n })
	}
}

// New starts a reference server for the test and stops it in t.Cleanup.
// It fails the test if the server cannot start.
func New(t testing.TB, opts ...Option) *Server {
	t.Helper()
	var st settings
	for _, o := range opts {
		o(&st)
	}
	key := api.DefaultKeyPrefix + "_" + randomHex(t, 20)
	token := "ctl_" + randomHex(t, 24)
	cfg := apiserver.DemoConfig(key)
	for _, f := range st.tune {
		f(cfg)
	}
	var handler atomic.Pointer[http.Handler]
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h := handler.Load(); h != nil {
			(*h).ServeHTTP(w, r)
			return
		}
		http.Error(w, `{"error": "starting"}`, http.StatusServiceUnavailable)
	}))
	t.Cleanup(ts.Close)
	srv, err := apiserver.New(t.Context(), apiserver.Options{
		Config: cfg, DataDir: t.TempDir(), PublicURL: ts.URL, BundleLinkTTL: st.linkTTL,
		ControlToken: token, JournalSize: st.journalSize, Strict: st.strict,
	})
	if err != nil {
		t.Fatalf("docsadmintest: start the reference server: %v", err)
	}
	// Registered after ts.Close, so it runs first: the workers stop
	// before the listener goes.
	t.Cleanup(func() { _ = srv.Close() })
	h := srv.Handler()
	handler.Store(&h)
	return &Server{URL: ts.URL, AdminKey: key, Control: NewControl(ts.URL, token)}
}

func randomHex(t testing.TB, n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatalf("docsadmintest: %v", err)
	}
	return hex.EncodeToString(b)
}
