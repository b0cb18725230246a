package bundleserve

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// An upstream that trickles the bundle (a byte at a time, never silent
// for the stall timeout) is cut once a window brings less than the
// minimum rate, or once the whole download passes its deadline, and
// /healthz says so while the old site keeps serving.
func TestUpdate_trickleIsCut(t *testing.T) {
	f := newFixture(t)
	v := f.srv.Version()
	good := fetchBytes(t, bundleOf(t, f.env, "index", "quickstart").BundleURL)
	for _, tc := range []struct {
		name     string
		opts     Options
		wantText string
	}{
		{"under the minimum rate", Options{StallTimeout: 300 * time.Millisecond, MinRate: 10_000}, "too slow"},
		{"past the deadline", Options{StallTimeout: 300 * time.Millisecond, MinRate: -1, FetchTimeout: 500 * time.Millisecond}, "not done within 500ms"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			release := make(chan struct{})
			trickle, _ := upstream(t, func(w http.ResponseWriter, _ *http.Request) {
				// A byte every 20 ms, for at most 20 s: the gaps are far
				// below the stall timeout, the rate far below the floor.
				for i := 0; i < min(len(good), 1000); i++ {
					_, _ = w.Write(good[i : i+1])
					w.(http.Flusher).Flush()
					select {
					case <-time.After(20 * time.Millisecond):
					case <-release:
						return
					}
				}
			})
			t.Cleanup(func() { close(release) })
			opts := tc.opts
			opts.URLFile, opts.DataDir = f.urlFile, f.dataDir
			srv, err := New(opts)
			if err != nil {
				t.Fatal(err)
			}
			f.setLink(t, trickle.URL+"/b.tar.gz")
			err = srv.Update(context.Background())
			if reason, _ := reasonOf(err); reason != "download-too-slow" || !strings.Contains(err.Error(), tc.wantText) {
				t.Fatalf("got %v (%s), want download-too-slow saying %q", err, reason, tc.wantText)
			}
			rec := httptest.NewRecorder()
			srv.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
			if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), `"reason":"download-too-slow"`) {
				t.Fatalf("healthz: %d %s", rec.Code, rec.Body)
			}
			if srv.Version() != v {
				t.Fatalf("serving %q, want the old site %q", srv.Version(), v)
			}
		})
	}
}

// A failed download is tried again after a back-off that doubles with
// every failure, with jitter (injected here) and a cap, rather than at
// every check interval; a redirect loop is one such failure, given up
// after a few hops. A new link is tried at once.
func TestUpdate_failedDownloadBacksOff(t *testing.T) {
	f := newFixture(t)
	var loop *url.URL
	ts, hits := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, loop.String(), http.StatusFound)
	})
	loop, _ = url.Parse(ts.URL + "/again?signature=s3cr3t")
	clk := clock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	log := &testutil.SyncBuffer{}
	srv, err := New(Options{URLFile: f.urlFile, DataDir: f.dataDir, Clock: clk,
		Logger: hclog.New(&hclog.LoggerOptions{Output: log, Level: hclog.Debug})})
	if err != nil {
		t.Fatal(err)
	}
	srv.backoff.rand = func() float64 { return 0 } // every wait its lower bound: half
	f.setLink(t, loop.String())
	perTry := int64(maxRedirects + 1)
	update := func(wantTries int64) {
		t.Helper()
		err := srv.Update(context.Background())
		if reason, _ := reasonOf(err); reason != "redirect-refused" || !strings.Contains(err.Error(), "redirects") {
			t.Fatalf("redirect loop: %v (%s)", err, reason)
		}
		if got := hits.Load(); got != wantTries*perTry {
			t.Fatalf("%d requests, want %d tries of %d", got, wantTries, perTry)
		}
	}
	update(1)
	update(1) // at once: not tried again
	clk.Advance(15*time.Second - time.Nanosecond)
	update(1)
	clk.Advance(time.Nanosecond) // half of the first 30 s
	update(2)
	clk.Advance(29 * time.Second)
	update(2) // the second wait is half of a minute
	clk.Advance(time.Second)
	update(3)
	for range 20 { // doubling up to half of 30 minutes, never more
		clk.Advance(15 * time.Minute)
		update(hits.Load()/perTry + 1)
	}
	if strings.Contains(log.String(), "s3cr3t") {
		t.Fatalf("the log holds the link:\n%s", log.String())
	}
	// Jitter spreads the wait over its upper half.
	srv.backoff.rand = func() float64 { return 0.999 }
	clk.Advance(30 * time.Minute)
	update(hits.Load()/perTry + 1)
	clk.Advance(29 * time.Minute)
	update(hits.Load() / perTry)

	f.setLink(t, bundleOf(t, f.env, "index").BundleURL)
	if err := srv.Update(context.Background()); err != nil {
		t.Fatalf("a new link after failures: %v", err)
	}
}

// A presigned link is followed only on its own host: a redirect to
// another host is refused (the other host is never asked) unless it is
// allowed, and one within the host is followed.
func TestUpdate_redirectsStayOnTheLinksHost(t *testing.T) {
	f := newFixture(t)
	v := f.srv.Version()
	good := fetchBytes(t, bundleOf(t, f.env, "index", "quickstart").BundleURL)
	other, otherHits := upstream(t, func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(good) })
	redirector, _ := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/same" {
			_, _ = w.Write(good)
			return
		}
		to := other.URL + "/b.tar.gz"
		if r.URL.Path == "/local" {
			to = "/same"
		}
		http.Redirect(w, r, to, http.StatusTemporaryRedirect)
	})

	f.setLink(t, redirector.URL+"/elsewhere?signature=s3cr3t")
	err := f.srv.Update(context.Background())
	if reason, _ := reasonOf(err); reason != "redirect-refused" || !strings.Contains(err.Error(), other.Listener.Addr().String()) {
		t.Fatalf("redirect to another host: %v (%s)", err, reason)
	}
	if strings.Contains(err.Error(), "s3cr3t") {
		t.Fatalf("the error holds the link: %v", err)
	}
	if n := otherHits.Load(); n != 0 {
		t.Fatalf("the other host was asked %d times", n)
	}
	f.assertDegraded(t, v, "redirect-refused")

	f.setLink(t, redirector.URL+"/local")
	if err := f.srv.Update(context.Background()); err != nil {
		t.Fatalf("redirect within the host: %v", err)
	}

	allowed, err := New(Options{URLFile: f.urlFile, DataDir: t.TempDir(), RedirectHosts: []string{other.Listener.Addr().String()}})
	if err != nil {
		t.Fatal(err)
	}
	f.setLink(t, redirector.URL+"/elsewhere")
	if err := allowed.Update(context.Background()); err != nil {
		t.Fatalf("redirect to an allowed host: %v", err)
	}
}
