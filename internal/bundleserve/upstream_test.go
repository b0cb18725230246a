package bundleserve

import (
	"archive/tar"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// upstream serves body on every request and counts them.
func upstream(t *testing.T, h http.HandlerFunc) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		h(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts, &n
}

// A bundle that fails verification is not downloaded again every check:
// the same link waits 1, 2, 4 … minutes (on the injected clock), the
// refusal is logged once, and neither the log nor /healthz holds the link.
func TestUpdate_refusedBundleBacksOff(t *testing.T) {
	f := newFixture(t)
	tampered := tamper(t, bundleOf(t, f.env).BundleURL)
	evil, hits := upstream(t, func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(tampered) })
	const secret = "signature=s3cr3t-0f-the-link"
	link := evil.URL + "/bundle.tar.gz?" + secret

	log := &testutil.SyncBuffer{}
	clk := clock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	srv, err := New(Options{URL: link, DataDir: t.TempDir(), Clock: clk,
		Logger: hclog.New(&hclog.LoggerOptions{Output: log, Level: hclog.Debug})})
	if err != nil {
		t.Fatal(err)
	}
	update := func(wantHits int64) {
		t.Helper()
		if err := srv.Update(context.Background()); err == nil || !strings.Contains(err.Error(), "verify bundle") {
			t.Fatalf("tampered bundle: %v", err)
		}
		if got := hits.Load(); got != wantHits {
			t.Fatalf("%d downloads, want %d", got, wantHits)
		}
	}
	update(1)
	update(1) // at once again: not fetched
	// Another failure in between, then the refused link again while it
	// waits: the last error is the refusal again, not the failure before.
	srv.opts.URL = "http://127.0.0.1:0/\x7f"
	if err := srv.Update(context.Background()); err == nil {
		t.Fatal("a bad link was accepted")
	}
	srv.opts.URL = link
	update(1)
	if reason, _ := reasonOf(srv.lastErr.Load()); reason != "bundle-refused" {
		t.Fatalf("probe reason %q while the link waits out its back-off", reason)
	}
	clk.Advance(59 * time.Second)
	update(1)
	clk.Advance(time.Second) // one minute after the first refusal
	update(2)
	clk.Advance(time.Minute)
	update(2) // the second wait is two minutes
	clk.Advance(time.Minute)
	update(3)
	for range 20 { // the wait doubles up to an hour, never more
		clk.Advance(time.Hour)
		update(hits.Load() + 1)
	}
	if n := strings.Count(log.String(), "bundle refused;"); n != 1 {
		t.Fatalf("the refusal was logged %d times, want once:\n%s", n, log.String())
	}
	if strings.Contains(log.String(), "s3cr3t") {
		t.Fatalf("the log holds the link:\n%s", log.String())
	}
	if err := srv.Healthy(); err == nil {
		t.Fatal("healthy while the bundle is refused")
	}

	// A new link (the Secret renewed) is tried at once.
	srv.opts.URL = f.env.Bundle(t, bundleOf(t, f.env).JobID).BundleURL
	if err := srv.Update(context.Background()); err != nil {
		t.Fatalf("a good link after refusals: %v", err)
	}
}

// A download that stops sending (before the headers, or half-way through
// the body) is given up after the stall timeout, not after an overall
// limit, and says so; one that keeps flowing, however slowly and however
// long in all, completes (with a longer stall timeout, so that a loaded
// machine's scheduling delays are not mistaken for a stall).
func TestUpdate_stallTimeout(t *testing.T) {
	f := newFixture(t)
	good := fetchBytes(t, bundleOf(t, f.env, "index", "quickstart").BundleURL)

	const stall, flowingStall = 300 * time.Millisecond, time.Second
	for _, tc := range []struct {
		name string
		h    func(w http.ResponseWriter, release <-chan struct{})
		want string
	}{
		{"no headers", func(_ http.ResponseWriter, release <-chan struct{}) { <-release }, "download-stalled"},
		{"body stops", func(w http.ResponseWriter, release <-chan struct{}) {
			_, _ = w.Write(good[:len(good)/2])
			w.(http.Flusher).Flush()
			<-release
		}, "download-stalled"},
		{"slow but flowing", func(w http.ResponseWriter, release <-chan struct{}) {
			// Twenty pieces a sixth of the flowing case's stall timeout
			// apart: more than three stall timeouts in all, with most of
			// one timeout of slack per gap for a loaded machine (a third
			// of 300 ms was not enough at load 20).
			step := len(good)/20 + 1
			for i := 0; i < len(good); i += step {
				_, _ = w.Write(good[i:min(i+step, len(good))])
				w.(http.Flusher).Flush()
				select {
				case <-time.After(flowingStall / 6):
				case <-release:
					return
				}
			}
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			release := make(chan struct{})
			ts, _ := upstream(t, func(w http.ResponseWriter, _ *http.Request) { tc.h(w, release) })
			t.Cleanup(func() { close(release) }) // before the server closes (LIFO)
			timeout := stall
			if tc.want == "" {
				timeout = flowingStall
			}
			srv, err := New(Options{URL: ts.URL + "/b.tar.gz", DataDir: t.TempDir(), StallTimeout: timeout})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			err = srv.Update(context.Background())
			took := time.Since(start)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("a flowing download failed: %v", err)
				}
				return
			}
			if reason, _ := reasonOf(err); reason != tc.want || !strings.Contains(err.Error(), "no bytes for 300ms") {
				t.Fatalf("got %v (%s), want %s", err, reason, tc.want)
			}
			if took > 10*stall {
				t.Fatalf("gave up after %s with a stall timeout of %s", took, stall)
			}
			if left, _ := filepath.Glob(filepath.Join(srv.opts.DataDir, ".unpack-*")); len(left) != 0 {
				t.Fatalf("stalled download left %v", left)
			}
		})
	}
}

// A manifest that lists no files verifies trivially and would blank the
// site: it is refused, the old site keeps serving.
func TestUpdate_refusesEmptyManifest(t *testing.T) {
	f := newFixture(t)
	v := f.srv.Version()
	man := bundle.Manifest{Version: bundle.ContentVersion(nil), Domain: "docs.example.com", Kind: "cloud", Files: []bundle.File{}}
	raw, err := json.Marshal(man)
	if err != nil {
		t.Fatal(err)
	}
	for name, entries := range map[string][]entry{
		"manifest first": {{name: bundle.ManifestName, data: raw}},
		"manifest later": {{name: "a/", data: nil}, {name: bundle.ManifestName, data: raw}},
	} {
		t.Run(name, func(t *testing.T) {
			body := tarGz(t, func(tw *tar.Writer) {
				for _, e := range entries {
					if strings.HasSuffix(e.name, "/") {
						_ = tw.WriteHeader(&tar.Header{Name: e.name, Typeflag: tar.TypeDir, Mode: 0o755})
						continue
					}
					writeFiles(tw, []entry{e})
				}
			}).Bytes()
			empty, _ := upstream(t, func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(body) })
			f.setLink(t, empty.URL+"/"+strings.ReplaceAll(name, " ", "-")+".tar.gz")
			err := f.srv.Update(context.Background())
			if err == nil || !strings.Contains(err.Error(), "lists no files") {
				t.Fatalf("empty manifest: %v", err)
			}
			f.assertDegraded(t, v, "bundle-refused")
		})
	}
}

// /healthz is public: it names the kind of failure, never the upstream's
// error text nor a local path (both go to the log).
func TestHealthz_saysNoUpstreamErrorsOrPaths(t *testing.T) {
	f := newFixture(t)
	v := f.srv.Version()
	const leak = "db password hunter2 at /srv/upstream/secret"
	bad, _ := upstream(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(`{"error":"` + leak + `"}`))
	})
	f.setLink(t, bad.URL+"/b.tar.gz")
	if err := f.srv.Update(context.Background()); err == nil || !strings.Contains(err.Error(), leak) {
		t.Fatalf("the caller (and the log) should get the upstream's reason: %v", err)
	}
	_, _, body := f.fetch(t, "/healthz")
	if strings.Contains(body, "hunter2") || strings.Contains(body, "/srv/") {
		t.Fatalf("healthz relays the upstream's error: %s", body)
	}
	f.assertDegraded(t, v, "download-failed")

	// The link file vanishes: its path is in the error, not in the probe.
	if err := os.Remove(f.urlFile); err != nil {
		t.Fatal(err)
	}
	if err := f.srv.Update(context.Background()); err == nil || !strings.Contains(err.Error(), f.urlFile) {
		t.Fatalf("missing link file: %v", err)
	}
	_, _, body = f.fetch(t, "/healthz")
	if strings.Contains(body, filepath.Dir(f.urlFile)) {
		t.Fatalf("healthz shows a local path: %s", body)
	}
	f.assertDegraded(t, v, "link-unreadable")

	var p *problem
	if !errors.As(f.srv.Healthy(), &p) {
		t.Fatal("the failure has no reason")
	}
}
