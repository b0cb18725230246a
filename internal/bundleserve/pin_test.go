package bundleserve

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServe_pinnedVersion: with a pin, a bundle of another content version
// is refused; the old site keeps serving, /readyz stays green and /healthz
// answers 503 naming both versions. Moving the pin (the file is re-read,
// as the mounted Secret changes) lets the same link in without a restart.
func TestServe_pinnedVersion(t *testing.T) {
	f := newFixture(t)
	v1 := f.srv.Version()
	pinFile := filepath.Join(t.TempDir(), "version")
	f.srv.opts.PinVersionFile = pinFile
	writePin(t, pinFile, v1)
	if err := f.srv.Update(context.Background()); err != nil {
		t.Fatalf("pin equal to the served version: %v", err)
	}

	next := bundleOf(t, f.env, "index", "quickstart")
	if next.Version == v1 {
		t.Fatalf("the second export has the same version %s", v1)
	}
	f.setLink(t, next.BundleURL)
	err := f.srv.Update(context.Background())
	if err == nil || !strings.Contains(err.Error(), next.Version) || !strings.Contains(err.Error(), v1) {
		t.Fatalf("a bundle of another version: %v", err)
	}
	f.assertDegraded(t, v1, "version-refused")
	code, _, body := f.fetch(t, "/healthz")
	var probe map[string]string
	if err := json.Unmarshal([]byte(body), &probe); err != nil {
		t.Fatalf("healthz body is not JSON: %d %s", code, body)
	}
	if probe["version"] != v1 || probe["pinned"] != v1 || probe["offered"] != next.Version {
		t.Fatalf("healthz does not say why: %s", body)
	}
	// Nothing of the refused bundle stays on disk.
	if left, _ := filepath.Glob(filepath.Join(f.dataDir, ".unpack-*")); len(left) != 0 {
		t.Fatalf("refused bundle left behind: %v", left)
	}
	// Checked again with nothing changed: still refused, still red.
	if err := f.srv.Update(context.Background()); err == nil {
		t.Fatal("second check let the refused bundle in")
	}

	writePin(t, pinFile, next.Version)
	if err := f.srv.Update(context.Background()); err != nil {
		t.Fatalf("pin moved to the bundle's version: %v", err)
	}
	if code, got, _ := f.fetch(t, "/"); code != http.StatusOK || got != next.Version {
		t.Fatalf("after the pin moved: %d serving %q, want %q", code, got, next.Version)
	}
	if code, _, body := f.fetch(t, "/healthz"); code != http.StatusOK {
		t.Fatalf("healthz after the pin moved: %d %s", code, body)
	}

	// No pin file: nothing is pinned, any version goes.
	if err := os.Remove(pinFile); err != nil {
		t.Fatal(err)
	}
	f.setLink(t, bundleOf(t, f.env).BundleURL)
	if err := f.srv.Update(context.Background()); err != nil {
		t.Fatalf("unpinned: %v", err)
	}
	if f.srv.Version() != v1 {
		t.Fatalf("unpinned: serving %q, want %q", f.srv.Version(), v1)
	}
}

// TestServe_pinnedFirstFetch: a pin that the very first bundle does not
// match leaves nothing to serve, so /readyz is red as before any fetch.
func TestServe_pinnedFirstFetch(t *testing.T) {
	f := newFixture(t)
	srv, err := New(Options{URLFile: f.urlFile, DataDir: t.TempDir(), PinVersion: "not-this-one"})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Update(context.Background()); err == nil || !strings.Contains(err.Error(), "not-this-one") {
		t.Fatalf("first fetch against a pin: %v", err)
	}
	if srv.Version() != "" || srv.serving() == nil || srv.Healthy() == nil {
		t.Fatalf("serving %q after a refused first fetch", srv.Version())
	}
	if _, err := New(Options{URL: "http://127.0.0.1/x", DataDir: t.TempDir(), PinVersion: "a", PinVersionFile: "b"}); err == nil {
		t.Fatal("both pin options accepted")
	}
}

func writePin(t *testing.T, path, v string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(v+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}
