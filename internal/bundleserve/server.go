// Package bundleserve is what the self-hosted chart's container runs: it
// downloads a static export bundle from a presigned link, checks every file
// against the bundle's manifest, unpacks it atomically and serves it. When
// the link changes it fetches again and, if the content changed, swaps the
// new site in without dropping a request. A bundle that cannot be fetched
// or does not verify leaves the old site serving and turns /healthz red.
//
// The data dir is the site: whoever can write there can change what is
// served. So it must belong to the user serve-bundle runs as and be closed
// to others, and the served files are checked against the snapshot taken
// when they were verified, every check interval.
package bundleserve

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
)

// Options configure a Server. Exactly one of URL and URLFile is set.
type Options struct {
	// URL is the presigned bundle link.
	URL string
	// URLFile holds the link, as a mounted Kubernetes Secret does; it is
	// read again on every check, so a renewed link is picked up.
	URLFile string
	// DataDir keeps unpacked versions; the last good one is served again
	// after a restart before anything is downloaded. It is created 0700
	// and refused (a *DataDirError) if another user owns it or group or
	// others may write to it.
	DataDir string
	// PinVersion, or the contents of PinVersionFile (re-read on every
	// check, like URLFile), is the content version the site must have.
	// A bundle of another version is refused: the old site keeps serving
	// and /healthz says why. Empty (or no file) pins nothing.
	PinVersion     string
	PinVersionFile string
	HTTPClient     *http.Client
	Logger         hclog.Logger
	// StallTimeout ends a download that has received no bytes for this
	// long (default DefaultStallTimeout). There is no limit on a download
	// that keeps flowing, however large.
	StallTimeout time.Duration
	// MinRate is the fewest bytes a second a download's body must bring,
	// averaged over every window of StallTimeout: an upstream that
	// trickles is cut rather than allowed to hold the update. 0 is
	// DefaultMinRate; negative is no floor.
	MinRate int64
	// FetchTimeout bounds a whole download (0: DefaultFetchTimeout;
	// negative: no bound).
	FetchTimeout time.Duration
	// RedirectHosts are hosts (host or host:port) besides the link's own a
	// download may be redirected to, over https only. Redirects anywhere
	// else, and more than maxRedirects, are refused.
	RedirectHosts []string
	// Clock times the back-off of refused bundles (default: the wall clock).
	Clock clock.Clock
}

// DefaultStallTimeout is how long a download may receive nothing before it
// is given up: the same 30 s after which our servers cut an answer that
// stopped flowing.
const DefaultStallTimeout = 30 * time.Second

// DefaultMinRate (4 KiB/s, 120 KiB per 30 s window) is far below any real
// bucket's speed and far above a trickle meant to hold the fetcher.
const DefaultMinRate = 4 << 10

// DefaultFetchTimeout bounds one download: bundles are capped at 8 GiB,
// which this allows at about 2.3 MB/s.
const DefaultFetchTimeout = time.Hour

// site is one unpacked, verified bundle. Requests hold mu for reading while
// they use its files; retiring the site takes it for writing, so the files
// are deleted only after the last request reading them has finished.
type site struct {
	dir     string
	version string
	// files is the snapshot taken when the files were verified by hash.
	files   snapshot
	changed atomic.Pointer[problem]
	mu      sync.RWMutex
	retired bool
}

// Server serves the current site and replaces it on Update.
type Server struct {
	opts    Options
	log     hclog.Logger
	hc      *http.Client
	current atomic.Pointer[site]

	clock   clock.Clock
	mu      sync.Mutex // serialises Update
	lastURL string
	lastPin string
	lastErr atomic.Pointer[problem]
	backoff backoff // of refused links, under mu
	metrics *metrics
}

// New prepares the data dir and, if a verified site from an earlier run is
// there, serves it at once.
func New(opts Options) (*Server, error) {
	if (opts.URL == "") == (opts.URLFile == "") {
		return nil, errors.New("set exactly one of the bundle URL and the bundle URL file")
	}
	if opts.DataDir == "" {
		return nil, errors.New("no data dir")
	}
	if opts.PinVersion != "" && opts.PinVersionFile != "" {
		return nil, errors.New("set at most one of the pinned version and the pinned version file")
	}
	if opts.StallTimeout < 0 {
		return nil, errors.New("the stall timeout must not be negative")
	}
	if err := prepareDataDir(opts.DataDir, os.Getuid()); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(opts.DataDir, "sites"), 0o700); err != nil {
		return nil, &DataDirError{Dir: opts.DataDir, Err: err}
	}
	if opts.StallTimeout == 0 {
		opts.StallTimeout = DefaultStallTimeout
	}
	if opts.MinRate == 0 {
		opts.MinRate = DefaultMinRate
	}
	if opts.FetchTimeout == 0 {
		opts.FetchTimeout = DefaultFetchTimeout
	}
	s := &Server{opts: opts, log: opts.Logger, hc: opts.HTTPClient, clock: opts.Clock}
	if s.log == nil {
		s.log = hclog.NewNullLogger()
	}
	if s.clock == nil {
		s.clock = clock.Real{}
	}
	if s.hc == nil {
		// No client timeout: fetch bounds a download by its stall
		// timeout, minimum rate and deadline.
		s.hc = &http.Client{}
	}
	// A copy, so the caller's client is left as it was given.
	hc := *s.hc
	hc.CheckRedirect = checkRedirect(opts.RedirectHosts)
	s.hc = &hc
	s.metrics = newMetrics(s)
	s.restore()
	return s, nil
}

// Version is the content version being served, or "" before the first
// successful fetch.
func (s *Server) Version() string {
	if c := s.current.Load(); c != nil {
		return c.version
	}
	return ""
}

// Healthy reports whether a site is served, its files still match what
// was verified, and the last update succeeded.
func (s *Server) Healthy() error {
	if err := s.intact(); err != nil {
		return err
	}
	if p := s.lastErr.Load(); p != nil {
		return p
	}
	return nil
}

// intact is serving, and the last check of the served files found them as
// they were verified.
func (s *Server) intact() error {
	if err := s.serving(); err != nil {
		return err
	}
	if p := s.current.Load().changed.Load(); p != nil {
		return p
	}
	return nil
}

// serving reports whether a site is being served and its files are still
// on disk: a site deleted from under the server (by hand, by a clean-up
// gone wrong) must turn the probes red rather than answer 404 forever.
func (s *Server) serving() error {
	c := s.current.Load()
	if c == nil {
		return fail(reasonNoBundle, errors.New("no bundle has been fetched yet"))
	}
	if _, err := os.Stat(filepath.Join(c.dir, bundle.ManifestName)); err != nil {
		return fail(reasonFilesMissing, fmt.Errorf("the files of version %s are missing from disk; the bundle is fetched again", c.version))
	}
	return nil
}

// CheckFiles compares the served files with the snapshot taken when they
// were verified (one stat per file, nothing read): a file changed,
// replaced, added or removed behind the server's back turns /healthz red,
// is logged once, and makes the next Update fetch the bundle again.
func (s *Server) CheckFiles() error {
	c := s.current.Load()
	if c == nil {
		return nil
	}
	c.mu.RLock() // retiring waits, so a swap cannot look like deleted files
	defer c.mu.RUnlock()
	if c.retired || c.changed.Load() != nil {
		return nil
	}
	if err := c.files.check(c.dir); err != nil {
		p := fail(reasonFilesChanged, fmt.Errorf("version %s: %w; the bundle is fetched again", c.version, err))
		c.changed.Store(p)
		s.log.Error("served files no longer match the verified bundle", "version", c.version, "error", err)
		return p
	}
	return nil
}

// Update reads the link and, if it differs from the last one fetched or
// the last attempt failed, downloads, verifies and swaps in the bundle.
func (s *Server) Update(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	link, err := s.link()
	pin, perr := s.pin()
	if err == nil {
		err = perr
	}
	if err == nil && link == s.lastURL && pin == s.lastPin && s.lastErr.Load() == nil && s.intact() == nil {
		return nil
	}
	now := s.clock.Now()
	key := backoffKey(link, pin)
	if err == nil {
		if refusal := s.backoff.waiting(key, now); refusal != nil {
			// Refused or failed before and its back-off has not passed:
			// the same download would be refused again, and a failing
			// upstream is not asked at every check. Logged when it failed.
			s.lastErr.Store(refusal)
			return refusal
		}
		err = s.install(ctx, link, pin)
	}
	s.metrics.updated(err, now)
	if err == nil {
		s.backoff.forget(key)
		s.lastURL, s.lastPin = link, pin
		s.lastErr.Store(nil)
		return nil
	}
	var p *problem
	if !errors.As(err, &p) {
		p = fail(reasonUpdateFailed, err)
	}
	s.lastErr.Store(p)
	if transient(err) {
		// The link itself is never logged: it is presigned.
		n, wait := s.backoff.record(key, p, now, failedPolicy)
		s.log.Error("bundle update failed; the current site keeps serving and this link is tried again after a back-off",
			"error", err, "serving", s.Version(), "failures", n, "retry_in", wait.Round(time.Second))
		return p
	}
	if !refused(err) {
		s.log.Error("bundle update failed; the current site keeps serving", "error", err, "serving", s.Version())
		return p
	}
	n, wait := s.backoff.record(key, p, now, refusedPolicy)
	if n == 1 {
		s.log.Error("bundle refused; the current site keeps serving and this link is not fetched again for a while",
			"error", err, "serving", s.Version(), "retry_in", wait)
	} else {
		s.log.Debug("bundle refused again", "refusals", n, "retry_in", wait)
	}
	return p
}

func (s *Server) link() (string, error) {
	if s.opts.URLFile == "" {
		return s.opts.URL, nil
	}
	b, err := os.ReadFile(s.opts.URLFile)
	if err != nil {
		return "", fail(reasonLinkUnreadable, fmt.Errorf("read bundle URL file: %w", err))
	}
	link := strings.TrimSpace(string(b))
	if link == "" {
		return "", fail(reasonLinkUnreadable, fmt.Errorf("bundle URL file %s is empty", s.opts.URLFile))
	}
	return link, nil
}

// pin reads the pinned version; a missing file pins nothing, so the chart
// can leave the Secret's version key out when staticExport.version is unset.
func (s *Server) pin() (string, error) {
	if s.opts.PinVersionFile == "" {
		return s.opts.PinVersion, nil
	}
	b, err := os.ReadFile(s.opts.PinVersionFile)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fail(reasonLinkUnreadable, fmt.Errorf("read pinned version file: %w", err))
	}
	return strings.TrimSpace(string(b)), nil
}

// install fetches link and makes it the served site unless it holds the
// content already served, or content of a version other than pin.
func (s *Server) install(ctx context.Context, link, pin string) error {
	start := time.Now()
	tmp, man, err := fetch(ctx, s.hc, link, s.opts.DataDir,
		limits{stall: s.opts.StallTimeout, minRate: max(s.opts.MinRate, 0), deadline: max(s.opts.FetchTimeout, 0)})
	if err != nil {
		return err
	}
	if pin != "" && man.Version != pin {
		_ = os.RemoveAll(tmp)
		p := fail(reasonVersionRefused, fmt.Errorf("bundle content version %s differs from the pinned version %s; refused, still serving %q",
			man.Version, pin, s.Version()))
		p.fields = map[string]string{"pinned": pin, "offered": man.Version}
		return p
	}
	if man.Version == s.Version() && s.intact() == nil {
		_ = os.RemoveAll(tmp)
		s.log.Info("bundle link renewed; content unchanged", "version", man.Version)
		return nil
	}
	// Every install gets a directory of its own, named after the version
	// and the unique unpack directory: a version served again (a
	// rollback, A→B→A) never shares a directory with its earlier install,
	// whose late clean-up would otherwise delete the site being served.
	dir := filepath.Join(s.opts.DataDir, "sites", man.Version+"-"+strings.TrimPrefix(filepath.Base(tmp), ".unpack-"))
	// Stamped right after the hashes were checked, before anything is
	// served from it: later checks compare the files with this.
	files, err := takeSnapshot(tmp)
	if err != nil {
		_ = os.RemoveAll(tmp)
		return fail(reasonInstallFailed, fmt.Errorf("stamp bundle files: %w", err))
	}
	if err := os.Rename(tmp, dir); err != nil {
		_ = os.RemoveAll(tmp)
		return fail(reasonInstallFailed, fmt.Errorf("publish bundle: %w", err))
	}
	if err := writeCurrent(s.opts.DataDir, filepath.Base(dir)); err != nil {
		return fail(reasonInstallFailed, fmt.Errorf("record current version: %w", err))
	}
	old := s.current.Swap(&site{dir: dir, version: man.Version, files: files})
	s.log.Info("serving new bundle", "version", man.Version, "pages", man.PageCount,
		"label", man.Label, "took", time.Since(start).Round(time.Millisecond))
	if old != nil {
		go s.retire(old)
	}
	return nil
}

// retire waits for the requests still reading old, then deletes it unless
// it is (against expectation) the directory being served.
func (s *Server) retire(old *site) {
	old.mu.Lock()
	old.retired = true
	old.mu.Unlock()
	if c := s.current.Load(); c != nil && c.dir == old.dir {
		return
	}
	if err := os.RemoveAll(old.dir); err != nil {
		s.log.Warn("could not delete the previous site", "version", old.version, "error", err)
	}
}

// restore serves the site recorded as current by an earlier run, if it
// still verifies, and deletes whatever else an interrupted run left.
func (s *Server) restore() {
	// "current" names the site's directory (a bare version, from servers
	// that predate unique directories, names one too).
	b, _ := os.ReadFile(filepath.Join(s.opts.DataDir, "current"))
	name := strings.TrimSpace(string(b))
	if name != "" && filepath.IsLocal(name) && !strings.ContainsRune(name, filepath.Separator) {
		dir := filepath.Join(s.opts.DataDir, "sites", name)
		// Stamped before the hashes are read: a file changed in between
		// fails the next check rather than slipping into the snapshot.
		files, serr := takeSnapshot(dir)
		if man, err := verifyDir(dir); serr == nil && err == nil && strings.HasPrefix(name, man.Version) && checkNotEmpty(man) == nil {
			s.current.Store(&site{dir: dir, version: man.Version, files: files})
			s.log.Info("serving the bundle of the previous run until the link is checked", "version", man.Version)
		}
	}
	leftovers, _ := filepath.Glob(filepath.Join(s.opts.DataDir, ".unpack-*"))
	others, _ := filepath.Glob(filepath.Join(s.opts.DataDir, "sites", "*"))
	for _, p := range append(leftovers, others...) {
		if c := s.current.Load(); c == nil || p != c.dir {
			_ = os.RemoveAll(p)
		}
	}
}

func writeCurrent(dataDir, version string) error {
	tmp := filepath.Join(dataDir, ".current.tmp")
	if err := os.WriteFile(tmp, []byte(version+"\n"), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dataDir, "current"))
}

// Run updates at once and then every interval until ctx ends, checking the
// served files before each update. Failures are logged and retried (a
// refused bundle after its back-off); they never stop the loop.
func (s *Server) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		_ = s.CheckFiles()
		_ = s.Update(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
