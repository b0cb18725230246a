// Package releasetest gives tests the release snapshot of the committed
// HEAD: the zips, SHA256SUMS, its signature, the registry manifest and the
// throwaway public key that scripts/release-snapshot.sh makes with the
// pinned goreleaser. The snapshot is built once per commit into a cache
// outside the repo and shared by every test process (a lock makes two
// processes build it once), so a warm run pays nothing for it.
//
// Tests build the package of linux on this machine's architecture only
// (DOCSADMIN_RELEASE_HOST_ONLY=1): the other platforms' zips come from the
// same configuration and would cost a cold CI run many minutes of
// cross-compiling each; make release-snapshot builds them all.
package releasetest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// Needs is what SkipShort says these tests need.
const Needs = "the release snapshot (goreleaser, make release-snapshot)"

// Release is one built snapshot.
type Release struct {
	Dir      string // the packages, as release-snapshot.sh leaves them
	Version  string // e.g. 0.0.1
	Commit   string // the commit it was built from
	Created  int64  // the commit's time, Unix seconds
	Root     string // the repository the tests run in
	Platform string // this machine's <os>_<arch>
}

var (
	once   sync.Once
	shared Release
	errB   error
)

// Snapshot returns the release of HEAD, building it on first use. It skips
// under -short.
func Snapshot(t testing.TB) Release {
	t.Helper()
	if testing.Short() {
		t.Skipf("needs %s: skipped under -short (make check); make test runs it", Needs)
	}
	once.Do(func() { shared, errB = build(t) })
	if errB != nil {
		t.Fatalf("release snapshot: %v", errB)
	}
	return shared
}

// Zip is the path of the package for platform (<os>_<arch>).
func (r Release) Zip(platform string) string {
	return filepath.Join(r.Dir, fmt.Sprintf("terraform-provider-docsadmin_%s_%s.zip", r.Version, platform))
}

// SBOM is the path of the CycloneDX SBOM of platform's binary
// (<os>_<arch>), which goreleaser's sboms section writes.
func (r Release) SBOM(platform string) string {
	return filepath.Join(r.Dir, fmt.Sprintf("terraform-provider-docsadmin_%s_%s.cdx.json", r.Version, platform))
}

// SumsFile is the path of SHA256SUMS; its detached signature is SumsFile()+".sig".
func (r Release) SumsFile() string {
	return filepath.Join(r.Dir, fmt.Sprintf("terraform-provider-docsadmin_%s_SHA256SUMS", r.Version))
}

// Sums reads SHA256SUMS into file name → hex digest.
func (r Release) Sums(t testing.TB) map[string]string {
	t.Helper()
	b, err := os.ReadFile(r.SumsFile())
	if err != nil {
		t.Fatal(err)
	}
	sums := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			t.Fatalf("SHA256SUMS line %q is not <digest> <file>", line)
		}
		sums[f[1]] = f[0]
	}
	return sums
}

var zipVersion = regexp.MustCompile(`^terraform-provider-docsadmin_(\d+\.\d+\.\d+)_SHA256SUMS$`)

func build(t testing.TB) (Release, error) {
	root, err := repoRoot()
	if err != nil {
		return Release{}, err
	}
	if _, err := exec.LookPath("gpg"); err != nil {
		if os.Getenv("CI") == "" {
			t.Skip("gpg is not installed (make gpg): the release cannot be signed")
		}
		return Release{}, fmt.Errorf("gpg is not installed (make gpg installs it): %w", err)
	}
	r := Release{Root: root, Platform: runtime.GOOS + "_" + runtime.GOARCH}
	r.Commit = strings.TrimSpace(git(root, "rev-parse", "HEAD"))
	if _, err := fmt.Sscan(git(root, "log", "-1", "--format=%ct", "HEAD"), &r.Created); err != nil {
		return Release{}, fmt.Errorf("commit time: %w", err)
	}
	if dirty := strings.TrimSpace(git(root, "status", "--porcelain", "--untracked-files=no")); dirty != "" {
		t.Logf("the release is built from the commit %s: uncommitted changes are not in it", r.Commit[:12])
	}
	cache := filepath.Join(cacheHome(), "docsadmin-release")
	if err := os.MkdirAll(cache, 0o700); err != nil {
		return Release{}, err
	}
	lock, err := os.OpenFile(filepath.Join(cache, ".lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return Release{}, err
	}
	defer lock.Close() //nolint:errcheck // a lock file, never written: Close cannot lose data
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return Release{}, err
	}
	r.Dir = filepath.Join(cache, r.Commit+"-host")
	if _, err := os.Stat(filepath.Join(r.Dir, ".complete")); err != nil {
		if err := snapshot(t, root, cache, r.Dir); err != nil {
			return Release{}, err
		}
	}
	entries, err := os.ReadDir(r.Dir)
	if err != nil {
		return Release{}, err
	}
	for _, e := range entries {
		if m := zipVersion.FindStringSubmatch(e.Name()); m != nil {
			r.Version = m[1]
		}
	}
	if r.Version == "" {
		return Release{}, fmt.Errorf("%s holds no SHA256SUMS", r.Dir)
	}
	return r, nil
}

// snapshot runs release-snapshot.sh into a scratch directory, moves it into
// place, and removes the snapshots of other commits (one is kept at a time).
func snapshot(t testing.TB, root, cache, dir string) error {
	gr := exec.Command(filepath.Join(root, "tools", "goreleaser", "build.sh")) //nolint:gosec // G204: the repository's own script
	gr.Stderr = os.Stderr
	out, err := gr.Output()
	if err != nil {
		return fmt.Errorf("tools/goreleaser/build.sh: %w", err)
	}
	// Under the lock no other build runs: scratch directories left by a
	// killed test are garbage.
	stale, _ := filepath.Glob(filepath.Join(cache, ".build.*"))
	for _, d := range stale {
		_ = os.RemoveAll(d)
	}
	tmp, err := os.MkdirTemp(cache, ".build.")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	cmd := exec.Command("bash", filepath.Join(root, "scripts", "release-snapshot.sh"), filepath.Join(tmp, "out")) //nolint:gosec // G204: the repository's own script
	cmd.Dir = root
	// The script dies with the test process (a test killed by -timeout);
	// a go build it started may run to its end, into a scratch directory
	// that the next snapshot removes.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	cmd.Env = append(os.Environ(), "GORELEASER="+strings.TrimSpace(string(out)), "DOCSADMIN_RELEASE_HOST_ONLY=1")
	t.Logf("building the release snapshot of HEAD into %s", dir)
	if log, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("release-snapshot.sh: %w\n%s", err, log)
	}
	if err := os.WriteFile(filepath.Join(tmp, "out", ".complete"), nil, 0o600); err != nil {
		return err
	}
	entries, _ := os.ReadDir(cache)
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			_ = os.RemoveAll(filepath.Join(cache, e.Name()))
		}
	}
	return os.Rename(filepath.Join(tmp, "out"), dir)
}

func git(dir string, args ...string) string {
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).Output() //nolint:gosec // G204: fixed git subcommands
	if err != nil {
		return ""
	}
	return string(out)
}

func cacheHome() string {
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return d
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".cache")
	}
	return os.TempDir()
}

// repoRoot is the directory holding go.mod above the test's directory.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the test's directory")
		}
		dir = parent
	}
}
