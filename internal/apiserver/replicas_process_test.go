package apiserver_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/pgtest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/s3test"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// roundRobin is the load balancer in front of replica processes: each
// request goes to the next backend, and to the one after it if that one
// refuses the connection (a dead replica), as a balancer with health
// checks would soon do.
type roundRobin struct {
	mu       sync.Mutex
	backends []string
	next     atomic.Int64
}

func (rr *roundRobin) set(i int, url string) {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	rr.backends[i] = url
}

func (rr *roundRobin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rr.mu.Lock()
	backends := append([]string(nil), rr.backends...)
	rr.mu.Unlock()
	start := int(rr.next.Add(1))
	for i := range backends {
		b := backends[(start+i)%len(backends)]
		req, err := http.NewRequestWithContext(r.Context(), r.Method, b+r.URL.RequestURI(), bytes.NewReader(body))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		req.Header = r.Header.Clone()
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			continue // try the next replica
		}
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(w, resp.Body)
		_ = resp.Body.Close()
		return
	}
	http.Error(w, "no replica answered", http.StatusBadGateway)
}

// renderLog reads, from replica logs, which jobs each rendered to
// completion and which it resumed after another's lease ended.
var (
	completedLine = regexp.MustCompile(`export completed and uploaded: job=(se_[0-9a-f]{16})`)
	resumedLine   = regexp.MustCompile(`resuming export: job=(se_[0-9a-f]{16})`)
)

func logMatches(t *testing.T, path string, re *regexp.Regexp) map[string]int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, m := range re.FindAllStringSubmatch(string(b), -1) {
		out[m[1]]++
	}
	return out
}

// Two apiserver processes on one database and one bucket, with data dirs
// of their own, behind a round-robin balancer: 100 exports from three
// organizations, polled and downloaded through both, are each rendered
// exactly once; a replica killed with SIGKILL mid-export loses the job to
// the other within the lease; a link issued by the dead replica still
// downloads.
func TestReplicaProcesses_shareWorkAndSurviveKill(t *testing.T) {
	b := s3test.Start(t)
	b.SetEnv(t) // the children inherit the credentials
	db := pgtest.DB(t)
	dir := t.TempDir()
	apiservertest.WriteSites(t, dir)
	writeLargeSite(t, filepath.Join(dir, "large"), 1500)
	const lease = 2 * time.Second
	orgs := []string{"acme", "beta", "gamma"}
	keys := map[string]string{}
	var cfg strings.Builder
	fmt.Fprintf(&cfg, "exportLease: %s\nmaxActiveExports: 100\nstorage: {database: %q, objects: %q}\norganizations:\n", lease, db, b.URL())
	for i, o := range orgs {
		keys[o] = "dak_" + strings.Repeat(fmt.Sprintf("%x", i+10), 32)
		fmt.Fprintf(&cfg, `  - id: %s
    plan: enterprise
    apiKeys: [%q]
    projects:
      - id: docs-%s
        repository: https://git.example.com/%s/docs
        deployments:
          - {domain: docs.%s.test, source: ./site, kind: air-gapped}
`, o, keys[o], o, o, o)
	}
	fmt.Fprintf(&cfg, "          - {domain: large.%s.test, source: ./large, kind: air-gapped}\n", orgs[2])
	cfgPath := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfgPath, []byte(cfg.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	logs := []string{filepath.Join(dir, "a.log"), filepath.Join(dir, "b.log")}
	start := func(i int) *child {
		f, err := os.OpenFile(logs[i], os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = f.Close() })
		return startChildLogging(t, fmt.Sprintf("--log-level info --config %s --data-dir %s --addr 127.0.0.1:0",
			cfgPath, filepath.Join(dir, fmt.Sprintf("data-%d", i))), f)
	}
	replicas := []*child{start(0), start(1)}
	rr := &roundRobin{backends: []string{replicas[0].url, replicas[1].url}}
	lb := newLoopbackServer(t, rr)

	// 100 exports, started, polled and downloaded through the balancer.
	type job struct{ id, key string }
	var jobs []job
	for i := range 100 {
		o := orgs[i%3]
		jobs = append(jobs, job{startOn(t, lb, keys[o], "docs."+o+".test"), keys[o]})
	}
	for _, j := range jobs {
		testutil.Eventually(t, 3*time.Minute, "export "+j.id+" to complete", func() bool {
			got := jobOn(t, lb, j.key, j.id)
			if got.Status == api.ExportFailed {
				t.Fatalf("export %s failed: %s", j.id, got.Error)
			}
			return got.Status == api.ExportCompleted
		})
		bun := bundleOn(t, lb, j.key, j.id)
		download(t, bun.BundleURL, bun.SizeBytes)
	}
	perReplica := []map[string]int{logMatches(t, logs[0], completedLine), logMatches(t, logs[1], completedLine)}
	for _, j := range jobs {
		if n := perReplica[0][j.id] + perReplica[1][j.id]; n != 1 {
			t.Errorf("export %s rendered %d times, want 1", j.id, n)
		}
	}
	if len(perReplica[0]) == 0 || len(perReplica[1]) == 0 {
		t.Errorf("renders by replica: %d and %d; want both to share the work", len(perReplica[0]), len(perReplica[1]))
	}
	t.Logf("renders by replica: %d and %d", len(perReplica[0]), len(perReplica[1]))

	// Takeover: stop B, so that A alone claims a long export; start B
	// again and kill A mid-render.
	kill := func(c *child) {
		if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = c.cmd.Wait()
	}
	kill(replicas[1])
	gamma := keys["gamma"]
	large := startOn(t, replicas[0].url, gamma, "large.gamma.test")
	testutil.Eventually(t, time.Minute, "the large export to render on A", func() bool {
		got := jobOn(t, replicas[0].url, gamma, large)
		return got.Status == api.ExportRunning && got.PageCount > 0
	})
	link := bundleOn(t, replicas[0].url, jobs[0].key, jobs[0].id) // issued by A
	replicas[1] = start(1)
	rr.set(1, replicas[1].url)
	kill(replicas[0])
	killed := time.Now()
	download(t, link.BundleURL, link.SizeBytes) // A is down; the store serves it
	// Taken over within the lease plus a claim interval, with room for a
	// loaded machine.
	testutil.Eventually(t, lease+15*time.Second, "the other replica to take the large export over", func() bool {
		return logMatches(t, logs[1], resumedLine)[large] > 0
	})
	t.Logf("large export taken over %s after its replica was killed (lease %s)", time.Since(killed).Round(time.Millisecond), lease)
	testutil.Eventually(t, lease+2*time.Minute, "the other replica to finish the large export", func() bool {
		got := jobOn(t, lb, gamma, large)
		if got.Status == api.ExportFailed {
			t.Fatalf("large export failed after the kill: %s", got.Error)
		}
		return got.Status == api.ExportCompleted
	})
	t.Logf("large export completed %s after its replica was killed (lease %s)", time.Since(killed).Round(time.Millisecond), lease)
	if n := logMatches(t, logs[1], resumedLine)[large]; n != 1 {
		t.Fatalf("replica B resumed the large export %d times, want 1", n)
	}
	bun := bundleOn(t, lb, gamma, large)
	download(t, bun.BundleURL, bun.SizeBytes)
}

// newLoopbackServer serves h on 127.0.0.1 until the test ends.
func newLoopbackServer(t *testing.T, h http.Handler) string {
	t.Helper()
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts.URL
}
