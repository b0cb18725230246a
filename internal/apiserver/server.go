// Package apiserver is the reference implementation of the documentation
// platform's admin API: agent jobs run by a scripted reference agent, and
// static exports that really render a docs source, really archive it and
// hand out presigned links that really expire. State survives a crash: in
// a data dir (a bbolt file, rendered sites and archives, HMAC-signed
// links) for one process, or in PostgreSQL and an S3-compatible store
// (SigV4-presigned links) shared by replicas.
package apiserver

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/agents"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apimetrics"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/control"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/linksign"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/objstore"
)

// Exporter renders a docs source into a bundle (export.Output; the
// server passes a spool, of which it makes the archive). export.Engine is the
// implementation; the interface keeps the server ignorant of how.
// Packing the bundle is not the renderer's business: the server does it
// with internal/bundle, the same package the bundle's readers use.
type Exporter interface {
	CheckPaths(src fs.FS, paths []string) error
	CheckConfig(ctx context.Context, src fs.FS) error
	ExportTo(ctx context.Context, req export.Request, out export.Output, progress func(export.Progress)) (*bundle.Manifest, error)
}

// Options configure a Server. Config and DataDir are required.
type Options struct {
	Config  *apiconfig.Config
	DataDir string
	// PublicURL is the base of presigned bundle links, e.g.
	// "https://exports.example.com". Required.
	PublicURL string
	// BundleLinkTTL overrides Config.BundleLinkTTL when positive.
	BundleLinkTTL time.Duration
	Clock         clock.Clock
	// Random feeds ids and keys; crypto/rand by default.
	Random   io.Reader
	Logger   hclog.Logger
	Exporter Exporter

	// DatabaseURL, a postgres:// URL, keeps jobs, leases, limits and
	// idempotency keys in PostgreSQL, shared by replicas, instead of the
	// bbolt file in DataDir. Replicas must share the rendered sites and
	// archives too, so New refuses it without an ObjectStore, unless
	// SharedDataDir says the data dir itself is shared (tests only).
	DatabaseURL   string
	SharedDataDir bool
	// ObjectStore, an s3://BUCKET?endpoint=… URL (see objstore.ParseURL),
	// keeps rendered sites and archives in that bucket instead of DataDir,
	// and makes bundle links SigV4 presigned GETs of the store. It works
	// with either job store. DataDir then holds only scratch files.
	ObjectStore string
	// ObjectStoreOptions tune the object store client (credentials: the
	// standard AWS chain by default). Its Clock is always the server's.
	ObjectStoreOptions objstore.Options
	// ExportLease is how long a worker holds a claimed job without
	// renewing it: after a replica dies, its jobs are taken over within
	// about this long (default 30s).
	ExportLease time.Duration
	// ClaimInterval is how often an idle worker looks for jobs nobody
	// woke it for (default 1s).
	ClaimInterval time.Duration

	// ControlToken enables the control plane (internal/apiserver/control)
	// and overrides
	// Config.Control.Token; JournalSize overrides its journal's size.
	ControlToken string
	JournalSize  int
	// Strict leaves out of every answer what the real service does not
	// document (the content version, warnings, the ETag of a download,
	// Idempotency-Key, and every status the reference does not list for
	// an operation: strict.go), so a suite can prove it does not depend
	// on them.
	Strict bool
}

// Server is the reference admin API. Create it with New, serve Handler, and
// Close it to stop the export workers and release the data dir.
type Server struct {
	cfg       *apiconfig.Config
	dataDir   string
	publicURL *url.URL
	linkTTL   time.Duration
	clock     clock.Clock
	random    io.Reader
	log       hclog.Logger
	exporter  Exporter
	store     jobstore.Store
	// signer signs and checks the links of a data-dir server; nil with an
	// object store, whose links the store presigns (loadSigner).
	signer *linksign.Signer
	// objects is the bucket of sites and archives; nil keeps them in the
	// data dir.
	objects   *objstore.Store
	objHealth objectHealth
	handler   http.Handler
	metrics   *apimetrics.Metrics

	// runner renders the export jobs (worker.go).
	runner *exportRunner
	// agents answers the agent job and documentation update operations.
	agents *agents.API
	// exports answers the static export and bundle operations.
	exports *exportAPI

	// owner names this server's workers in the leases they hold.
	owner         string
	lease         time.Duration
	claimInterval time.Duration
	wake          chan struct{}
	leaseHooks    leaseHooks
	live          sync.Map // jobId → *liveJob, for jobs being rendered
	archiveBuilds sync.Map // jobId → *archiveBuild, so one job archives once
	// archives counts archives built; a test reads it to prove that a
	// second bundle call only signs.
	archives atomic.Int64

	ctx     context.Context
	cancel  context.CancelFunc
	workers sync.WaitGroup
	// background counts the sweeper and archive builds, which outlive
	// their requests.
	background sync.WaitGroup
	// bgMu orders background work started from requests (agentHost.Go)
	// with Close, so none is added once Close waits.
	bgMu sync.Mutex
	// draining is set when a graceful shutdown begins, so readyz fails
	// while requests in flight finish; closed is set by Close.
	draining atomic.Bool
	closed   atomic.Bool

	// control is the control plane, nil unless a control token is set;
	// orgs are the configured organizations and those it created.
	control *control.Plane
	orgs    *control.Orgs
	strict  bool
	// leaseClock times export leases. It is the clock the server was
	// given, never the control plane's: a suite moving time hours ahead
	// must not make every running render look abandoned and taken over.
	leaseClock clock.Clock
}

// New opens the data dir, recovers jobs interrupted by a crash and starts
// the export workers.
func New(opts Options) (*Server, error) {
	if opts.Config == nil {
		return nil, errors.New("apiserver: no config")
	}
	if err := opts.Config.Check(); err != nil {
		return nil, fmt.Errorf("apiserver: config: %w", err)
	}
	pub, err := url.Parse(strings.TrimSuffix(opts.PublicURL, "/"))
	if err != nil || (pub.Scheme != "http" && pub.Scheme != "https") || pub.Host == "" {
		return nil, fmt.Errorf("apiserver: public URL %q must be an absolute http(s) URL", opts.PublicURL)
	}
	if opts.DataDir == "" {
		return nil, errors.New("apiserver: no data dir")
	}
	if err := os.MkdirAll(opts.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("apiserver: data dir: %w", err)
	}
	s := &Server{
		cfg:       opts.Config,
		dataDir:   opts.DataDir,
		publicURL: pub,
		linkTTL:   time.Duration(opts.Config.BundleLinkTTL),
		clock:     opts.Clock,
		random:    opts.Random,
		log:       opts.Logger,
		exporter:  opts.Exporter,
		strict:    opts.Strict,
	}
	s.runner = &exportRunner{srv: s, sites: newSitePublisher(s)}
	s.exports = &exportAPI{srv: s}
	if opts.BundleLinkTTL > 0 {
		s.linkTTL = opts.BundleLinkTTL
	}
	if s.clock == nil {
		s.clock = clock.Real{}
	}
	s.leaseClock = s.clock
	if s.random == nil {
		s.random = rand.Reader
	}
	if s.log == nil {
		s.log = hclog.NewNullLogger()
	}
	s.orgs = control.NewOrgs(s.cfg, opts.DataDir)
	if token := cmp.Or(opts.ControlToken, s.cfg.Control.Token); token != "" {
		// Before anything reads the clock: the control plane drives it.
		s.control, err = control.New(control.Options{
			Config: s.cfg, Token: token, JournalSize: opts.JournalSize, DataDir: opts.DataDir, LinkTTL: s.linkTTL,
			Clock: s.clock, Random: s.random, Log: s.log, Orgs: s.orgs, Host: controlHost{s},
		})
		if err != nil {
			return nil, fmt.Errorf("apiserver: %w", err)
		}
		s.clock = s.control.Clock()
	}
	if err := tightenDataDir(opts.DataDir, s.log); err != nil {
		return nil, fmt.Errorf("apiserver: %w", err)
	}
	if s.exporter == nil {
		s.exporter = export.New(export.Options{Logger: s.log.Named("export"), Limits: s.cfg.Limits.Export()})
	}
	s.lease, s.claimInterval = opts.ExportLease, opts.ClaimInterval
	if s.lease <= 0 {
		s.lease = time.Duration(s.cfg.ExportLease)
	}
	if s.lease <= 0 {
		s.lease = defaultExportLease
	}
	if s.claimInterval <= 0 {
		s.claimInterval = min(defaultClaimInterval, s.lease/4)
	}
	if s.owner, err = s.newID("w_"); err != nil {
		return nil, fmt.Errorf("apiserver: %w", err)
	}
	// The bbolt store holds the data-dir lock; the signing key is created
	// only once it is taken, so two servers started together on an empty
	// data dir cannot each write (and sign with) a different key.
	if s.objects, err = s.openObjects(opts); err != nil {
		return nil, fmt.Errorf("apiserver: %w", err)
	}
	if s.store, err = openJobStore(opts); err != nil {
		return nil, fmt.Errorf("apiserver: %w", err)
	}
	if err := s.loadSigner(opts.DataDir); err != nil {
		_ = s.store.Close()
		return nil, fmt.Errorf("apiserver: %w", err)
	}
	if err := s.orgs.Load(); err != nil {
		_ = s.store.Close()
		return nil, fmt.Errorf("apiserver: %w", err)
	}
	if s.control != nil {
		if err := s.control.LoadState(); err != nil {
			_ = s.store.Close()
			return nil, fmt.Errorf("apiserver: %w", err)
		}
	}
	s.agents = agents.New(agents.Options{
		Config: s.cfg, Store: s.store, Clock: s.clock, Log: s.log, Checker: s.exporter, Host: agentHost{s},
	})
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.wake = make(chan struct{}, 1)
	// Before any worker starts: a worker records each finished export.
	s.metrics = apimetrics.New(s.store, s.log)
	if err := s.runner.recoverJobs(); err != nil {
		s.cancel()
		_ = s.store.Close()
		return nil, fmt.Errorf("apiserver: recover jobs: %w", err)
	}
	workers := s.cfg.ExportWorkers
	if workers == 0 {
		workers = 2
	}
	for i := range workers {
		s.workers.Add(1)
		go s.runner.worker(i)
	}
	s.background.Add(1)
	go s.runner.sweeper()
	s.background.Add(1)
	go func() {
		defer s.background.Done()
		s.store.Watch(s.ctx, s.runner.wakeWorkers)
	}()
	s.handler = s.routes()
	return s, nil
}

// loadSigner loads (creating it on first start) the key ring that signs
// bundle links, if this server signs any. With an object store the store
// presigns every link and downloadBundle answers 404, so a replica there
// has no key to create, keep secret or rotate; a ring left in the data dir
// from before the store is left as it is, unread.
func (s *Server) loadSigner(dataDir string) error {
	if s.objects != nil {
		return nil
	}
	ring, err := linksign.LoadKeyRing(dataDir, s.random, s.clock.Now(), s.linkTTL)
	if err != nil {
		return err
	}
	s.signer = &linksign.Signer{Ring: ring}
	return nil
}

// ErrNeedsObjectStore refuses a shared database while sites and archives
// are local files: a job rendered by one replica would be missing on every
// other.
var ErrNeedsObjectStore = errors.New("a shared database (storage.database, --database-url) needs an object store " +
	"for the rendered sites and archives: with local files, each replica would only see the exports it rendered " +
	"itself; give one with --object-store (DOCSADMIN_OBJECT_STORE, storage.objects), or run without a database")

// openObjects connects to the bucket opts name, if any, and checks it
// once: a server that cannot store what it renders must not start.
func (s *Server) openObjects(opts Options) (*objstore.Store, error) {
	if opts.ObjectStore == "" {
		return nil, nil
	}
	cfg, err := objstore.ParseURL(opts.ObjectStore)
	if err != nil {
		return nil, err
	}
	if s.linkTTL < time.Second || s.linkTTL > objstore.MaxPresignExpiry {
		return nil, fmt.Errorf("bundle link TTL %s: an object store presigns links for 1s to %s", s.linkTTL, objstore.MaxPresignExpiry)
	}
	o := opts.ObjectStoreOptions
	o.Clock = s.clock
	st, err := objstore.New(context.Background(), cfg, o)
	if err != nil {
		return nil, err
	}
	if err := st.Check(context.Background()); err != nil {
		return nil, err
	}
	return st, nil
}

// openJobStore opens the store opts ask for: PostgreSQL when a database
// URL is given, else the bbolt file in the data dir.
func openJobStore(opts Options) (jobstore.Store, error) {
	if opts.DatabaseURL == "" {
		st, err := jobstore.OpenBolt(opts.DataDir)
		if err != nil {
			return nil, err
		}
		// One process owns the file: what an earlier one left running
		// is resumed now, not when its lease would have ended.
		if err := st.ReleaseLeases(); err != nil {
			_ = st.Close()
			return nil, fmt.Errorf("release leases: %w", err)
		}
		return st, nil
	}
	if opts.ObjectStore == "" && !opts.SharedDataDir {
		return nil, ErrNeedsObjectStore
	}
	return jobstore.OpenPostgres(context.Background(), opts.DatabaseURL)
}

// Handler serves the whole API.
func (s *Server) Handler() http.Handler { return s.handler }

// Close stops the workers and closes the store. A job being rendered stays
// "running" with its lease handed back, so the next claim (after a restart,
// or on another replica) renders it again at once.
func (s *Server) Close() error {
	s.bgMu.Lock()
	first := s.closed.CompareAndSwap(false, true)
	s.bgMu.Unlock()
	if !first {
		return nil
	}
	s.cancel()
	s.workers.Wait()
	s.background.Wait()
	if c, ok := s.exporter.(interface{ Close() }); ok {
		c.Close() // the engine's component evaluators
	}
	return s.store.Close()
}

// contentVersion is version as answers carry it: left out in strict mode.
func (s *Server) contentVersion(version string) string {
	if s.strict {
		return ""
	}
	return version
}

// Drain makes readyz fail from now on, so that a load balancer stops
// sending traffic while the requests in flight finish: the first step of a
// graceful shutdown.
func (s *Server) Drain() { s.draining.Store(true) }

// BundleLinkTTL is how long the bundle links this server hands out last.
func (s *Server) BundleLinkTTL() time.Duration { return s.linkTTL }

// ControlPlane reports whether the control plane is enabled.
func (s *Server) ControlPlane() bool { return s.control != nil }

// ArchivesBuilt reports how many bundle archives this process has built.
func (s *Server) ArchivesBuilt() int64 { return s.archives.Load() }

// organization finds an organization by id, nil when there is none.
func (s *Server) organization(id string) *apiconfig.Organization { return s.orgs.Find(id) }

// newID returns prefix followed by 16 random hex digits.
func (s *Server) newID(prefix string) (string, error) {
	h, err := linksign.RandomHex(s.random, 8)
	if err != nil {
		return "", fmt.Errorf("generate id: %w", err)
	}
	return prefix + h, nil
}

// retention is how long jobs are kept; zero keeps them forever.
func (s *Server) retention() time.Duration { return time.Duration(s.cfg.JobRetention) }

// expired reports whether a job created at t has outlived the retention.
func (s *Server) expired(t time.Time) bool {
	r := s.retention()
	return r > 0 && !s.clock.Now().Before(t.Add(r))
}

func (s *Server) exportLimits() jobstore.Limits {
	return jobstore.Limits{Active: s.cfg.MaxActiveExports, Stored: s.cfg.MaxStoredExports, Bytes: s.cfg.MaxStoredBytes}
}
