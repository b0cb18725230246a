// Package kubetest starts a real Kubernetes API server (etcd plus
// kube-apiserver, no controllers and no kubelet) on 127.0.0.1 for tests.
//
// The binaries come from tools/kube/build.sh, which compiles them from Go
// modules because the CI machines have no Docker. Nothing ever schedules or
// runs a pod in this cluster: Deployments are stored but never become ready,
// so tests against it must not wait for readiness (no helm --wait).
package kubetest

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/cli"
)

// Environment variables that steer Start.
const (
	// EnvBin names a directory holding kube-apiserver and etcd; it overrides
	// the build cache that tools/kube/build.sh fills.
	EnvBin = cli.EnvKubeBin
	// EnvCache overrides the cache root, exactly as in tools/kube/build.sh.
	EnvCache = cli.EnvKubeCache
	// EnvSkip, set to "1", turns missing binaries into a skip instead of a
	// failure. It exists for quick local runs; CI never sets it, so the
	// integration tier cannot silently vanish there.
	EnvSkip = cli.EnvSkipKube
)

// Cluster is a running test API server.
type Cluster struct {
	// Kubeconfig is the path of a kubeconfig file for the cluster.
	Kubeconfig string
	// Context is the kubeconfig context to use.
	Context string
	// Server is the https URL of kube-apiserver.
	Server string
	// Token is a bearer token of a system:masters user.
	Token string
	// CAData is the PEM CA bundle that signed the serving certificate.
	CAData []byte
	// Version is the Kubernetes version the binaries were built as.
	Version string
}

// Env is what starting a cluster needs from its caller: a scratch
// directory removed afterwards, a place to register cleanups (run in
// reverse order) and a log. testing.TB satisfies it; so does a command
// that runs a cluster for a demo.
type Env interface {
	TempDir() string
	Cleanup(func())
	Logf(format string, args ...any)
}

// Start starts etcd and kube-apiserver in a temporary directory, waits until
// the API server reports ready and registers a cleanup that stops both and
// removes their data. It fails the test (or skips it when EnvSkip is "1")
// if the binaries have not been built.
func Start(t testing.TB) *Cluster {
	t.Helper()
	c, err := StartEnv(t)
	if errors.Is(err, ErrNotBuilt) {
		if os.Getenv(EnvSkip) == "1" {
			t.Skipf("kubetest: %v (%s=1)", err, EnvSkip)
		}
		t.Fatalf("kubetest: %v; run tools/kube/build.sh (make test runs it) "+
			"or set %s to a directory holding kube-apiserver and etcd", err, EnvBin)
	}
	if err != nil {
		t.Fatalf("kubetest: %v", err)
	}
	return c
}

// ErrNotBuilt is wrapped by StartEnv's error when the binaries are missing.
var ErrNotBuilt = errors.New("the test Kubernetes binaries are not built")

// StartEnv is Start for callers that are not tests.
func StartEnv(e Env) (*Cluster, error) {
	bin, version, err := binDir()
	if err == nil {
		err = haveBinaries(bin)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotBuilt, err)
	}
	c, err := start(e, bin)
	if err != nil {
		return nil, err
	}
	c.Version = version
	return c, nil
}

func haveBinaries(bin string) error {
	for _, name := range []string{"kube-apiserver", "etcd"} {
		fi, err := os.Stat(filepath.Join(bin, name))
		if err != nil {
			return fmt.Errorf("%s not found in %s", name, bin)
		}
		if fi.Mode()&0o111 == 0 {
			return fmt.Errorf("%s in %s is not executable", name, bin)
		}
	}
	return nil
}

// binDir returns the directory holding the binaries and the Kubernetes
// version they claim. The default mirrors tools/kube/build.sh, which keys
// its cache by the versions in tools/kube/build/go.mod; reading that file
// keeps the two from ever disagreeing after a version bump.
func binDir() (dir, version string, err error) {
	buildMod, err := findBuildModule()
	if err != nil {
		if d := os.Getenv(EnvBin); d != "" {
			return d, "", nil
		}
		return "", "", err
	}
	kube, etcd, err := readVersions(buildMod)
	if err != nil {
		return "", "", err
	}
	if d := os.Getenv(EnvBin); d != "" {
		return d, kube, nil
	}
	cache := os.Getenv(EnvCache)
	if cache == "" {
		base := os.Getenv("XDG_CACHE_HOME")
		if base == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				return "", "", fmt.Errorf("find the build cache: %w", err)
			}
			base = filepath.Join(home, ".cache")
		}
		cache = filepath.Join(base, "docsadmin-kube")
	}
	key := kube + "-etcd" + strings.TrimPrefix(etcd, "v")
	return filepath.Join(cache, key, "bin"), kube, nil
}

// findBuildModule walks up from the working directory, which go test sets
// to the package directory, to the repository's tools/kube/build/go.mod.
func findBuildModule() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("find tools/kube/build: %w", err)
	}
	for {
		p := filepath.Join(dir, "tools", "kube", "build", "go.mod")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("tools/kube/build/go.mod not found above the working directory")
		}
		dir = parent
	}
}

// readVersions reads the required versions of k8s.io/kubernetes and etcd's
// server module. A tiny line scanner is enough for the file build.sh also
// reads with awk, and avoids a golang.org/x/mod dependency for one lookup.
func readVersions(goMod string) (kube, etcd string, err error) {
	f, err := os.Open(goMod)
	if err != nil {
		return "", "", fmt.Errorf("read versions: %w", err)
	}
	defer f.Close() //nolint:errcheck // opened read-only: Close cannot lose data
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 || !strings.HasPrefix(fields[1], "v") {
			continue
		}
		switch fields[0] {
		case "k8s.io/kubernetes":
			kube = fields[1]
		case "go.etcd.io/etcd/server/v3":
			etcd = fields[1]
		}
	}
	if err := sc.Err(); err != nil {
		return "", "", fmt.Errorf("read %s: %w", goMod, err)
	}
	if kube == "" || etcd == "" {
		return "", "", fmt.Errorf("%s does not require k8s.io/kubernetes and go.etcd.io/etcd/server/v3", goMod)
	}
	return kube, etcd, nil
}
