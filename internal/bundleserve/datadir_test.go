package bundleserve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/cli"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// The default data dir is per user, never a fixed path under /tmp that
// another local user could create first.
func TestDefaultDataDir_perUser(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/state/u1")
	if d, err := DefaultDataDir(); err != nil || d != "/state/u1/docsadmin/serve-bundle" {
		t.Fatalf("with XDG_STATE_HOME: %q %v", d, err)
	}
	t.Setenv("XDG_STATE_HOME", "relative") // the spec says: ignore it
	t.Setenv("HOME", "/home/u1")
	if d, err := DefaultDataDir(); err != nil || d != "/home/u1/.local/state/docsadmin/serve-bundle" {
		t.Fatalf("with HOME only: %q %v", d, err)
	}
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("HOME", "")
	if d, err := DefaultDataDir(); err == nil || !strings.Contains(err.Error(), "--data-dir") {
		t.Fatalf("with neither: %q %v; want an error asking for --data-dir", d, err)
	}
	if strings.HasPrefix(mustDefault(t, "/home/u2"), os.TempDir()) {
		t.Fatal("the default is under the shared temporary directory")
	}
}

func mustDefault(t *testing.T, home string) string {
	t.Helper()
	t.Setenv("HOME", home)
	d, err := DefaultDataDir()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// A new data dir (and its missing parents) is created 0700.
func TestNew_createsPrivateDataDir(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no permission bits")
	}
	dir := filepath.Join(t.TempDir(), "state", "serve-bundle")
	if _, err := New(Options{URL: "http://127.0.0.1:1/b", DataDir: dir}); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{dir, filepath.Dir(dir)} {
		fi, err := os.Stat(d)
		if err != nil {
			t.Fatal(err)
		}
		if perm := fi.Mode().Perm(); perm != 0o700 {
			t.Errorf("%s: mode %04o, want 0700", d, perm)
		}
	}
}

// A directory group or others may write to, or another user's, is refused
// with an error that says why; it is not chmod-ed into shape.
func TestNew_refusesUnsafeDataDir(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no permission bits")
	}
	for _, mode := range []os.FileMode{0o777, 0o770, 0o702} {
		dir := filepath.Join(t.TempDir(), "data")
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, mode); err != nil {
			t.Fatal(err)
		}
		_, err := New(Options{URL: "http://127.0.0.1:1/b", DataDir: dir})
		var dde *DataDirError
		if !errors.As(err, &dde) || !strings.Contains(err.Error(), "group or others") {
			t.Errorf("mode %04o: %v; want the data dir refused", mode, err)
		}
		if fi, _ := os.Stat(dir); fi.Mode().Perm() != mode {
			t.Errorf("mode %04o was changed to %04o", mode, fi.Mode().Perm())
		}
	}
	// Owned by someone else: checked against another uid than ours, so
	// the test needs neither root nor a second account.
	dir := t.TempDir()
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := checkPrivate(fi, os.Getuid()+1); err == nil || !strings.Contains(err.Error(), "not by this user") {
		t.Fatalf("another user's directory: %v", err)
	}
	if err := checkPrivate(fi, os.Getuid()); err != nil {
		t.Fatalf("our own 0700 directory: %v", err)
	}
}

// serve-bundle exits 1 (not 2: the flags are fine) on a data dir others
// may write to, saying so on stderr, before it serves anything.
func TestCommand_refusesWorldWritableDataDir(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no permission bits")
	}
	dir := filepath.Join(t.TempDir(), "shared")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil { //nolint:gosec // the unsafe mode is what is tested
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // were it accepted, the server would stop at once
	var out, errs bytes.Buffer
	code := Command(ctx, []string{"--addr", "127.0.0.1:0", "--data-dir", dir, "--bundle-url", "http://127.0.0.1:1/b"}, &out, &errs)
	if code != cli.ExitFailed || !strings.Contains(errs.String(), "refusing the data dir") || !strings.Contains(errs.String(), "0777") {
		t.Fatalf("exit %d, stderr %q; want 1 naming the mode", code, errs.String())
	}
	if out.Len() != 0 {
		t.Fatalf("stdout %q: nothing should have started", out.String())
	}
}

// Another party swaps a served file for one of the same size and sets its
// modification time back: the next check of the files turns /healthz red
// and /readyz red (naming no path), the log says which file, and the next update fetches
// the bundle again, which heals it.
func TestServe_swappedFileTurnsHealthRed(t *testing.T) {
	f := newFixture(t)
	if err := f.srv.CheckFiles(); err != nil {
		t.Fatalf("untouched site: %v", err)
	}
	cur := f.srv.current.Load()
	page := filepath.Join(cur.dir, "index.html")
	fi, err := os.Stat(page)
	if err != nil {
		t.Fatal(err)
	}
	orig, _ := os.ReadFile(page)
	evil := bytes.Repeat([]byte("X"), len(orig))
	// Replaced as an attacker would: a new file renamed over the old one,
	// then the old modification time put back.
	tmp := page + ".evil"
	if err := os.WriteFile(tmp, evil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, page); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(page, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := f.srv.CheckFiles(); err == nil || !strings.Contains(err.Error(), "index.html") {
		t.Fatalf("check after the swap: %v", err)
	}
	code, _, body := f.fetch(t, "/healthz")
	var probe map[string]string
	_ = json.Unmarshal([]byte(body), &probe)
	if code != http.StatusServiceUnavailable || probe["reason"] != "files-changed" || strings.Contains(body, f.dataDir) {
		t.Fatalf("healthz after a served file was swapped: %d %s", code, body)
	}
	if code, _, _ := f.fetch(t, "/readyz"); code != http.StatusServiceUnavailable {
		t.Fatalf("readyz after a served file was swapped: %d; a changed site must leave the Service", code)
	}
	if err := f.srv.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := f.fetch(t, "/healthz"); code != http.StatusOK {
		t.Fatalf("healthz after the bundle was fetched again: %d", code)
	}
	if _, _, body := f.fetch(t, "/"); body != string(orig) {
		t.Fatalf("the swapped page is still served: %.80q", body)
	}
}

// A file added to the served site, or one rewritten in place, is noticed
// as well.
func TestCheckFiles_addedAndRewrittenFiles(t *testing.T) {
	for name, change := range map[string]func(t *testing.T, dir string){
		"added": func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, "phish.html"), []byte("<script>"), 0o644); err != nil {
				t.Fatal(err)
			}
		},
		"rewritten in place": func(t *testing.T, dir string) {
			p := filepath.Join(dir, "index.html")
			fi, _ := os.Stat(p)
			b, _ := os.ReadFile(p)
			if err := os.WriteFile(p, bytes.ToUpper(b), 0o644); err != nil {
				t.Fatal(err)
			}
			_ = os.Chtimes(p, fi.ModTime(), fi.ModTime())
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte("<html>hello</html>"), 0o644); err != nil {
				t.Fatal(err)
			}
			snap, err := takeSnapshot(dir)
			if err != nil {
				t.Fatal(err)
			}
			// The kernel stamps a change from a coarse clock (a few ms),
			// so a rewrite must land in a later tick than the snapshot to
			// be told apart, as any real one does: poll until a new file
			// elsewhere gets a later stamp than the snapshot's file.
			base, err := os.Stat(filepath.Join(dir, "index.html"))
			if err != nil {
				t.Fatal(err)
			}
			probe := filepath.Join(t.TempDir(), "probe")
			testutil.Eventually(t, 5*time.Second, "the file system's clock to tick", func() bool {
				if err := os.WriteFile(probe, nil, 0o600); err != nil {
					t.Fatal(err)
				}
				fi, err := os.Stat(probe)
				return err == nil && fi.ModTime().After(base.ModTime())
			})
			change(t, dir)
			if err := snap.check(dir); !errors.Is(err, errChanged) {
				t.Fatalf("check: %v", err)
			}
		})
	}
}
