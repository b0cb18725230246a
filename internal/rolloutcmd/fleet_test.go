package rolloutcmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
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
	clk      *clock.Offset
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

// step waits until n loops sleep, then moves the clock to the earliest
// wake-up and wakes every loop due by then.
func (s *simClock) step(t *testing.T, n int) {
	t.Helper()
	testutil.Eventually(t, 30*time.Second, fmt.Sprintf("%d loops asleep", n), func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return len(s.sleepers) == n
	})
	s.mu.Lock()
	defer s.mu.Unlock()
	slices.SortFunc(s.sleepers, func(a, b *sleeper) int { return a.until.Compare(b.until) })
	if d := s.sleepers[0].until.Sub(s.clk.Now()); d > 0 {
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

// TestFleet_renewsEveryReleaseWhileOneFails keeps six releases in three
// namespaces fresh from one process for six simulated hours with one-hour
// links: every healthy release carries a live link at every step, at most
// --parallel upgrades run at once, and the broken release is retried
// --max-retries times, then marked as needing attention (output, Event,
// metric) without delaying the others, until a retry is requested.
func TestFleet_renewsEveryReleaseWhileOneFails(t *testing.T) {
	env := apiservertest.Start(t, apiservertest.WithBundleTTL(time.Hour))
	apiClient, err := client.New(client.Config{BaseURL: env.URL, APIKey: env.Key, Clock: env.Clock, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	job := env.StartExportAndWait(t, api.StartExportRequest{Domain: env.Domain}).JobID
	var (
		broken             atomic.Bool
		applies, inFlight  atomic.Int32
		peak               atomic.Int32
		retryAt            atomic.Pointer[time.Time]
		mu                 sync.Mutex
		events             []string
		entries            []Entry
		rollers            = map[string]Roller{}
		rel                = map[string]*rollout.Roller{}
		brokenRelease      = "docs-2"
		namespaces         = []string{"team-a", "team-b", "team-c"}
		releasesPerNS      = 2
		parallel, maxRetry = 2, 3
	)
	broken.Store(true)
	for i, ns := range namespaces {
		rel[ns] = rollouttest.MemoryRoller(ns, nil)
		rollers[ns] = brokenRoller{Roller: rel[ns], release: brokenRelease, broken: &broken, applies: &applies,
			inFlight: &inFlight, peak: &peak, retryAt: &retryAt, mu: &mu, events: &events}
		for j := range releasesPerNS {
			name := fmt.Sprintf("docs-%d", i*releasesPerNS+j)
			// Each release exists already with a link that has expired;
			// half follow a domain, half a finished job.
			if _, err := rel[ns].Apply(t.Context(), rollout.Request{Release: name, Install: true, Chart: chartPath,
				BundleURL: "https://bundles.example.com/old.tar.gz?X-Amz-Signature=old", Version: "old",
				ExpiresAt: env.Clock.Now().Add(-time.Hour)}); err != nil {
				t.Fatal(err)
			}
			e := Entry{Release: name, Namespace: ns, JobID: job}
			if j == 0 {
				e = Entry{Release: name, Namespace: ns, Domain: env.Domain}
			}
			entries = append(entries, e)
		}
	}
	file := filepath.Join(t.TempDir(), "releases.yaml")
	var yml strings.Builder
	yml.WriteString("releases:\n")
	for _, e := range entries {
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
	if !slices.Equal(loaded, entries) {
		t.Fatalf("the file reads back as %+v, want %+v", loaded, entries)
	}

	sim := &simClock{clk: env.Clock}
	out := &testutil.SyncBuffer{}
	metrics := NewMetrics()
	f := &Fleet{
		Base: Runner{Opts: Options{RenewBefore: 15 * time.Minute, MaxRetries: maxRetry, ExportTimeout: time.Minute,
			Request: rollout.Request{Timeout: time.Minute, OnFailure: rollout.KeepFailed}},
			API: apiClient, Clock: env.Clock, Sleep: sim.Sleep, Out: out, Log: hclog.NewNullLogger(),
			Recheck: 30 * time.Minute, Metrics: metrics},
		Entries: loaded, Parallel: parallel,
		Rollers: func(ns string) (Roller, error) { return rollers[ns], nil },
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan int, 1)
	go func() { done <- f.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
		if t.Failed() {
			t.Logf("output:\n%s", out.String())
		}
	})

	start := env.Clock.Now()
	for steps := 0; env.Clock.Now().Before(start.Add(6 * time.Hour)); steps++ {
		if steps > 500 {
			t.Fatalf("more than 500 steps for six hours")
		}
		sim.step(t, len(entries))
		now := env.Clock.Now()
		for _, e := range entries {
			if e.Release == brokenRelease {
				continue
			}
			s, err := rel[e.Namespace].Current(t.Context(), e.Release)
			if err != nil {
				t.Fatal(err)
			}
			// Between steps every loop sleeps, so each healthy release
			// must hold a link that is live now.
			if !s.LinkValid(now, 0) {
				t.Fatalf("%s/%s at +%s carries no live link: %+v", e.Namespace, e.Release, now.Sub(start).Round(time.Second), s)
			}
		}
	}
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
	needs := slices.ContainsFunc(events, func(s string) bool { return strings.HasPrefix(s, "docs-2 "+reasonNeedsAttention) })
	mu.Unlock()
	if !needs {
		t.Fatalf("no NeedsAttention event: %q", events)
	}

	// A person fixes the release and asks for a retry: the loop picks it
	// up at its next look and the release gets a live link.
	broken.Store(false)
	at := env.Clock.Now()
	retryAt.Store(&at)
	for range 20 {
		sim.step(t, len(entries))
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
