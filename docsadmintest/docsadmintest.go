// Package docsadmintest runs the docsadmin reference admin API server
// in-process for Go tests, with its control plane on, so another
// project's suite can test its client against a faithful server: real
// jobs, real archives, presigned links that really expire, and the
// controls of a test double (reset, a clock to move, injected faults,
// forced job states, runtime organizations, a journal of requests and
// verification).
//
// One server for one test:
//
//	srv := docsadmintest.New(t)
//	client := myclient.New(srv.URL, srv.AdminKey)
//	if _, err := srv.Control.Fail(ctx, docsadmintest.Fault{Path: "/v1/static-export/jobs", Status: 503, Times: 1}); err != nil { ... }
//
// One server for a whole package, started in TestMain, with an
// organization of its own for each test, so tests can run in parallel:
//
//	var srv *docsadmintest.Server
//
//	func TestMain(m *testing.M) {
//		var err error
//		if srv, err = docsadmintest.Start(); err != nil { log.Fatal(err) }
//		code := m.Run()
//		srv.Close()
//		os.Exit(code)
//	}
//
//	func TestRetry(t *testing.T) {
//		org := srv.Scope(t, docsadmintest.NewOrganization{})
//		client := myclient.New(org.URL, org.APIKey)
//		org.Control.Fail(ctx, docsadmintest.Fault{Path: "/v1/static-export/jobs", Times: 1})
//		...
//		org.Control.VerifyCount(t, docsadmintest.Match{Method: "POST", Path: "/v1/static-export/jobs"}, 2)
//	}
//
// The server listens on a random 127.0.0.1 port. For a suite that runs
// the binary instead, NewControl drives the control plane of a server
// started with --control-token.
package docsadmintest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
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

// Server is a running reference server.
type Server struct {
	// URL is the base of the admin API and of bundle links.
	URL string
	// AdminKey is the admin API key of OrganizationID.
	AdminKey string
	// Control drives the control plane.
	Control *Control

	agent     *Agent
	listener  *httptest.Server
	server    *apiserver.Server
	dataDir   string
	closeOnce sync.Once
	closeErr  error
}

type settings struct {
	linkTTL     time.Duration
	journalSize int
	strict      bool
	agent       *Agent
	tune        []func(*apiconfig.Config)
}

// Option changes how New and Start start the server.
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

// WithAgent scripts the reference agent of OrganizationID's project and
// of the organizations Scope creates without an Agent of their own
// (default: a pull request after 5s).
func WithAgent(a Agent) Option { return func(s *settings) { s.agent = &a } }

// WithExportWorkers sets how many exports the server renders at once
// (default 2); with 1, exports run strictly one after another.
func WithExportWorkers(n int) Option {
	return func(s *settings) {
		s.tune = append(s.tune, func(c *apiconfig.Config) { c.ExportWorkers = n })
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

// New starts a reference server for one test and closes it in t.Cleanup.
// It fails the test if the server cannot start.
func New(t testing.TB, opts ...Option) *Server {
	t.Helper()
	srv, err := Start(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Errorf("docsadmintest: %v", err)
		}
	})
	return srv
}

// Start starts a reference server outside any one test, from TestMain
// for instance; Close stops it. Tests share it through Scope.
func Start(opts ...Option) (*Server, error) {
	var st settings
	for _, o := range opts {
		o(&st)
	}
	if st.agent != nil {
		if err := st.agent.check(); err != nil {
			return nil, err
		}
	}
	key, err := randomHex(20)
	if err != nil {
		return nil, err
	}
	key = api.DefaultKeyPrefix + "_" + key
	token, err := randomHex(24)
	if err != nil {
		return nil, err
	}
	token = "ctl_" + token
	cfg := apiserver.DemoConfig(key)
	if a := st.agent; a != nil {
		script := &cfg.Organizations[0].Projects[0].Agent
		if a.Outcome != "" {
			script.Outcome = a.Outcome
		}
		script.Duration = apiconfig.Duration(a.Duration)
	}
	for _, f := range st.tune {
		f(cfg)
	}
	dir, err := os.MkdirTemp("", "docsadmintest-")
	if err != nil {
		return nil, fmt.Errorf("docsadmintest: data dir: %w", err)
	}
	// The server's links need its URL before it exists: the listener
	// answers 503 until the handler is in place.
	var handler atomic.Pointer[http.Handler]
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h := handler.Load(); h != nil {
			(*h).ServeHTTP(w, r)
			return
		}
		http.Error(w, `{"error": "starting"}`, http.StatusServiceUnavailable)
	}))
	srv, err := apiserver.New(context.Background(), apiserver.Options{
		Config: cfg, DataDir: dir, PublicURL: ts.URL, BundleLinkTTL: st.linkTTL,
		ControlToken: token, JournalSize: st.journalSize, Strict: st.strict,
	})
	if err != nil {
		ts.Close()
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("docsadmintest: start the reference server: %w", err)
	}
	h := srv.Handler()
	handler.Store(&h)
	return &Server{URL: ts.URL, AdminKey: key, Control: NewControl(ts.URL, token), agent: st.agent,
		listener: ts, server: srv, dataDir: dir}, nil
}

// Close stops the server and removes its data. It may be called more than
// once.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		// The workers stop first, so none is cut off mid-request by the
		// listener going.
		err := s.server.Close()
		s.listener.Close()
		if rmErr := os.RemoveAll(s.dataDir); err == nil {
			err = rmErr
		}
		if err != nil {
			s.closeErr = fmt.Errorf("docsadmintest: close the reference server: %w", err)
		}
	})
	return s.closeErr
}

// Scope is one test's organization on a shared Server: its own key,
// project, domain and jobs, and a Control limited to it.
type Scope struct {
	// Organization is the organization created for the test.
	Organization
	// URL is the base of the admin API and of bundle links.
	URL string
	// Control drives the control plane for this organization only: its
	// faults strike only its requests, its journal reads, counts and
	// verifications see only its requests, and its Reset resets only
	// it. The clock stays the server's: moving it moves every
	// organization's time.
	Control *Control
}

// Scope creates an organization for t as o describes and deletes it, with
// its jobs, faults, hold and journal entries, when t ends. An empty
// o.Source gives it a two-page site; a nil o.Agent the server's agent
// script (WithAgent). It fails the test if the organization cannot be
// created.
func (s *Server) Scope(t testing.TB, o NewOrganization) *Scope {
	t.Helper()
	if len(o.Source.Files) == 0 && o.Source.Path == "" {
		o.Source = Source{Files: map[string]string{
			"docs.json": `{"name": "Scope", "navigation": {"pages": ["index", "guide"]}}`,
			"index.mdx": "# Home\n\nRead [the guide](/guide).\n",
			"guide.mdx": "# Guide\n\nBack [home](/).\n",
		}}
	}
	if o.Agent == nil {
		o.Agent = s.agent
	}
	org, err := s.Control.NewOrganization(t.Context(), o)
	if err != nil {
		t.Fatalf("docsadmintest: create the test's organization: %v", err)
	}
	t.Cleanup(func() {
		// t.Context is done by now.
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := s.Control.DeleteOrganization(ctx, org.ID); err != nil {
			t.Errorf("docsadmintest: delete the test's organization: %v", err)
		}
	})
	return &Scope{Organization: org, URL: s.URL, Control: s.Control.scoped(org.ID)}
}

func randomHex(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("docsadmintest: %w", err)
	}
	return hex.EncodeToString(b), nil
}
