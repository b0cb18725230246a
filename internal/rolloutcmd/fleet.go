package rolloutcmd

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
)

// Entry is one release of a fleet file (--releases): which release to keep
// fresh, and which export feeds it. The renewer chart renders
// renewer.releases into this form.
type Entry struct {
	Release   string `json:"release"`
	Namespace string `json:"namespace"`
	// Exactly one of Domain (export it) and JobID (renew that job's link).
	Domain string `json:"domain,omitempty"`
	JobID  string `json:"jobId,omitempty"`
	// Version pins staticExport.version, as --version does.
	Version string `json:"version,omitempty"`
	// Chart, Repo and ChartVersion are --chart, --repo and --chart-version
	// for this release; empty keeps the chart it runs.
	Chart        string `json:"chart,omitempty"`
	Repo         string `json:"repo,omitempty"`
	ChartVersion string `json:"chartVersion,omitempty"`
}

// fleetFile is the file's shape: a list under "releases", as the chart's
// values hold it, so one can be copied into the other.
type fleetFile struct {
	Releases []Entry `json:"releases"`
}

// LoadFleet reads and checks a fleet file (YAML or JSON). Entries without
// a namespace get defaultNamespace. Every fault names the entry.
func LoadFleet(path, defaultNamespace string) ([]Entry, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read the releases file: %w", err)
	}
	var f fleetFile
	if err := yaml.UnmarshalStrict(raw, &f); err != nil {
		return nil, fmt.Errorf("releases file %s: %w", path, err)
	}
	if len(f.Releases) == 0 {
		return nil, fmt.Errorf("releases file %s lists no releases (a list under \"releases:\")", path)
	}
	seen := map[string]int{}
	for i := range f.Releases {
		e := &f.Releases[i]
		if e.Namespace == "" {
			e.Namespace = defaultNamespace
		}
		where := fmt.Sprintf("releases file %s, entry %d", path, i+1)
		switch {
		case e.Release == "":
			return nil, fmt.Errorf("%s: no release", where)
		case e.Namespace == "":
			return nil, fmt.Errorf("%s (%s): no namespace, and --namespace gives none", where, e.Release)
		case (e.Domain == "") == (e.JobID == ""):
			return nil, fmt.Errorf("%s (%s): give exactly one of domain and jobId", where, e.Release)
		case e.Chart == "" && (e.Repo != "" || e.ChartVersion != ""):
			return nil, fmt.Errorf("%s (%s): repo and chartVersion need chart", where, e.Release)
		}
		key := e.Namespace + "/" + e.Release
		if j, dup := seen[key]; dup {
			return nil, fmt.Errorf("%s: release %s is also entry %d; two loops would race for it", where, key, j)
		}
		seen[key] = i + 1
	}
	return f.Releases, nil
}

// Fleet keeps every release of Entries (or of Select) on a live link from
// one process: each release has a watch loop of its own (its own link,
// back-off and retry budget), so a failing release never delays another,
// and at most Parallel of them talk to the API and the cluster at once.
type Fleet struct {
	// Base carries what every release shares: the API, clock, sleep,
	// logger, output, metrics and the options that are not per release
	// (renew-before, re-export interval, timeout, atomic mode...).
	Base    Runner
	Entries []Entry
	// Select, when set, replaces Entries: the fleet is looked up by label
	// every Resync (zero: a minute), and releases that join it get a loop,
	// those that leave it lose theirs.
	Select *Selection
	Resync time.Duration
	// Rollers returns the Roller for a namespace; it is called once per
	// namespace.
	Rollers  func(namespace string) (Roller, error)
	Parallel int
}

// fleetRun is one Run's running loops.
type fleetRun struct {
	f       *Fleet
	out     *lockedWriter
	slots   chan struct{}
	rollers map[string]Roller
	wg      sync.WaitGroup
	loops   map[string]*fleetLoop // by namespace/release
}

type fleetLoop struct {
	entry  Entry
	cancel context.CancelFunc
	done   chan struct{} // closed once the loop has returned
}

// Run watches every release until ctx ends. A namespace the cluster
// cannot be reached for is reported; the other releases go on.
func (f *Fleet) Run(ctx context.Context) int {
	fr := &fleetRun{f: f, out: &lockedWriter{w: f.Base.Out}, slots: make(chan struct{}, max(f.Parallel, 1)),
		rollers: map[string]Roller{}, loops: map[string]*fleetLoop{}}
	if f.Select == nil {
		for _, e := range f.Entries {
			fr.start(ctx, e)
		}
	} else {
		fr.follow(ctx)
	}
	fr.wg.Wait()
	_, _ = fmt.Fprintln(fr.out, "stopped")
	return ExitOK
}

// follow looks the fleet up every Resync until ctx ends, starting a loop
// for each release that joins and stopping the loop of each that leaves
// (or whose labels now name another export, which restarts it).
func (fr *fleetRun) follow(ctx context.Context) {
	sel, sleep, resync := fr.f.Select, fr.f.Base.Sleep, cmp.Or(fr.f.Resync, defaultResync)
	if sel.Out == nil {
		sel.Out = fr.out
	}
	if sel.Log == nil {
		sel.Log = fr.f.Base.Log
	}
	if sleep == nil {
		sleep = clock.Sleep
	}
	lastErr := ""
	for {
		known := map[string]Entry{}
		for k, l := range fr.loops {
			known[k] = l.entry
		}
		entries, err := sel.discover(ctx, known)
		switch {
		case err != nil && ctx.Err() == nil:
			if err.Error() != lastErr {
				_, _ = fmt.Fprintf(fr.out, "cannot look up the fleet: %v\n", err)
				fr.f.Base.Log.Error("cannot look up the fleet; the releases found before keep their loops", "error", err.Error())
			}
			lastErr = err.Error()
		case err == nil:
			lastErr = ""
			fr.reconcile(ctx, entries)
		}
		if sleep(ctx, resync) != nil {
			return
		}
	}
}

// reconcile starts and stops loops so that exactly entries run.
func (fr *fleetRun) reconcile(ctx context.Context, entries []Entry) {
	want := map[string]Entry{}
	for _, e := range entries {
		want[e.Namespace+"/"+e.Release] = e
	}
	for k, l := range fr.loops {
		if e, ok := want[k]; !ok || e != l.entry {
			l.cancel()
			if ok {
				// Restarted with another export: the old loop finishes
				// first (an upgrade it was making is rolled back), so two
				// never work on the release at once.
				<-l.done
			}
			delete(fr.loops, k)
			fr.f.Base.Metrics.forget(l.entry.Namespace, l.entry.Release)
			if !ok {
				_, _ = fmt.Fprintf(fr.out, "%s: left the fleet (no longer selected); no longer renewed\n", k)
				fr.f.Base.Log.Info("release left the fleet", "release", l.entry.Release, "namespace", l.entry.Namespace)
			}
		}
	}
	for _, e := range entries {
		k := e.Namespace + "/" + e.Release
		if _, ok := fr.loops[k]; ok {
			continue
		}
		if fr.start(ctx, e) {
			_, _ = fmt.Fprintf(fr.out, "%s: joined the fleet (%s)\n", k, source(e))
			fr.f.Base.Log.Info("release joined the fleet", "release", e.Release, "namespace", e.Namespace)
		}
	}
}

// source says which export feeds an entry, for the output.
func source(e Entry) string {
	if e.Domain != "" {
		return "domain " + e.Domain
	}
	return "job " + e.JobID
}

// start runs the watch loop of e until ctx ends or the loop is stopped.
func (fr *fleetRun) start(ctx context.Context, e Entry) bool {
	roller, ok := fr.rollers[e.Namespace]
	if !ok {
		var err error
		if roller, err = fr.f.Rollers(e.Namespace); err != nil {
			_, _ = fmt.Fprintf(fr.out, "namespace %s: %v\n", e.Namespace, err)
			fr.f.Base.Log.Error("cannot reach the namespace; its releases are not renewed", "namespace", e.Namespace, "error", err.Error())
			return false
		}
		fr.rollers[e.Namespace] = roller
	}
	lctx, cancel := context.WithCancel(ctx)
	l := &fleetLoop{entry: e, cancel: cancel, done: make(chan struct{})}
	fr.loops[e.Namespace+"/"+e.Release] = l
	r := fr.f.member(e, roller, fr.slots, fr.out)
	fr.wg.Go(func() {
		defer close(l.done)
		r.Run(lctx)
	})
	return true
}

// member is the watch loop of one entry.
func (f *Fleet) member(e Entry, roller Roller, slots chan struct{}, out *lockedWriter) *Runner {
	r := f.Base
	r.Opts.Release, r.Opts.Namespace = e.Release, e.Namespace
	r.Opts.Domain, r.Opts.JobID, r.Opts.Version = e.Domain, e.JobID, e.Version
	r.Opts.Chart, r.Opts.ChartRepo, r.Opts.ChartVersion = e.Chart, e.Repo, e.ChartVersion
	r.Opts.Watch = true
	r.Roller = roller
	r.Out = &prefixWriter{w: out, prefix: []byte(e.Namespace + "/" + e.Release + ": ")}
	r.TTY = false
	r.Log = f.Base.Log.With("release", e.Release, "namespace", e.Namespace)
	r.slots = slots
	r.fleet = true
	return &r
}

// lockedWriter serialises the writes of the fleet's loops.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// prefixWriter starts every line with the release it is about. Each
// message is one Write of whole lines (fmt.Fprint*), so a line is never
// split between loops.
type prefixWriter struct {
	w      io.Writer
	prefix []byte
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	var buf bytes.Buffer
	for line := range bytes.Lines(b) {
		buf.Write(p.prefix)
		buf.Write(line)
	}
	if _, err := p.w.Write(buf.Bytes()); err != nil {
		return 0, err
	}
	return len(b), nil
}
