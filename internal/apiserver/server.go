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
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/bundles"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/control"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/linksign"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export"
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

// Options configure a Server. Config, DataDir and PublicURL are required.
type Options struct {
	Config  *apiconfig.Config
	DataDir string
	// PublicURL is the base of the bundle links the server signs, e.g.
	// "https://exports.example.com". Required.
	PublicURL string
	// BundleLinkTTL overrides Config.BundleLinkTTL when positive.
	BundleLinkTTL time.Duration
	Clock         clock.Clock
	Logger        hclog.Logger
	// Exporter renders the exports; export.New with the configuration's
	// limits by default.
	Exporter Exporter

	// Jobs keeps jobs, leases, limits and idempotency keys; nil opens the
	// bbolt file in DataDir. New takes it over: Close closes it, and so
	// does a failed New. Any other store is taken to be shared by
	// replicas, which must share the archives too, so New refuses one
	// without Bundles, unless SharedDataDir says the data dir itself is
	// shared (tests only).
	Jobs          jobstore.Store
	SharedDataDir bool
	// Bundles opens where archives are kept and how their links are made,
	// once, with the server's clock and link TTL; nil keeps them in
	// DataDir behind links the server signs (bundles.OpenDisk). The
	// binary's command passes internal/apiserver/bucket's Opener for an
	// object store.
	Bundles bundles.Opener
	// ExportLease is how long a worker holds a claimed job without
	// renewing it: after a replica dies, its jobs are taken over within
	// about this long (default 30s).
	ExportLease time.Duration
	// ClaimInterval is how often an idle worker looks for jobs nobody
	// woke it for (default 1s).
	ClaimInterval time.Duration

	// ControlToken enables the control plane (internal/apiserver/control)
	// and overrides Config.Control.Token; JournalSize overrides its
	// journal's size.
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
	cfg      *apiconfig.Config
	linkTTL  time.Duration
	clock    clock.Clock
	random   io.Reader
	log      hclog.Logger
	exporter Exporter
	store    jobstore.Store
	bundles  bundles.Store
	handler  http.Handler
	metrics  *apimetrics.Metrics

	// runner renders the export jobs (runner.go).
	runner *exportRunner
	// agents answers the agent job and documentation update operations.
	agents *agents.API
	// exports answers the static export and bundle operations.
	exports *exportAPI

	cancel context.CancelFunc
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
}

// New opens the data dir, the job store and the bundles store, recovers
// jobs interrupted by a crash and starts the export workers. ctx bounds
// the opening (connections to a database or a bucket) and nothing after.
func New(ctx context.Context, opts Options) (_ *Server, err error) {
	if opts.Jobs != nil {
		// Taken over: closed with the server, or now if there is none.
		defer func() {
			if err != nil {
				_ = opts.Jobs.Close()
			}
		}()
	}
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
	if opts.Jobs != nil && opts.Bundles == nil && !opts.SharedDataDir {
		return nil, ErrNeedsObjectStore
	}
	if err := os.MkdirAll(opts.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("apiserver: data dir: %w", err)
	}
	s := &Server{
		cfg:      opts.Config,
		linkTTL:  time.Duration(opts.Config.BundleLinkTTL),
		clock:    opts.Clock,
		random:   rand.Reader,
		log:      opts.Logger,
		exporter: opts.Exporter,
		strict:   opts.Strict,
	}
	if opts.BundleLinkTTL > 0 {
		s.linkTTL = opts.BundleLinkTTL
	}
	if s.clock == nil {
		s.clock = clock.Real{}
	}
	leaseClock := s.clock
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
	runner := &exportRunner{
		exporter: s.exporter, orgs: s.orgs, clock: s.clock, leaseClock: leaseClock, log: s.log, dataDir: opts.DataDir,
		exportTimeout: time.Duration(s.cfg.ExportTimeout), retention: s.retention(),
		lease: opts.ExportLease, claimInterval: opts.ClaimInterval,
	}
	if runner.lease <= 0 {
		runner.lease = time.Duration(s.cfg.ExportLease)
	}
	if runner.lease <= 0 {
		runner.lease = defaultExportLease
	}
	if runner.claimInterval <= 0 {
		runner.claimInterval = min(defaultClaimInterval, runner.lease/4)
	}
	if runner.owner, err = s.newID("w_"); err != nil {
		return nil, fmt.Errorf("apiserver: %w", err)
	}
	if err := s.openStorage(ctx, opts, pub, runner); err != nil {
		return nil, fmt.Errorf("apiserver: %w", err)
	}
	opened := s.store
	defer func() {
		if err != nil && opts.Jobs == nil {
			_ = opened.Close()
		}
	}()
	if err := s.orgs.Load(); err != nil {
		return nil, fmt.Errorf("apiserver: %w", err)
	}
	if s.control != nil {
		if err := s.control.LoadState(); err != nil {
			return nil, fmt.Errorf("apiserver: %w", err)
		}
	}
	s.agents = agents.New(agents.Options{
		Config: s.cfg, Store: s.store, Clock: s.clock, Log: s.log, Checker: s.exporter, Host: agentHost{s},
	})
	runner.ctx, s.cancel = context.WithCancel(context.Background())
	// Before any worker starts: a worker records each finished export.
	s.metrics = apimetrics.New(runner.ctx, s.store, s.log)
	runner.store, runner.metrics = s.store, s.metrics
	s.runner = runner
	s.exports = &exportAPI{
		cfg: s.cfg, store: s.store, runner: runner, bundles: s.bundles, checker: s.exporter, control: s.control,
		clock: s.clock, log: s.log, metrics: s.metrics, newID: s.newID, retention: s.retention(), strict: s.strict,
	}
	workers := s.cfg.ExportWorkers
	if workers == 0 {
		workers = 2
	}
	if err := runner.start(workers); err != nil {
		s.cancel()
		runner.wait()
		return nil, fmt.Errorf("apiserver: %w", err)
	}
	s.handler = s.routes()
	return s, nil
}

// openStorage opens the job store opts give, or the bbolt file in the
// data dir, and then the bundles store: the bbolt store holds the data
// dir's lock, so a signing key is created only once it is taken, and two
// servers started together on an empty data dir cannot each write (and
// sign with) a different key.
func (s *Server) openStorage(ctx context.Context, opts Options, pub *url.URL, runner *exportRunner) error {
	s.store = opts.Jobs
	if s.store == nil {
		st, err := jobstore.OpenBolt(ctx, opts.DataDir)
		if err != nil {
			return err
		}
		// One process owns the file: what an earlier one left running
		// is resumed now, not when its lease would have ended.
		if err := st.ReleaseLeases(ctx); err != nil {
			_ = st.Close()
			return fmt.Errorf("release leases: %w", err)
		}
		s.store = st
	}
	open := opts.Bundles
	if open == nil {
		open = bundles.OpenDisk
	}
	var err error
	s.bundles, err = open(ctx, bundles.Env{
		DataDir: opts.DataDir, Jobs: s.store, Clock: s.clock, LinkTTL: s.linkTTL, PublicURL: pub,
		Random: s.random, Log: s.log, ExportTimeout: time.Duration(s.cfg.ExportTimeout),
		Archived: func() { runner.archives.Add(1) },
	})
	if err != nil && opts.Jobs == nil {
		_ = s.store.Close()
	}
	runner.bundles = s.bundles
	return err
}

// ErrNeedsObjectStore refuses a shared database while sites and archives
// are local files: a job rendered by one replica would be missing on every
// other.
var ErrNeedsObjectStore = errors.New("a shared database (storage.database, --database-url) needs an object store " +
	"for the rendered sites and archives: with local files, each replica would only see the exports it rendered " +
	"itself; give one with --object-store (DOCSADMIN_OBJECT_STORE, storage.objects), or run without a database")

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
	s.runner.wait()
	if c, ok := s.exporter.(interface{ Close() }); ok {
		c.Close() // the engine's component evaluators
	}
	return s.store.Close()
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
func (s *Server) ArchivesBuilt() int64 { return s.runner.archives.Load() }

// Sweep deletes, now, the export jobs (records and files), agent jobs
// and documentation updates past the retention, and idempotency keys past
// their 24 hours. The server runs it every minute; tests call it after
// moving the clock.
func (s *Server) Sweep() error { return s.runner.sweep() }

// newID returns prefix followed by 16 random hex digits.
func (s *Server) newID(prefix string) (string, error) {
	h, err := linksign.RandomHex(s.random, 8)
	if err != nil {
		return "", fmt.Errorf("generate id: %w", err)
	}
	return prefix + h, nil
}

// retention is how long jobs are kept, by the server's clock.
func (s *Server) retention() retention {
	return retention{period: time.Duration(s.cfg.JobRetention), clock: s.clock}
}
