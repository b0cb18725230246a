package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// terraformTimeout bounds one terraform command of the interrupt test.
const terraformTimeout = 3 * time.Minute

// serveForTerraform serves the provider in this process for terraform
// commands, as terraform-plugin-testing does, and returns the
// TF_REATTACH_PROVIDERS value that points terraform at it. The server
// stops at the end of the test.
func serveForTerraform(t *testing.T, e *accEnv) string {
	t.Helper()
	srv, err := e.factories["docsadmin"]()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	reattach := make(chan *plugin.ReattachConfig, 1)
	closed := make(chan struct{})
	go func() {
		_ = tf6server.Serve("registry.terraform.io/hashicorp/docsadmin", func() tfprotov6.ProviderServer { return srv },
			tf6server.WithDebug(ctx, reattach, closed), tf6server.WithoutLogStderrOverride(),
			tf6server.WithGoPluginLogger(hclog.NewNullLogger()),
			// Provider logs follow TF_LOG and TF_ACC_LOG_PATH as under
			// resource.Test, instead of all going to the test's stderr.
			tf6server.WithLoggingSink(t))
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-closed:
		case <-time.After(30 * time.Second):
			t.Error("the provider server did not stop")
		}
	})
	var rc *plugin.ReattachConfig
	select {
	case rc = <-reattach:
	case <-time.After(30 * time.Second):
		t.Fatal("the provider server did not start")
	}
	cfg := map[string]any{"Protocol": string(rc.Protocol), "ProtocolVersion": rc.ProtocolVersion, "Pid": rc.Pid,
		"Test": rc.Test, "Addr": map[string]string{"Network": rc.Addr.Network(), "String": rc.Addr.String()}}
	raw, err := json.Marshal(map[string]any{"registry.terraform.io/hashicorp/docsadmin": cfg})
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// terraformCmd is a terraform command in dir against the served provider.
// Its output goes to out.
func terraformCmd(ctx context.Context, dir, reattach string, out *lockedBuffer, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "terraform", append(args, "-no-color", "-input=false")...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TF_REATTACH_PROVIDERS="+reattach, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
	cmd.Stdout, cmd.Stderr = out, out
	return cmd
}

// lockedBuffer collects a command's output while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Ctrl-C during `terraform apply`: real terraform, sent SIGINT while an
// atomic upgrade waits for pods that never become ready (no nodes), stops
// within seconds; terraform asks the provider to stop, which cancels the
// resource's context. The release is deployed with the previous values
// and state keeps the previous revision.
func TestAccStaticExportRollout_interruptedApplyLeavesPreviousRevision(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	e := newParallelRolloutEnv(t)
	reattach := serveForTerraform(t, e.accEnv)
	dir := t.TempDir()
	write := func(version string, atomic bool) {
		t.Helper()
		hcl := e.atomicConfig(version, atomic, "")
		if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(hcl), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), terraformTimeout)
	defer cancel()
	var out lockedBuffer
	for _, args := range [][]string{{"init"}, {"apply", "-auto-approve"}} {
		write("v1", false)
		if err := terraformCmd(ctx, dir, reattach, &out, args...).Run(); err != nil {
			t.Fatalf("terraform %s: %v\n%s", args[0], err, out.String())
		}
	}
	before := e.current(t)

	write("v2", true)
	apply := terraformCmd(ctx, dir, reattach, &out, "apply", "-auto-approve")
	if err := apply.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- apply.Wait() }()
	testutil.Eventually(t, time.Minute, "the upgrade to wait on its pending revision", func() bool {
		s, err := e.roller.Current(t.Context(), rolloutRelease)
		return err == nil && s.Revision == before.Revision+1 && s.Status == "pending-upgrade"
	})
	began := time.Now()
	if err := apply.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	var err error
	select {
	case err = <-exited:
	case <-time.After(cancelBound):
		t.Fatalf("terraform apply still running %s after SIGINT:\n%s", cancelBound, out.String())
	}
	t.Logf("terraform apply exited %s after SIGINT", time.Since(began).Round(time.Millisecond))
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() == 0 || !strings.Contains(out.String(), "Release Upgrade Cancelled") {
		t.Fatalf("terraform apply: %v, want a failure saying the upgrade was cancelled:\n%s", err, out.String())
	}

	s := e.current(t)
	if s.Status != "deployed" || s.Version != "v1" || s.BundleURL != before.BundleURL {
		t.Errorf("release is at revision %d, %s, version %q; want deployed with revision %d's values",
			s.Revision, s.Status, s.Version, before.Revision)
	}
	var state struct {
		Resources []struct {
			Instances []struct {
				Attributes map[string]any `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	raw, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err == nil {
		err = json.Unmarshal(raw, &state)
	}
	if err != nil || len(state.Resources) != 1 || len(state.Resources[0].Instances) != 1 {
		t.Fatalf("state: %v\n%s", err, raw)
	}
	attrs := state.Resources[0].Instances[0].Attributes
	if attrs["version"] != "v1" || attrs["revision"] != float64(before.Revision) {
		t.Errorf("state holds version %v at revision %v, want v1 at %d", attrs["version"], attrs["revision"], before.Revision)
	}
}
