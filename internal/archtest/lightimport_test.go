package archtest

import (
	"bufio"
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// heavyModules are the module path prefixes of the server's shared storage
// (PostgreSQL, S3) and of the rollout (Kubernetes, Helm): what a suite
// that imports docsadmintest must not find in its module graph.
var heavyModules = []string{"github.com/jackc/", "github.com/aws/", "k8s.io/", "sigs.k8s.io/", "helm.sh/"}

// TestLightImport_docsadmintest: the Go test double other teams import
// pulls none of heavyModules, while the binary's command, which wires
// them in, does (so the check sees them where they are).
func TestLightImport_docsadmintest(t *testing.T) {
	root := filepath.Join("..", "..")
	for _, tc := range []struct {
		pkg   string
		heavy bool
	}{
		{"./docsadmintest", false},
		{"./internal/apiserver", false},
		{"./internal/apiservercmd", true},
	} {
		got := heavyDeps(t, root, tc.pkg)
		switch {
		case tc.heavy && len(got) == 0:
			t.Errorf("%s imports none of %v: the check no longer sees them", tc.pkg, heavyModules)
		case !tc.heavy && len(got) > 0:
			t.Errorf("%s imports, through `go list -deps`, modules a user of the test double would carry: %s",
				tc.pkg, strings.Join(got, ", "))
		}
	}
}

// heavyDeps lists the modules of heavyModules that pkg imports, directly
// or not.
func heavyDeps(t *testing.T, root, pkg string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "list", "-deps", "-f", "{{with .Module}}{{.Path}}{{end}}", pkg)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v\n%s", pkg, err, stderr.Bytes())
	}
	var found []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		mod := sc.Text()
		for _, h := range heavyModules {
			if strings.HasPrefix(mod, h) && !slices.Contains(found, mod) {
				found = append(found, mod)
			}
		}
	}
	return found
}
