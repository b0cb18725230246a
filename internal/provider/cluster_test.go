package provider

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/kubetest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// The rollout tests share one kube-apiserver: starting one costs seconds,
// and each test works in a namespace of its own (testNamespace), so they
// cannot see each other's releases. The cluster starts with the first test
// that asks for it and stops in TestMain, after the last test.
var shared struct {
	once    sync.Once
	cluster *kubetest.Cluster
	err     error
	env     packageEnv
}

// sharedCluster is the package's cluster, started on first use. Like
// kubetest.Start, it skips the test when the binaries are missing and
// kubetest.EnvSkip is "1", and fails it otherwise.
func sharedCluster(t *testing.T) *kubetest.Cluster {
	t.Helper()
	testutil.SkipShort(t, testutil.NeedsKube)
	shared.once.Do(func() {
		shared.cluster, shared.err = kubetest.StartEnv(&shared.env)
	})
	if errors.Is(shared.err, kubetest.ErrNotBuilt) && os.Getenv(kubetest.EnvSkip) == "1" {
		t.Skipf("kubetest: %v (%s=1)", shared.err, kubetest.EnvSkip)
	}
	if shared.err != nil {
		t.Fatalf("kubetest: shared cluster: %v", shared.err)
	}
	return shared.cluster
}

// stopSharedCluster runs the cluster's cleanups, latest first, as a test's
// would run; TestMain calls it once the tests are done.
func stopSharedCluster() {
	shared.env.mu.Lock()
	defer shared.env.mu.Unlock()
	for i := len(shared.env.cleanups) - 1; i >= 0; i-- {
		shared.env.cleanups[i]()
	}
	shared.env.cleanups = nil
	for _, d := range shared.env.dirs {
		_ = os.RemoveAll(d) // best effort, as testing's TempDir cleanup
	}
}

// packageEnv is the kubetest.Env of the shared cluster: it outlives every
// test, so it cannot be a testing.T.
type packageEnv struct {
	mu       sync.Mutex
	cleanups []func()
	dirs     []string
}

func (e *packageEnv) TempDir() string {
	d, err := os.MkdirTemp("", "provider-kubetest-")
	if err != nil {
		// kubetest.Env has no error return; a missing scratch directory
		// makes the cluster fail to start, which sharedCluster reports.
		fmt.Fprintln(os.Stderr, "provider tests: shared cluster:", err)
		return os.TempDir()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.dirs = append(e.dirs, d)
	return d
}

func (e *packageEnv) Cleanup(f func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.cleanups = append(e.cleanups, f)
}

func (e *packageEnv) Logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
}

var notDNSLabel = regexp.MustCompile(`[^a-z0-9]+`)

// testNamespace names t's namespace on the shared cluster: a DNS label made
// from the test's name, unique in the package.
func testNamespace(t *testing.T) string {
	ns := strings.Trim(notDNSLabel.ReplaceAllString(strings.ToLower(t.Name()), "-"), "-")
	ns = strings.TrimPrefix(ns, "test")
	if len(ns) > 63 {
		t.Fatalf("test name %q makes a namespace longer than 63 characters", t.Name())
	}
	return strings.Trim(ns, "-")
}
