package rolloutcmd

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/client"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout/rollouttest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// simClock runs every loop of a fleet on one simulated clock: a loop's
// Sleep blocks until step has moved the clock past its wake-up time, and
// step moves it only once every loop sleeps, so each loop sees the time
// it asked for and the run is the same every time.
type simClock struct {
	clk *clock.Offset
	// within bounds the real time a step's work may take; zero means 30
	// seconds (Helm's memory storage), a real cluster needs longer.
	within   time.Duration
	mu       sync.Mutex
	sleepers []*sleeper
}

type sleeper struct {
	until time.Time
	wake  chan struct{}
}

func (s *simClock) Sleep(ctx context.Context, d time.Duration) error {
	sl := &sleeper{until: s.clk.Now().Add(d), wake: make(chan struct{})}
	s.mu.Lock()
	s.sleepers = append(s.sleepers, sl)
	s.mu.Unlock()
	select {
	case <-sl.wake:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// settle waits until n loops sleep and returns the earliest time one of
// them wakes: the time the clock moves to next.
func (s *simClock) settle(t *testing.T, n int) time.Time {
	t.Helper()
	testutil.Eventually(t, cmp.Or(s.within, 30*time.Second), fmt.Sprintf("%d loops asleep", n), func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return len(s.sleepers) == n
	})
	s.mu.Lock()
	defer s.mu.Unlock()
	slices.SortFunc(s.sleepers, func(a, b *sleeper) int { return a.until.Compare(b.until) })
	return s.sleepers[0].until
}

// step waits until n loops sleep, then moves the clock to the earliest
// wake-up and wakes every loop due by then.
func (s *simClock) step(t *testing.T, n int) {
	t.Helper()
	next := s.settle(t, n)
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := next.Sub(s.clk.Now()); d > 0 {
		s.clk.Advance(d)
	}
	now := s.clk.Now()
	keep := s.sleepers[:0]
	for _, sl := range s.sleepers {
		if sl.until.After(now) {
			keep = append(keep, sl)
			continue
		}
		close(sl.wake)
	}
	s.sleepers = keep
}

// brokenRoller fails every upgrade of one release while broken is set, as
// a release whose chart no longer renders would, and stands in for the
// cluster's Events and retry annotations (the real ones are tested on the
// real cluster).
type brokenRoller struct {
	Roller
	release  string
	broken   *atomic.Bool
	applies  *atomic.Int32
	inFlight *atomic.Int32
	peak     *atomic.Int32
	retryAt  *atomic.Pointer[time.Time]
	mu       *sync.Mutex
	events   *[]string
}

func (b brokenRoller) Apply(ctx context.Context, req rollout.Request) (rollout.Result, error) {
	n := b.inFlight.Add(1)
	defer b.inFlight.Add(-1)
	raise(b.peak, n)
	b.applies.Add(1)
	if req.Release == b.release && b.broken.Load() {
		return rollout.Result{}, errors.New("template: deployment.yaml: nil pointer evaluating .Values.image")
	}
	return b.Roller.Apply(ctx, req)
}

// raise sets m to n unless it already holds more.
func raise(m *atomic.Int32, n int32) {
	for p := m.Load(); n > p; p = m.Load() {
		if m.CompareAndSwap(p, n) {
			return
		}
	}
}

func (b brokenRoller) RecordEvent(_ context.Context, release, reason, msg string, _ bool) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	*b.events = append(*b.events, release+" "+reason+" "+msg)
	return nil
}

func (b brokenRoller) RetryRequestedAt(context.Context, string) (time.Time, error) {
	if at := b.retryAt.Load(); at != nil {
		return *at, nil
	}
	return time.Time{}, nil
}

// fleetSim is a fleet of memory releases renewed from the reference server
// on a simulated clock, for the fleet tests.
type fleetSim struct {
	env      *apiservertest.Env
	job      string
	entries  []Entry
	rel      map[string]*rollout.Roller
	broken   atomic.Bool
	applies  atomic.Int32
	inFlight atomic.Int32
	peak     atomic.Int32
	retryAt  atomic.Pointer[time.Time]
	mu       sync.Mutex
	events   []string
	skip     string // a release not expected to stay fresh
	sim      *simClock
	out      *testutil.SyncBuffer
	metrics  *Metrics
	f        *Fleet
}

// newFleetSim installs perNS releases with expired links in each
// namespace (half following a domain, half a finished job), writes them
// to a releases file and loads it back. broken names the release whose
// upgrades fail while fs.broken is set. The releases live in Helm's
// memory storage.
func newFleetSim(t *testing.T, namespaces []string, perNS, parallel, maxRetry int, broken string) *fleetSim {
	t.Helper()
	return newFleetSimOn(t, namespaces, perNS, parallel, maxRetry, broken,
		func(ns string) *rollout.Roller { return rollouttest.MemoryRoller(ns, nil) })
}

// newFleetSimOn is newFleetSim with the releases of each namespace kept
// by the Roller roller returns (a real cluster's, say).
func newFleetSimOn(t *testing.T, namespaces []string, perNS, parallel, maxRetry int, broken string,
	roller func(ns string) *rollout.Roller) *fleetSim {
	t.Helper()
	env := apiservertest.Start(t, apiservertest.WithBundleTTL(time.Hour))
	apiClient, err := client.New(client.Config{BaseURL: env.URL, APIKey: env.Key, Clock: env.Clock, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	fs := &fleetSim{env: env, job: env.StartExportAndWait(t, api.StartExportRequest{Domain: env.Domain}).JobID,
		rel: map[string]*rollout.Roller{}, skip: broken, sim: &simClock{clk: env.Clock}, out: &testutil.SyncBuffer{}, metrics: NewMetrics()}
	rollers := map[string]Roller{}
	for i, ns := range namespaces {
		fs.rel[ns] = roller(ns)
		rollers[ns] = brokenRoller{Roller: fs.rel[ns], release: broken, broken: &fs.broken, applies: &fs.applies,
			inFlight: &fs.inFlight, peak: &fs.peak, retryAt: &fs.retryAt, mu: &fs.mu, events: &fs.events}
		for j := range perNS {
			name := fmt.Sprintf("docs-%d", i*perNS+j)
			if _, err := fs.rel[ns].Apply(t.Context(), rollout.Request{Release: name, Install: true, Chart: chartPath,
				BundleURL: "https://bundles.example.com/old.tar.gz?X-Amz-Signature=old", Version: "old",
				ExpiresAt: env.Clock.Now().Add(-time.Hour)}); err != nil {
				t.Fatal(err)
			}
			e := Entry{Release: name, Namespace: ns, JobID: fs.job}
			if j%2 == 0 {
				e = Entry{Release: name, Namespace: ns, Domain: env.Domain}
			}
			fs.entries = append(fs.entries, e)
		}
	}
	file := filepath.Join(t.TempDir(), "releases.yaml")
	var yml strings.Builder
	yml.WriteString("releases:\n")
	for _, e := range fs.entries {
		fmt.Fprintf(&yml, "  - release: %s\n    namespace: %s\n", e.Release, e.Namespace)
		if e.Domain != "" {
			fmt.Fprintf(&yml, "    domain: %s\n", e.Domain)
		} else {
			fmt.Fprintf(&yml, "    jobId: %s\n", e.JobID)
		}
	}
	if err := os.WriteFile(file, []byte(yml.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	loaded, err := LoadFleet(file, "")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(loaded, fs.entries) {
		t.Fatalf("the file reads back as %+v, want %+v", loaded, fs.entries)
	}
	fs.f = &Fleet{
		Base: Runner{Opts: Options{RenewBefore: 15 * time.Minute, MaxRetries: maxRetry, ExportTimeout: time.Minute,
			Request: rollout.Request{Timeout: time.Minute, OnFailure: rollout.KeepFailed}},
			API: apiClient, Clock: env.Clock, Sleep: fs.sim.Sleep, Out: fs.out, Log: hclog.NewNullLogger(),
			Recheck: 30 * time.Minute, Metrics: fs.metrics},
		Entries: loaded, Parallel: parallel,
		Rollers: func(ns string) (Roller, error) { return rollers[ns], nil },
	}
	return fs
}

// start runs the fleet until the test ends.
func (fs *fleetSim) start(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan int, 1)
	go func() { done <- fs.f.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
		if t.Failed() {
			t.Logf("output:\n%s", fs.out.String())
		}
	})
}

// run steps the clock through d. Whenever every loop sleeps, each release
// but fs.skip must carry a link that is still live when the clock next
// moves (the earliest wake-up): no link expires before its loop acts.
func (fs *fleetSim) run(t *testing.T, d time.Duration) int {
	t.Helper()
	start := fs.env.Clock.Now()
	// Each loop wakes on its own (real time runs on under the offset), at
	// most every ten simulated minutes here.
	limit := len(fs.entries) * int(d/(10*time.Minute))
	steps, hour, began := 0, time.Duration(0), time.Now()
	for ; fs.env.Clock.Now().Before(start.Add(d)); steps++ {
		if steps > limit {
			t.Fatalf("more than %d steps for %s", limit, d)
		}
		// A line per simulated hour, so a long run shows its pace (with -v).
		if h := fs.env.Clock.Now().Sub(start).Truncate(time.Hour); h > hour {
			hour = h
			t.Logf("+%s simulated: %d upgrades, %s wall", h, fs.applies.Load(), time.Since(began).Round(time.Second))
		}
		next := fs.sim.settle(t, len(fs.entries))
		for _, e := range fs.entries {
			if e.Release == fs.skip {
				continue
			}
			s, err := fs.rel[e.Namespace].Current(t.Context(), e.Release)
			if err != nil {
				t.Fatal(err)
			}
			if !s.LinkValid(next, 0) {
				t.Fatalf("%s/%s at +%s carries no link live until %s: %+v", e.Namespace, e.Release,
					fs.env.Clock.Now().Sub(start).Round(time.Second), next.Format(time.RFC3339), s)
			}
		}
		fs.sim.step(t, len(fs.entries))
	}
	return steps
}

// TestFleet_renewsEveryReleaseWhileOneFails keeps six releases in three
// namespaces fresh from one process for six simulated hours with one-hour
// links: every healthy release carries a live link at every step, at most
// --parallel upgrades run at once, and the broken release is retried
// --max-retries times, then marked as needing attention (output, Event,
// metric) without delaying the others, until a retry is requested.
func TestFleet_renewsEveryReleaseWhileOneFails(t *testing.T) {
	const brokenRelease, parallel, maxRetry = "docs-2", 2, 3
	fs := newFleetSim(t, []string{"team-a", "team-b", "team-c"}, 2, parallel, maxRetry, brokenRelease)
	fs.broken.Store(true)
	fs.start(t)
	fs.run(t, 6*time.Hour)
	var (
		env, applies, peak, out, metrics, job = fs.env, &fs.applies, &fs.peak, fs.out, fs.metrics, fs.job
		entries, rel, retryAt, broken, mu     = fs.entries, fs.rel, &fs.retryAt, &fs.broken, &fs.mu
	)
	t.Logf("six hours: %d upgrades tried, at most %d at once", applies.Load(), peak.Load())
	if p := peak.Load(); p > int32(parallel) || p < 1 {
		t.Fatalf("%d upgrades ran at once, --parallel %d", p, parallel)
	}
	log := out.String()
	if !strings.Contains(log, "team-b/docs-2: needs attention: stopped retrying release docs-2 after 4 failed attempts") {
		t.Fatalf("the broken release was not marked as needing attention after %d retries:\n%s", maxRetry, log)
	}
	if n := strings.Count(log, "team-b/docs-2: rollout failed"); n != maxRetry+1 {
		t.Fatalf("the broken release failed %d times, want %d (bounded retries, then a person)", n, maxRetry+1)
	}
	ms := httptest.NewServer(metrics.Handler())
	defer ms.Close()
	m := testutil.Scrape(t, ms.URL)
	if got := m.Must(t, "docsadmin_renewer_needs_attention", "namespace", "team-b", "release", brokenRelease); got != 1 {
		t.Fatalf("needs_attention = %v", got)
	}
	if got := m.Must(t, "docsadmin_renewer_failures_total", "namespace", "team-b", "release", brokenRelease); got != float64(maxRetry+1) {
		t.Fatalf("failures_total = %v", got)
	}
	for _, e := range entries {
		if e.Release == brokenRelease {
			continue
		}
		exp := m.Must(t, "docsadmin_renewer_link_expiry_timestamp_seconds", "namespace", e.Namespace, "release", e.Release)
		if exp <= float64(env.Clock.Now().Unix()) {
			t.Fatalf("%s: metric says the link expired at %v", e.Release, exp)
		}
	}
	if strings.Contains(m.Body, "X-Amz") || strings.Contains(m.Body, "signature") || strings.Contains(m.Body, job) {
		t.Fatalf("the renewer's metrics hold a link or job id:\n%s", m.Body)
	}
	mu.Lock()
	needs := slices.ContainsFunc(fs.events, func(s string) bool { return strings.HasPrefix(s, "docs-2 "+reasonNeedsAttention) })
	mu.Unlock()
	if !needs {
		t.Fatalf("no NeedsAttention event: %q", fs.events)
	}

	// A person fixes the release and asks for a retry: the loop picks it
	// up at its next look and the release gets a live link.
	broken.Store(false)
	at := env.Clock.Now()
	retryAt.Store(&at)
	for range 20 {
		fs.sim.step(t, len(entries))
		if s, err := rel["team-b"].Current(t.Context(), brokenRelease); err == nil && s.LinkValid(env.Clock.Now(), 0) {
			m = testutil.Scrape(t, ms.URL)
			if got := m.Must(t, "docsadmin_renewer_needs_attention", "namespace", "team-b", "release", brokenRelease); got != 0 {
				t.Fatalf("needs_attention = %v after the fix", got)
			}
			return
		}
	}
	t.Fatalf("the retried release never got a live link:\n%s", out.String())
}

// TestCommand_fleetUsage: each misuse of the fleet flags and each fault
// of a releases file exits 2 naming what is wrong, before the API or the
// cluster is contacted.
func TestCommand_fleetUsage(t *testing.T) {
	t.Setenv("DOCSADMIN_BASE_URL", "http://127.0.0.1:1")
	t.Setenv("DOCSADMIN_API_KEY", "k")
	dir := t.TempDir()
	file := func(body string) string {
		p := filepath.Join(dir, fmt.Sprintf("f%d.yaml", len(body)))
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := file("releases:\n  - {release: a, namespace: docs, domain: d}\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--releases", good}, "--releases needs --watch"},
		{[]string{"--watch", "--releases", good, "--release", "a"}, "do not combine it with --release"},
		{[]string{"--watch", "--releases", good, "--parallel", "0"}, "--parallel must be at least 1"},
		{[]string{"--watch", "--releases", good, "--max-retries", "-1"}, "--max-retries must not be negative"},
		{[]string{"--release", "a", "--domain", "d", "--metrics-addr", ":0"}, "--metrics-addr needs --watch"},
		{[]string{"--retry"}, "--retry takes --release"},
		{[]string{"--release", "a", "--domain", "d", "--drift", "warn"}, "--drift needs --watch"},
		{[]string{"--watch", "--release", "a", "--domain", "d", "--drift", "sometimes"}, "--drift must be off, warn or correct"},
		{[]string{"--watch", "--release", "a", "--domain", "d", "--drift-ignore", "Deployment:spec.replicas"}, "--drift-ignore needs --drift"},
		{[]string{"--watch", "--release", "a", "--domain", "d", "--drift", "warn", "--drift-ignore", "replicas"}, "want Kind:field"},
		{[]string{"--retry", "--release", "a", "--watch"}, "--retry takes --release"},
		{[]string{"--selector", "docsadmin.io/fleet=docs"}, "--selector needs --watch"},
		{[]string{"--watch", "--selector", "a=b", "--releases", good}, "takes the place of --releases"},
		{[]string{"--watch", "--selector", "a=b", "--domain", "d"}, "do not combine it with --release"},
		{[]string{"--watch", "--selector", "a in (", "--namespaces", "x"}, "--selector: "},
		{[]string{"--watch", "--selector", "a=b", "--namespace-selector", "!!"}, "--namespace-selector: "},
		{[]string{"--watch", "--selector", "a=b", "--namespaces", "x", "--namespace-selector", "c=d"}, "give one of --namespaces and --namespace-selector"},
		{[]string{"--watch", "--release", "a", "--domain", "d", "--namespaces", "x"}, "--namespaces and --namespace-selector need --selector"},
		{[]string{"--watch", "--selector", "a=b", "--resync", "0s"}, "--resync must be positive"},
		{[]string{"--watch", "--releases", filepath.Join(dir, "missing.yaml")}, "read the releases file"},
		{[]string{"--watch", "--releases", file("releases: []\n")}, "lists no releases"},
		{[]string{"--watch", "--releases", file("releases:\n  - {release: a, namespace: docs}\n")}, "entry 1 (a): give exactly one of domain and jobId"},
		{[]string{"--watch", "--releases", file("releases:\n  - {release: a, domain: d}\n")}, "entry 1 (a): no namespace"},
		{[]string{"--watch", "--releases", file("releases:\n  - {namespace: docs, domain: d}\n")}, "entry 1: no release"},
		{[]string{"--watch", "--releases", file("releases:\n  - {release: a, namespace: docs, domain: d, chartVersion: 1}\n")}, "repo and chartVersion need chart"},
		{[]string{"--watch", "--releases", file("releases:\n  - {release: a, namespace: docs, domain: d}\n  - {release: a, namespace: docs, jobId: j}\n")}, "entry 2: release docs/a is also entry 1"},
		{[]string{"--watch", "--releases", file("releases:\n  - {release: a, namespace: docs, domian: d}\n")}, `unknown field "domian"`},
	} {
		var out, errs bytes.Buffer
		if code := Command(context.Background(), tc.args, &out, &errs); code != ExitUsage || !strings.Contains(errs.String(), tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 saying %q", tc.args, code, errs.String(), tc.want)
		}
	}
}

// TestFleet_fiftyReleases keeps 50 releases in ten namespaces fresh for a
// simulated day with one-hour links and --parallel 4, checking every link
// at every step, and reports the CPU time and memory the run took. The
// releases live in Helm's memory storage; the API calls go to the
// reference server over HTTP in the same process, so the figures are an
// upper bound for the renewer's own share. FLEET50=1 runs it (it takes
// about a minute of CPU); make test does not.
func TestFleet_fiftyReleases(t *testing.T) {
	if os.Getenv("FLEET50") != "1" {
		t.Skip("set FLEET50=1 to run the 50-release measurement")
	}
	var ns []string
	for i := range 10 {
		ns = append(ns, fmt.Sprintf("team-%d", i))
	}
	measureFleet(t, newFleetSim(t, ns, 5, 4, 10, ""), "in Helm's memory storage", 24*time.Hour)
}

// measureFleet runs fs's releases for d simulated hours and logs the
// figures: steps, upgrades, wall time, and this process's CPU time (also
// per upgrade) and memory. It fails only when fewer upgrades ran than d of
// one-hour links needs; nothing is asserted on the figures.
func measureFleet(t *testing.T, fs *fleetSim, where string, d time.Duration) {
	t.Helper()
	before := processUsage(t)
	began := time.Now()
	fs.start(t)
	steps := fs.run(t, d)
	after := processUsage(t)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	n := fs.applies.Load()
	user, sys := after.user-before.user, after.sys-before.sys
	t.Logf("%d releases %s, %s simulated, %d steps, %d upgrades (at most %d at once) in %s wall: "+
		"CPU %s user + %s system (%s per upgrade), max RSS %d MiB, heap in use %d MiB, %d goroutines",
		len(fs.entries), where, d, steps, n, fs.peak.Load(), time.Since(began).Round(time.Millisecond),
		user.Round(time.Millisecond), sys.Round(time.Millisecond),
		((user + sys) / time.Duration(max(n, 1))).Round(time.Millisecond),
		after.maxRSS>>20, ms.HeapInuse>>20, runtime.NumGoroutine())
	if want := int64(len(fs.entries)) * int64(d/time.Hour); int64(n) < want {
		t.Fatalf("%d upgrades for %d releases over %s of one-hour links", n, len(fs.entries), d)
	}
}
