// Package apiservertest runs the reference admin API in-process on a random
// loopback port, for the tests of this project and of anyone who builds on
// it. The server is the real one: real store, real exports, real links.
package apiservertest

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/bucket"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/bundles"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore/pgstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/demosite"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/objstore"
)

// Names in the environment's configuration.
const (
	ProjectID          = "proj_docs"
	NoChangesProjectID = "proj_nochanges"
	FailProjectID      = "proj_fail"
	OtherProjectID     = "proj_other"
	Domain             = "docs.acme.test"
	FailDomain         = "broken.acme.test"
	OtherDomain        = "docs.other.test"
	Repository         = "https://git.example.com/acme/docs"
)

// Env is a running reference server.
type Env struct {
	URL string
	// Key belongs to organization "acme" (enterprise plan), which owns
	// ProjectID, NoChangesProjectID, FailProjectID, Domain and FailDomain.
	Key string
	// ProKey belongs to organization "beta" (pro plan: no static export).
	ProKey string
	// OtherKey belongs to organization "other" (enterprise), which owns
	// OtherProjectID and OtherDomain, so isolation can be tested.
	OtherKey           string
	ProjectID          string
	NoChangesProjectID string
	FailProjectID      string
	Domain             string
	FailDomain         string
	// Clock drives the server; Advance it to expire links or finish agents.
	Clock   *clock.Offset
	Server  *apiserver.Server
	DataDir string
	// DatabaseURL is the PostgreSQL database given with WithDatabase, ""
	// on the embedded store.
	DatabaseURL string
	// ObjectStore is the bucket URL given with WithObjectStore, "" when
	// sites are local files.
	ObjectStore string

	cfg     *apiconfig.Config
	st      settings
	handler atomic.Pointer[http.Handler]
}

type settings struct {
	ttl, retention time.Duration
	perHour        int
	logger         hclog.Logger
	extra          []string // more deployments of proj_docs, as YAML flow maps
	wraps          []func(http.Handler) http.Handler
	origins        []string
	tune           []func(*apiconfig.Config)
	top            string // more top-level YAML of the configuration
	databaseURL    string
	objects        string
	objOpts        objstore.Options
	lease, claim   time.Duration
	controlToken   string
	strict         bool
	exporter       func() apiserver.Exporter
}

// Option changes the environment's configuration.
type Option func(*settings)

// Combine applies opts in order, as one option.
func Combine(opts ...Option) Option {
	return func(s *settings) {
		for _, o := range opts {
			o(s)
		}
	}
}

// WithBundleTTL sets the lifetime of presigned links (default 1h).
func WithBundleTTL(d time.Duration) Option { return func(s *settings) { s.ttl = d } }

// WithJobRetention makes jobs older than d vanish (default: kept forever).
func WithJobRetention(d time.Duration) Option { return func(s *settings) { s.retention = d } }

// WithAgentJobsPerHour sets the per-project agent job limit (default 100).
func WithAgentJobsPerHour(n int) Option { return func(s *settings) { s.perHour = n } }

// WithDeployment adds an air-gapped deployment of ProjectID (organization
// "acme") serving the docs source in dir, e.g. a generated large site.
func WithDeployment(domain, dir string) Option {
	return func(s *settings) {
		s.extra = append(s.extra, fmt.Sprintf("{domain: %q, source: %q, kind: air-gapped}", domain, dir))
	}
}

// WithMiddleware wraps the server's handler in mw, for tests that count or
// alter what the server sees and answers. Bundle links point at the same
// address, so their downloads pass through mw too. Of several, the last
// given is the outermost.
func WithMiddleware(mw func(http.Handler) http.Handler) Option {
	return func(s *settings) { s.wraps = append(s.wraps, mw) }
}

// WithoutContentVersion makes the server answer like one that predates
// the optional `version` of export jobs and bundles: it is dropped from
// every JSON answer. Downloads are untouched.
func WithoutContentVersion() Option {
	return WithMiddleware(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.URL.Path, "/bundles/") {
				next.ServeHTTP(w, r) // an archive, streamed as it is
				return
			}
			rec := httptest.NewRecorder()
			next.ServeHTTP(rec, r)
			body := rec.Body.Bytes()
			var obj map[string]any
			if strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") && json.Unmarshal(body, &obj) == nil {
				delete(obj, "version")
				if b, err := json.Marshal(obj); err == nil {
					body = b
				}
			}
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.Header().Del("Content-Length")
			w.WriteHeader(rec.Code)
			_, _ = w.Write(body)
		})
	})
}

// WithCORSOrigins lets browsers on these origins call the server
// (corsAllowedOrigins); "null" admits pages opened from file://.
func WithCORSOrigins(origins ...string) Option {
	return func(s *settings) { s.origins = append(s.origins, origins...) }
}

// WithConfig changes the parsed configuration before the server starts,
// for settings the other options do not cover (limits, timeouts).
func WithConfig(f func(*apiconfig.Config)) Option {
	return func(s *settings) { s.tune = append(s.tune, f) }
}

// WithConfigYAML adds top-level keys to the configuration file, such as a
// `limits:` section, written as YAML the way an operator would.
func WithConfigYAML(yaml string) Option { return func(s *settings) { s.top += yaml + "\n" } }

// WithDatabase keeps the server's jobs in the PostgreSQL database at url
// (see internal/pgtest) instead of the bbolt file; "" keeps bbolt. The
// rendered sites stay in the data dir, which replicas of one Env share.
func WithDatabase(url string) Option { return func(s *settings) { s.databaseURL = url } }

// WithObjectStore keeps sites and archives in the bucket at url (an
// s3:// URL, see internal/s3test) with the client options o (credentials);
// bundle links are then the store's presigned links. Replicas get data
// dirs of their own, as separate machines would.
func WithObjectStore(url string, o objstore.Options) Option {
	return func(s *settings) { s.objects, s.objOpts = url, o }
}

// WithExportLease sets how long a worker's claim on a job lasts without
// renewal (default 30s): the bound on a takeover after a replica dies.
func WithExportLease(d time.Duration) Option { return func(s *settings) { s.lease = d } }

// WithClaimInterval sets how often idle workers look for jobs nobody
// told them about (default 1s, or a quarter of the lease).
func WithClaimInterval(d time.Duration) Option { return func(s *settings) { s.claim = d } }

// WithControlToken enables the control plane (/_control/v1/...) with this
// bearer token.
func WithControlToken(token string) Option { return func(s *settings) { s.controlToken = token } }

// WithStrict runs the server in strict mode: without the fields the real
// service does not document.
func WithStrict() Option { return func(s *settings) { s.strict = true } }

// WithLogger sends the server's log to l (default: discarded).
func WithLogger(l hclog.Logger) Option { return func(s *settings) { s.logger = l } }

// WithExporter gives every server the environment starts (again, after a
// Restart) the exporter newExporter returns; nil from it is the engine.
func WithExporter(newExporter func() apiserver.Exporter) Option {
	return func(s *settings) { s.exporter = newExporter }
}

// Start runs a server until the test ends.
func Start(t testing.TB, opts ...Option) *Env {
	t.Helper()
	st := settings{ttl: time.Hour, perHour: 100}
	for _, o := range opts {
		o(&st)
	}
	dir := t.TempDir()
	e := &Env{
		Key: newKey(t), ProKey: newKey(t), OtherKey: newKey(t),
		ProjectID: ProjectID, NoChangesProjectID: NoChangesProjectID, FailProjectID: FailProjectID,
		Domain: Domain, FailDomain: FailDomain,
		Clock: clock.NewOffset(), DataDir: filepath.Join(dir, "data"),
	}
	WriteSites(t, dir)
	var extra strings.Builder
	for _, d := range st.extra {
		extra.WriteString("\n          - " + d)
	}
	cfgYAML := st.top + fmt.Sprintf(configTemplate, st.ttl, st.retention, st.perHour, e.Key, extra.String(), e.ProKey, e.OtherKey)
	if len(st.origins) > 0 {
		quoted := make([]string, len(st.origins))
		for i, o := range st.origins {
			quoted[i] = fmt.Sprintf("%q", o)
		}
		cfgYAML += "corsAllowedOrigins: [" + strings.Join(quoted, ", ") + "]\n"
	}
	cfg, err := apiconfig.ParseConfig([]byte(cfgYAML), dir)
	if err != nil {
		t.Fatalf("apiservertest: config: %v", err)
	}
	for _, f := range st.tune {
		f(cfg)
	}
	e.cfg, e.st = cfg, st
	e.DatabaseURL, e.ObjectStore = st.databaseURL, st.objects
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		(*e.handler.Load()).ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	e.URL = ts.URL
	e.startServer(t)
	return e
}

// startServer runs a server on the environment's data dir and points the
// listener at it.
func (e *Env) startServer(t testing.TB) {
	t.Helper()
	srv := e.newServer(t, e.URL, e.DataDir)
	h := srv.Handler()
	for _, mw := range e.st.wraps {
		h = mw(h)
	}
	e.handler.Store(&h)
	e.Server = srv
}

func (e *Env) newServer(t testing.TB, publicURL, dataDir string) *apiserver.Server {
	t.Helper()
	var exporter apiserver.Exporter
	if e.st.exporter != nil {
		exporter = e.st.exporter()
	}
	opts := apiserver.Options{
		Exporter: exporter,
		Config:   e.cfg, DataDir: dataDir, PublicURL: publicURL, Clock: e.Clock, Logger: e.st.logger,
		SharedDataDir: e.st.databaseURL != "" && e.st.objects == "",
		ExportLease:   e.st.lease, ClaimInterval: e.st.claim, ControlToken: e.st.controlToken, Strict: e.st.strict,
	}
	opts.Jobs, opts.Bundles = Storage(t, e.st.databaseURL, e.st.objects, e.st.objOpts)
	srv, err := apiserver.New(t.Context(), opts)
	if err != nil {
		t.Fatalf("apiservertest: %v", err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	return srv
}

// Replica starts another server on the environment's database, data dir,
// configuration and clock, served at its own loopback URL (its links
// point there), as a second replica behind a load balancer would be. It
// needs WithDatabase: two servers cannot share a bbolt file.
func (e *Env) Replica(t testing.TB) (url string, srv *apiserver.Server) {
	t.Helper()
	if e.st.databaseURL == "" {
		t.Fatal("apiservertest: a replica needs WithDatabase")
	}
	var h atomic.Pointer[http.Handler]
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		(*h.Load()).ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	dataDir := e.DataDir
	if e.st.objects != "" {
		dataDir = t.TempDir()
	}
	srv = e.newServer(t, ts.URL, dataDir)
	handler := srv.Handler()
	h.Store(&handler)
	return ts.URL, srv
}

// Restart closes the server and starts a new one on the same data dir and
// address, as a process restart would; run between the two, if not nil,
// changes the data dir while no server holds it.
func (e *Env) Restart(t testing.TB, between func()) {
	t.Helper()
	if err := e.Server.Close(); err != nil {
		t.Fatalf("apiservertest: close: %v", err)
	}
	if between != nil {
		between()
	}
	e.startServer(t)
}

// WriteSites writes the docs sources the configuration refers to under dir:
// site/ (the demo site) and broken/ (a docs.json that does not parse).
func WriteSites(t testing.TB, dir string) {
	t.Helper()
	if err := os.CopyFS(filepath.Join(dir, "site"), demosite.FS()); err != nil {
		t.Fatalf("apiservertest: copy demo site: %v", err)
	}
	broken := filepath.Join(dir, "broken")
	if err := os.MkdirAll(broken, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(broken, "docs.json"), []byte(`{"name": "Broken", "navigation": `), 0o644); err != nil {
		t.Fatal(err)
	}
}

func newKey(t testing.TB) string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "dak_" + hex.EncodeToString(b)
}

const configTemplate = `
keyPrefix: dak
bundleLinkTTL: %s
jobRetention: %s
agentJobsPerHour: %d
organizations:
  - id: acme
    plan: enterprise
    apiKeys: [%q]
    projects:
      - id: proj_docs
        repository: https://git.example.com/acme/docs
        branch: main
        agent: {outcome: pullRequest, duration: 2s, model: reference}
        deployments:
          - {domain: docs.acme.test, source: ./site, kind: air-gapped}
          - {domain: broken.acme.test, source: ./broken, kind: cloud}%s
      - id: proj_nochanges
        repository: https://git.example.com/acme/handbook
        agent: {outcome: noChanges, duration: 1s}
      - id: proj_fail
        repository: https://git.example.com/acme/api
        branch: develop
        agent: {outcome: fail, duration: 1s}
  - id: beta
    plan: pro
    apiKeys: [%q]
    projects:
      - id: proj_beta
        repository: https://git.example.com/beta/docs
        deployments:
          - {domain: docs.beta.test, source: ./site}
  - id: other
    plan: enterprise
    apiKeys: [%q]
    projects:
      - id: proj_other
        repository: https://git.example.com/other/docs
        deployments:
          - {domain: docs.other.test, source: ./site, kind: cloud}
`

// Storage returns the job store and the bundles opener of a server on
// the PostgreSQL database at databaseURL and the bucket at objects, each
// nil when that is "" (the data dir's bbolt file and files).
func Storage(t testing.TB, databaseURL, objects string, o objstore.Options) (jobstore.Store, bundles.Opener) {
	t.Helper()
	var (
		jobs jobstore.Store
		open bundles.Opener
	)
	if databaseURL != "" {
		st, err := pgstore.Open(t.Context(), databaseURL)
		if err != nil {
			t.Fatalf("apiservertest: %v", err)
		}
		jobs = st
	}
	if objects != "" {
		open = bucket.Opener(objects, o)
	}
	return jobs, open
}
