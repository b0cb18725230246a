package provider

import (
	"fmt"
	"os"
	"testing"
)

// TestMain clears the provider's settings from the environment once for
// the whole package, so that no test picks them up from the developer's
// shell. It is done here rather than with t.Setenv in each test because
// t.Setenv forbids t.Parallel, and the acceptance tests, each with its
// own reference server, run in parallel. Tests that do set variables
// (t.Setenv) stay serial; Go runs every serial top-level test, and
// restores what it set, before it releases the parallel ones.
func TestMain(m *testing.M) {
	for _, v := range []string{EnvBaseURL, EnvAPIKey, EnvProjectID} {
		if err := os.Unsetenv(v); err != nil {
			fmt.Fprintln(os.Stderr, "provider tests:", err)
			os.Exit(1)
		}
	}
	if err := os.Setenv("CHECKPOINT_DISABLE", "1"); err != nil {
		fmt.Fprintln(os.Stderr, "provider tests:", err)
		os.Exit(1)
	}
	// Client-go's discovery cache stays out of the developer's home. Its
	// entries are keyed by server address, so the tests' clusters, each on
	// its own port, may share the directory.
	cache, err := os.MkdirTemp("", "provider-kubecache-")
	if err == nil {
		err = os.Setenv("KUBECACHEDIR", cache)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "provider tests:", err)
		os.Exit(1)
	}
	code := m.Run()
	stopSharedCluster()
	_ = os.RemoveAll(cache) // best effort: a leftover temp dir harms nothing
	os.Exit(code)
}
