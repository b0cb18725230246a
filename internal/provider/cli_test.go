package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
)

// The acceptance tests run on whichever CLI terraform-plugin-testing picks:
// TF_ACC_TERRAFORM_PATH, else terraform on PATH. That may be Terraform or
// OpenTofu, and their version numbers say different things (OpenTofu 1.14
// will not have Terraform 1.14's actions), so a feature is gated on the
// tool's name and version together.

// cliFeature is a CLI feature some tests need, with the first version of
// each tool that has it; "" means the tool does not have it.
type cliFeature struct {
	name            string
	terraform, tofu string
}

var (
	featureIdentity = cliFeature{"import by resource identity", "1.12.0", "1.12.0"}
	featureActions  = cliFeature{"actions", "1.14.0", ""}
	featureQuery    = cliFeature{"list resources (terraform query)", "1.14.0", ""}
)

// tfCLI is the tool the tests drive.
type tfCLI struct {
	path    string
	tofu    bool // OpenTofu rather than Terraform
	version *version.Version
}

func (c tfCLI) String() string {
	name := "Terraform"
	if c.tofu {
		name = "OpenTofu"
	}
	return name + " " + c.version.String()
}

// has reports whether the CLI has feature f.
func (c tfCLI) has(f cliFeature) bool {
	want := f.terraform
	if c.tofu {
		want = f.tofu
	}
	return want != "" && c.version.Core().GreaterThanOrEqual(version.Must(version.NewVersion(want)))
}

var (
	cliOnce   sync.Once
	cliFound  tfCLI
	cliErr    error
	cliBanner = regexp.MustCompile(`^(Terraform|OpenTofu) v(\S+)`)
)

// testCLI finds the CLI the way terraform-plugin-testing does and asks it
// for its name and version, once per test binary.
func testCLI(t testing.TB) tfCLI {
	t.Helper()
	cliOnce.Do(func() {
		p := os.Getenv("TF_ACC_TERRAFORM_PATH")
		if p == "" {
			if p, cliErr = exec.LookPath("terraform"); cliErr != nil {
				return
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		out, err := exec.CommandContext(ctx, p, "version").Output()
		if err != nil {
			cliErr = fmt.Errorf("%s version: %w", p, err)
			return
		}
		m := cliBanner.FindStringSubmatch(string(out))
		if m == nil {
			cliErr = fmt.Errorf("%s version printed %q, neither Terraform nor OpenTofu", p, out)
			return
		}
		v, err := version.NewVersion(m[2])
		if err != nil {
			cliErr = fmt.Errorf("%s version: %w", p, err)
			return
		}
		cliFound = tfCLI{path: p, tofu: m[1] == "OpenTofu", version: v}
	})
	if cliErr != nil {
		t.Fatal(cliErr)
	}
	return cliFound
}

// requireCLI skips t unless the CLI has feature f. The tests of Terraform
// 1.14's features run on the CLI tools/tfcli/build.sh builds (`make
// testacc-cli`); on the machine's older terraform they skip and say why.
func requireCLI(t *testing.T, f cliFeature) tfCLI {
	t.Helper()
	c := testCLI(t)
	if !c.has(f) {
		t.Skipf("%s has no %s; run with TF_ACC_TERRAFORM_PATH=$(tools/tfcli/build.sh terraform) (make testacc-cli)", c, f.name)
	}
	return c
}

// lacksCLI skips t when the CLI has feature f: for tests of what a user of
// an older CLI sees.
func lacksCLI(t *testing.T, f cliFeature) tfCLI {
	t.Helper()
	c := testCLI(t)
	if c.has(f) {
		t.Skipf("%s has %s; this test is about CLIs without it", c, f.name)
	}
	return c
}

// runCLI runs the CLI in dir against this provider served in-process, for
// what terraform-plugin-testing cannot drive, such as `apply -invoke`. It
// returns the combined output and the error of the run.
func (e *accEnv) runCLI(t *testing.T, c tfCLI, dir string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	reattach := e.serveProvider(ctx, t)
	cmd := exec.CommandContext(ctx, c.path, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TF_REATTACH_PROVIDERS="+reattach, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// serveProvider serves the provider over go-plugin's debug mode until ctx
// ends, and returns the TF_REATTACH_PROVIDERS value that points the CLI
// at it, under the address the CLI gives an unqualified "docsadmin".
func (e *accEnv) serveProvider(ctx context.Context, t *testing.T) string {
	t.Helper()
	srv, err := e.factories["docsadmin"]()
	if err != nil {
		t.Fatal(err)
	}
	cfgCh := make(chan *goplugin.ReattachConfig, 1)
	closed := make(chan struct{})
	serveErr := make(chan error, 1)
	go func() {
		serveErr <- tf6server.Serve("registry.terraform.io/hashicorp/docsadmin",
			func() tfprotov6.ProviderServer { return srv },
			tf6server.WithDebug(ctx, cfgCh, closed), tf6server.WithoutLogStderrOverride(),
			// The SDK's logs go where terraform-plugin-testing sends them
			// (TF_ACC_LOG_PATH, TF_LOG), not to the test's stderr.
			tf6server.WithLoggingSink(t),
			// go-plugin reports its listener closing at the end as an error.
			tf6server.WithGoPluginLogger(hclog.NewNullLogger()))
	}()
	var rc *goplugin.ReattachConfig
	select {
	case rc = <-cfgCh:
	case err := <-serveErr:
		t.Fatalf("serving the provider: %v", err)
	case <-time.After(time.Minute):
		t.Fatal("the provider did not start serving within a minute")
	}
	t.Cleanup(func() {
		<-closed // Serve returns once ctx ends; wait so no goroutine outlives the test
	})
	host := "registry.terraform.io"
	if testCLI(t).tofu {
		host = "registry.opentofu.org"
	}
	type addr struct{ Network, String string }
	b, err := json.Marshal(map[string]any{host + "/hashicorp/docsadmin": map[string]any{
		"Protocol": string(rc.Protocol), "ProtocolVersion": rc.ProtocolVersion, "Pid": rc.Pid, "Test": true,
		"Addr": addr{rc.Addr.Network(), rc.Addr.String()}}})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// writeConfig writes the HCL of a root module into a fresh directory.
func writeConfig(t *testing.T, hcl string) string {
	t.Helper()
	dir := t.TempDir()
	if err := writeFile(dir, hcl); err != nil {
		t.Fatal(err)
	}
	return dir
}

// writeFile replaces the root module in dir with hcl.
func writeFile(dir, hcl string) error {
	return os.WriteFile(filepath.Join(dir, "main.tf"), []byte(hcl), 0o600)
}
