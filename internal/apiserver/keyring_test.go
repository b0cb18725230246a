package apiserver_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiservercmd"
)

// rotate runs `apiserver rotate-signing-key` on dir and returns its output.
func rotate(t *testing.T, dir string, extra ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	args := append([]string{"rotate-signing-key", "--data-dir", dir}, extra...)
	if code := apiservercmd.Command(t.Context(), args, &out, &errb); code != 0 {
		t.Fatalf("rotate-signing-key exit %d: %s", code, errb.String())
	}
	return out.String()
}

func TestSigningKey_rotation(t *testing.T) {
	env := apiservertest.Start(t, apiservertest.WithBundleTTL(time.Hour))
	job := completedExport(t, env)
	before := env.Bundle(t, job)
	u, _ := url.Parse(before.BundleURL)
	oldKID := u.Query().Get("kid")
	if oldKID == "" {
		t.Fatalf("link carries no key id: %s", before.BundleURL)
	}

	var out string
	env.Restart(t, func() { out = rotate(t, env.DataDir) })
	if !strings.Contains(out, oldKID) {
		t.Fatalf("rotation output does not name the retired key %s: %q", oldKID, out)
	}
	after := env.Bundle(t, job)
	u2, _ := url.Parse(after.BundleURL)
	if kid := u2.Query().Get("kid"); kid == "" || kid == oldKID {
		t.Fatalf("new link signed with key %q, want a new key (old %q)", kid, oldKID)
	}
	// Both links work: rotation must not break the links already handed out.
	download(t, before.BundleURL, before.SizeBytes)
	download(t, after.BundleURL, after.SizeBytes)
	// A link cannot claim another key of the ring.
	q := u.Query()
	q.Set("kid", u2.Query().Get("kid"))
	u.RawQuery = q.Encode()
	if r := call(t, "GET", u.String(), "", nil); r.status != http.StatusForbidden {
		t.Fatalf("link with a swapped key id: %d", r.status)
	}

	// Once every link of the retired key has expired, a restart drops it.
	env.Clock.Advance(61 * time.Minute)
	env.Restart(t, nil)
	raw, err := os.ReadFile(filepath.Join(env.DataDir, "signing-keys.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), oldKID) {
		t.Fatalf("retired key %s still in the ring after its links expired", oldKID)
	}
}

func TestSigningKey_dropAfterLeak(t *testing.T) {
	env := apiservertest.Start(t)
	job := completedExport(t, env)
	leaked := env.Bundle(t, job)
	env.Restart(t, func() { rotate(t, env.DataDir, "--drop-previous") })
	if r := call(t, "GET", leaked.BundleURL, "", nil); r.status != http.StatusForbidden {
		t.Fatalf("link signed with a dropped key: %d %s", r.status, r.body)
	}
	fresh := env.Bundle(t, job)
	download(t, fresh.BundleURL, fresh.SizeBytes)
}

func TestSigningKey_rotateRefusedWhileServing(t *testing.T) {
	env := apiservertest.Start(t)
	var out, errb bytes.Buffer
	code := apiservercmd.Command(t.Context(), []string{"rotate-signing-key", "--data-dir", env.DataDir}, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "stop the server") {
		t.Fatalf("rotation under a running server: exit %d, %q", code, errb.String())
	}
	if code := apiservercmd.Command(t.Context(), []string{"rotate-signing-key", "extra"}, &out, &errb); code != 2 {
		t.Fatalf("stray argument: exit %d, want 2", code)
	}
}

// A data dir written by a server that predates key ids holds signing.key;
// links it issued carry no kid and must keep working after the upgrade.
func TestSigningKey_legacyLinksKeepWorking(t *testing.T) {
	env := apiservertest.Start(t)
	job := completedExport(t, env)
	b := env.Bundle(t, job)
	legacy := bytes.Repeat([]byte{7}, 32)
	env.Restart(t, func() {
		if err := os.Remove(filepath.Join(env.DataDir, "signing-keys.json")); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(env.DataDir, "signing.key"), legacy, 0o600); err != nil {
			t.Fatal(err)
		}
	})
	u, _ := url.Parse(b.BundleURL)
	exp := u.Query().Get("expires")
	m := hmac.New(sha256.New, legacy)
	fmt.Fprintf(m, "GET\n%s\n%s\n%s", job, "bundle.tar.gz", exp)
	u.RawQuery = url.Values{"expires": {exp}, "signature": {hex.EncodeToString(m.Sum(nil))}}.Encode()
	download(t, u.String(), b.SizeBytes)
	if _, err := os.Stat(filepath.Join(env.DataDir, "signing.key")); !os.IsNotExist(err) {
		t.Fatalf("legacy key file left behind after migration: %v", err)
	}
}

// Two servers started together on an empty data dir: the one that loses
// the lock must not have written a key of its own.
func TestSigningKey_createdAfterLock(t *testing.T) {
	dir := t.TempDir()
	db, err := bolt.Open(filepath.Join(dir, "state.db"), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, err = apiserver.New(t.Context(), apiserver.Options{Config: apiserver.DemoConfig("dak_0123456789abcdef0123"), DataDir: dir, PublicURL: "http://127.0.0.1:1"})
	if err == nil || !strings.Contains(err.Error(), "in use") {
		t.Fatalf("second server: %v", err)
	}
	for _, f := range []string{"signing.key", "signing-keys.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); !os.IsNotExist(err) {
			t.Fatalf("%s written without holding the data-dir lock", f)
		}
	}
}
