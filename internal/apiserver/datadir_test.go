package apiserver

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// A data dir every user may write to is tightened at start (other users
// lose write; the group keeps what it had), and the log says so.
func TestNew_tightensWorldWritableDataDir(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no permission bits")
	}
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil { //nolint:gosec // the unsafe mode is what is tested
		t.Fatal(err)
	}
	log := &testutil.SyncBuffer{}
	cfg, err := apiconfig.ParseConfig([]byte("organizations:\n  - id: acme\n    plan: enterprise\n    apiKeys: [dak_0123456789abcdef0123]\n"), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(t.Context(), Options{Config: cfg, DataDir: dir, PublicURL: "http://127.0.0.1:1",
		Logger: hclog.New(&hclog.LoggerOptions{Output: log})})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm != 0o775 {
		t.Fatalf("data dir mode %04o after start, want 0775", perm)
	}
	if !strings.Contains(log.String(), "writable by every user; tightened it") || !strings.Contains(log.String(), "mode_was=0777") {
		t.Fatalf("the log does not say the data dir was tightened:\n%s", log.String())
	}
}

// One this user cannot change (another user's) is refused with the reason
// and the fix.
func TestTightenDataDir_refusesWhatItCannotChange(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no permission bits")
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o777); err != nil { //nolint:gosec // the unsafe mode is what is tested
		t.Fatal(err)
	}
	old := chmod
	chmod = func(string, fs.FileMode) error { return fs.ErrPermission }
	t.Cleanup(func() { chmod = old })
	err := tightenDataDir(dir, hclog.NewNullLogger())
	if err == nil || !strings.Contains(err.Error(), "writable by every user (mode 0777)") || !strings.Contains(err.Error(), "chmod o-w") {
		t.Fatalf("another user's world-writable dir: %v", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil { //nolint:gosec // a directory: 0700 is private
		t.Fatal(err)
	}
	if err := tightenDataDir(dir, hclog.NewNullLogger()); err != nil {
		t.Fatalf("a dir others cannot write to: %v", err)
	}
}
