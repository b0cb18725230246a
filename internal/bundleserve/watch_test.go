package bundleserve

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// secretDir lays files out as the kubelet does for a Secret volume mounted
// without subPath: each key is a symlink through ..data, and an update
// writes a new timestamped directory and swaps ..data atomically. The chart
// mounts the bundle Secret this way, so this is what serve-bundle sees when
// a Helm upgrade changes the Secret.
type secretDir struct {
	dir string
	gen int
}

func newSecretDir(t *testing.T, keys ...string) *secretDir {
	t.Helper()
	s := &secretDir{dir: t.TempDir()}
	for _, k := range keys {
		if err := os.Symlink(filepath.Join("..data", k), filepath.Join(s.dir, k)); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func (s *secretDir) path(key string) string { return filepath.Join(s.dir, key) }

// write publishes data as the Secret's new content in one atomic swap.
func (s *secretDir) write(t *testing.T, data map[string]string) {
	t.Helper()
	s.gen++
	ts := fmt.Sprintf("..2026_01_01_00_00_%02d.%d", s.gen, s.gen)
	if err := os.Mkdir(filepath.Join(s.dir, ts), 0o755); err != nil {
		t.Fatal(err)
	}
	for k, v := range data {
		if err := os.WriteFile(filepath.Join(s.dir, ts, k), []byte(v), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tmp := filepath.Join(s.dir, "..data_tmp")
	if err := os.Symlink(ts, tmp); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(s.dir, "..data")); err != nil {
		t.Fatal(err)
	}
}

// TestRun_picksUpRewrittenSecretWithoutRestart is the chart's promise that
// new content needs no pod restart: the running loop notices the Secret's
// new link by itself, swaps the new site in while clients keep reading
// (every request answered 200), and still honours a pin written next to
// the link.
func TestRun_picksUpRewrittenSecretWithoutRestart(t *testing.T) {
	f := newFixture(t) // only for the reference server and its bundles
	first := bundleOf(t, f.env)
	sec := newSecretDir(t, "bundleUrl", "version")
	sec.write(t, map[string]string{"bundleUrl": first.BundleURL})

	log := &testutil.SyncBuffer{}
	srv, err := New(Options{URLFile: sec.path("bundleUrl"), PinVersionFile: sec.path("version"),
		DataDir: t.TempDir(), Logger: hclog.New(&hclog.LoggerOptions{Output: log})})
	if err != nil {
		t.Fatal(err)
	}
	site := newSite(t, srv)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); srv.Run(ctx, 20*time.Millisecond) }()
	t.Cleanup(func() { cancel(); <-done })

	testutil.Eventually(t, 20*time.Second, "the first site to be served", func() bool {
		return srv.Version() == first.Version
	})

	// Clients read throughout both swaps below.
	var served atomic.Int64
	failures := make(chan string, 8)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20000; i++ {
				select {
				case <-stop:
					return
				default:
				}
				resp, err := http.Get(site + "/quickstart")
				if err != nil {
					failures <- err.Error()
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					failures <- resp.Status
					return
				}
				served.Add(1)
			}
		}()
	}

	next := bundleOf(t, f.env, "index", "quickstart")
	if next.Version == first.Version {
		t.Fatalf("the second export has the same version %s", first.Version)
	}
	sec.write(t, map[string]string{"bundleUrl": next.BundleURL})
	testutil.Eventually(t, 20*time.Second, "the new content to be served", func() bool {
		resp, err := http.Get(site + "/")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.Header.Get("X-Bundle-Version") == next.Version
	})

	// A pin that the linked bundle does not match: the new link is refused
	// and the current site keeps serving.
	third := bundleOf(t, f.env)
	sec.write(t, map[string]string{"bundleUrl": third.BundleURL, "version": next.Version})
	testutil.Eventually(t, 20*time.Second, "the pin to refuse the first version's bundle", func() bool {
		return srv.Healthy() != nil
	})
	if srv.Version() != next.Version {
		t.Fatalf("pinned to %s but serving %s", next.Version, srv.Version())
	}

	close(stop)
	wg.Wait()
	close(failures)
	for e := range failures {
		t.Errorf("request during the swaps: %s", e)
	}
	if served.Load() == 0 {
		t.Fatal("no request was served during the swaps")
	}
	t.Logf("%d requests answered during two content changes", served.Load())
}

func newSite(t *testing.T, srv *Server) string {
	t.Helper()
	s := httptest.NewServer(srv.Handler())
	t.Cleanup(s.Close)
	return s.URL
}
