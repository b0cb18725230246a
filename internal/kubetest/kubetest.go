// Package kubetest starts a real Kubernetes control plane on 127.0.0.1 for
// tests, in two shapes:
//
//   - Start(t): etcd and kube-apiserver only. Objects are stored but no pod
//     is ever scheduled or run, so a Deployment never becomes ready. That is
//     the honest cluster for testing waits that never end.
//   - Start(t, WithNodes()): also kube-controller-manager, kube-scheduler
//     and kwok, which plays one Ready node and runs its pods to Ready at
//     once. Deployments roll out (helm --wait finishes) in about a second.
//
// WithRBAC turns authorization from AlwaysAllow to Node,RBAC; the test's own
// kubeconfig stays system:masters, and Cluster.ServiceAccountKubeconfig
// acts as a ServiceAccount instead.
//
// The binaries come from tools/kube/build.sh, which compiles them from Go
// modules because the CI machines have no Docker.
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
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// Environment variables that steer Start.
const (
	// EnvBin names a directory holding what tools/kube/build.sh builds; it
	// overrides the build cache that the script fills.
	EnvBin = cli.EnvKubeBin
	// EnvCache overrides the cache root, exactly as in tools/kube/build.sh.
	EnvCache = cli.EnvKubeCache
	// EnvSkip, set to "1", turns missing binaries into a skip instead of a
	// failure. It exists for quick local runs; CI never sets it, so the
	// integration tier cannot silently vanish there.
	EnvSkip = cli.EnvSkipKube
)

// Cluster is a running test cluster.
type Cluster struct {
	// Kubeconfig is the path of a kubeconfig file for the cluster, acting as
	// a member of system:masters.
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
	// Node is the name of the Ready node kwok plays; empty unless the
	// cluster was started WithNodes.
	Node string

	dir string // scratch directory removed by the Env after the test, or the WithStateDir one
	pki *pki   // signs client certificates
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

// Option changes what Start starts.
type Option func(*options)

type options struct {
	nodes bool
	rbac  bool

	stateDir string // see WithStateDir
}

// WithNodes also starts kube-controller-manager, kube-scheduler and kwok,
// registers one kwok node and waits until it is Ready, so pods get
// scheduled and turn Ready and Deployments roll out. The ServiceAccount
// admission plugin is on, as in a real cluster: a pod naming a missing
// ServiceAccount is rejected (every namespace gets its "default" one from
// the controller manager).
func WithNodes() Option { return func(o *options) { o.nodes = true } }

// WithRBAC runs kube-apiserver with --authorization-mode=Node,RBAC instead
// of AlwaysAllow. Cluster.Kubeconfig stays system:masters, so only clients
// built from Cluster.ServiceAccountKubeconfig are held to their roles.
func WithRBAC() Option { return func(o *options) { o.rbac = true } }

// Start starts a cluster in a temporary directory, waits until it is ready
// and registers a cleanup that stops every process and removes the data.
// It fails the test (or skips it when EnvSkip is "1") if the binaries have
// not been built.
func Start(t testing.TB, opts ...Option) *Cluster {
	t.Helper()
	testutil.SkipShort(t, testutil.NeedsKube)
	c, err := StartEnv(t, opts...)
	if errors.Is(err, ErrNotBuilt) {
		if os.Getenv(EnvSkip) == "1" {
			t.Skipf("kubetest: %v (%s=1)", err, EnvSkip)
		}
		t.Fatalf("kubetest: %v; run tools/kube/build.sh (make test runs it) "+
			"or set %s to a directory holding its output", err, EnvBin)
	}
	if err != nil {
		t.Fatalf("kubetest: %v", err)
	}
	return c
}

// ErrNotBuilt is wrapped by StartEnv's error when the binaries are missing.
var ErrNotBuilt = errors.New("the test Kubernetes binaries are not built")

// StartEnv is Start for callers that are not tests.
func StartEnv(e Env, opts ...Option) (*Cluster, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	bin, version, err := binDir()
	if err == nil {
		err = haveFiles(bin, o.files())
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotBuilt, err)
	}
	c, err := start(e, bin, o)
	if err != nil {
		return nil, err
	}
	c.Version = version
	return c, nil
}

// files lists what tools/kube/build.sh must have built for these options.
func (o options) files() []string {
	files := []string{"kube-apiserver", "etcd"}
	if o.nodes {
		files = append(files, "kube-controller-manager", "kube-scheduler", "kwok", stagesFile)
	}
	return files
}

// stagesFile is kwok's stage configuration, concatenated by build.sh from
// the stage files in kwok's module.
const stagesFile = "kwok-stages.yaml"

func haveFiles(bin string, names []string) error {
	for _, name := range names {
		fi, err := os.Stat(filepath.Join(bin, name))
		if err != nil {
			return fmt.Errorf("%s not found in %s", name, bin)
		}
		if filepath.Ext(name) == "" && fi.Mode()&0o111 == 0 {
			return fmt.Errorf("%s in %s is not executable", name, bin)
		}
	}
	return nil
}

// versions are the pinned versions that key the build cache.
type versions struct {
	kube, etcd, kwok string
}

// cacheKey names the directory build.sh builds into; it must change
// whenever any pinned version does, so that a bump rebuilds.
func (v versions) cacheKey() string {
	return v.kube + "-etcd" + strings.TrimPrefix(v.etcd, "v") + "-kwok" + strings.TrimPrefix(v.kwok, "v")
}

// binDir returns the directory holding the binaries and the Kubernetes
// version they claim. The default mirrors tools/kube/build.sh, which keys
// its cache by the versions in tools/kube/build/go.mod and
// tools/kube/kwok/go.mod; reading those files keeps the two from ever
// disagreeing after a version bump.
func binDir() (dir, version string, err error) {
	tools, err := findKubeTools()
	if err != nil {
		if d := os.Getenv(EnvBin); d != "" {
			return d, "", nil
		}
		return "", "", err
	}
	v, err := readVersions(tools)
	if err != nil {
		return "", "", err
	}
	if d := os.Getenv(EnvBin); d != "" {
		return d, v.kube, nil
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
	return filepath.Join(cache, v.cacheKey(), "bin"), v.kube, nil
}

// findKubeTools walks up from the working directory, which go test sets to
// the package directory, to the repository's tools/kube.
func findKubeTools() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("find tools/kube: %w", err)
	}
	for {
		p := filepath.Join(dir, "tools", "kube")
		if _, err := os.Stat(filepath.Join(p, "build", "go.mod")); err == nil {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("tools/kube/build/go.mod not found above the working directory")
		}
		dir = parent
	}
}

// readVersions reads the pinned versions from the two build modules under
// tools (tools/kube).
func readVersions(tools string) (versions, error) {
	var v versions
	buildMod := filepath.Join(tools, "build", "go.mod")
	found, err := requires(buildMod, "k8s.io/kubernetes", "go.etcd.io/etcd/server/v3")
	if err != nil {
		return v, err
	}
	v.kube, v.etcd = found[0], found[1]
	found, err = requires(filepath.Join(tools, "kwok", "go.mod"), "sigs.k8s.io/kwok")
	if err != nil {
		return v, err
	}
	v.kwok = found[0]
	return v, nil
}

// requires returns the required versions of modules in a go.mod file. A
// tiny line scanner is enough for the files build.sh also reads with awk,
// and avoids a golang.org/x/mod dependency for one lookup.
func requires(goMod string, modules ...string) ([]string, error) {
	f, err := os.Open(goMod)
	if err != nil {
		return nil, fmt.Errorf("read versions: %w", err)
	}
	defer f.Close() //nolint:errcheck // opened read-only: Close cannot lose data
	found := make([]string, len(modules))
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 || !strings.HasPrefix(fields[1], "v") {
			continue
		}
		for i, m := range modules {
			if fields[0] == m && found[i] == "" {
				found[i] = fields[1]
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", goMod, err)
	}
	for i, m := range modules {
		if found[i] == "" {
			return nil, fmt.Errorf("%s does not require %s", goMod, m)
		}
	}
	return found, nil
}
