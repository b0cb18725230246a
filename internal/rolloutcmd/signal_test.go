package rolloutcmd

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/kubetest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// childEnv makes the test binary run the rollout command instead of the
// tests, with the arguments in the variable (one per line), so that a test
// can signal a real process running the real command.
const childEnv = "DOCSADMIN_TEST_ROLLOUT_ARGS"

func TestMain(m *testing.M) {
	if args := os.Getenv(childEnv); args != "" {
		os.Exit(Command(context.Background(), strings.Split(args, "\n"), os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// newNodesWorld is newWorld on a cluster whose pods turn Ready, with the
// release installed (atomic: it waited for the pods).
func newNodesWorld(t *testing.T) *world {
	t.Helper()
	w := newWorld(t, kubetest.WithNodes())
	if code, out := w.run(t, Options{Request: rollout.Request{Install: true, Chart: chartPath}, Domain: w.env.Domain}); code != ExitOK {
		t.Fatalf("install: %d %s", code, out)
	}
	return w
}

// neverScheduledChart is the reference chart as a new version whose pods
// select a node label that no node has.
func neverScheduledChart(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "docsadmin-self-hosted")
	if err := os.CopyFS(dir, os.DirFS(chartPath)); err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string][2]string{
		"Chart.yaml":  {"version: 0.1.0", "version: 0.1.1-bad"},
		"values.yaml": {"nodeSelector: {}", "nodeSelector: {disktype: no-such-disk}"},
	} {
		p := filepath.Join(dir, name)
		b, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(b), edit[0]) {
			t.Fatalf("%s: %q not found (%v)", name, edit[0], err)
		}
		if err := os.WriteFile(p, []byte(strings.Replace(string(b), edit[0], edit[1], 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// child is the rollout command running in another process.
type child struct {
	cmd    *exec.Cmd
	out    *testutil.SyncBuffer
	exited chan struct{}
}

// startWaitingChild starts the rollout command for the world's release with
// extra args and returns once the upgrade it started is waiting for its
// pods (the release is pending-upgrade).
func startWaitingChild(t *testing.T, w *world, extra []string) *child {
	t.Helper()
	args := append([]string{"--release", release, "--namespace", namespace, "--kubeconfig", w.kubeconfig,
		"--domain", w.env.Domain}, extra...)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+strings.Join(args, "\n"),
		"DOCSADMIN_BASE_URL="+w.env.URL, "DOCSADMIN_API_KEY="+w.env.Key, "DOCSADMIN_LOG_LEVEL=warn")
	c := &child{cmd: cmd, out: &testutil.SyncBuffer{}, exited: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = c.out, c.out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = cmd.Wait()
		close(c.exited)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-c.exited
	})
	testutil.Eventually(t, 60*time.Second, "the child to wait for the upgrade (pending-upgrade)", func() bool {
		select {
		case <-c.exited:
			t.Fatalf("the child exited %d before waiting:\n%s", cmd.ProcessState.ExitCode(), c.out.String())
		default:
		}
		s, err := w.roller.Current(t.Context(), release)
		return err == nil && s.Status == "pending-upgrade"
	})
	return c
}

// TestCommand_signalDuringWait runs the rollout command as a child process,
// lets it upgrade to a chart whose pods never get Ready (atomic, a
// five-minute timeout) and signals it while it waits. It must stop within
// seconds and leave the release deployed on the previous revision's
// values: a one-shot run exits 1 saying it rolled back, a watch exits 0.
func TestCommand_signalDuringWait(t *testing.T) {
	w := newNodesWorld(t)
	bad := neverScheduledChart(t)
	before := w.state(t)
	for i, tc := range []struct {
		name     string
		sig      syscall.Signal
		extra    []string
		wantCode int
	}{
		{"SIGTERM one-shot", syscall.SIGTERM, nil, ExitFailed},
		{"SIGINT watch", syscall.SIGINT, []string{"--watch"}, ExitOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"--chart", bad, "--version", "v-bad-" + tc.sig.String()}, tc.extra...)
			ch := startWaitingChild(t, w, args)
			cmd, out, exited := ch.cmd, ch.out, ch.exited
			signalled := time.Now()
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			select {
			case <-exited:
			case <-time.After(time.Minute):
				t.Fatalf("still running a minute after %v:\n%s", tc.sig, out.String())
			}
			took := time.Since(signalled)
			t.Logf("%v: the child stopped %v after the signal", tc.sig, took.Round(time.Millisecond))
			if took > 15*time.Second {
				t.Errorf("stopped %v after %v, want within seconds", took, tc.sig)
			}
			log := out.String()
			t.Logf("child output:\n%s", log)
			if code := cmd.ProcessState.ExitCode(); code != tc.wantCode || !strings.Contains(log, "rolled back to revision") {
				t.Fatalf("exit %d, want %d with a rollback:\n%s", code, tc.wantCode, log)
			}
			s := w.state(t)
			// Each run adds a failed revision and the rollback.
			if s.Status != "deployed" || s.Revision != before.Revision+2*(i+1) || s.Version != before.Version ||
				s.BundleURL != before.BundleURL {
				t.Errorf("after %v: %+v, want deployed on the values of revision %d", tc.sig, s, before.Revision)
			}
		})
	}
	// Only SIGKILL leaves a pending revision. --recover-pending takes it
	// over once it is older than the timeout plus the grace period, judged
	// by the Roller's clock, which the test moves instead of waiting.
	t.Run("SIGKILL leaves pending, recover-pending takes over", func(t *testing.T) {
		ch := startWaitingChild(t, w, []string{"--chart", bad, "--version", "v-killed"})
		if err := ch.cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		<-ch.exited
		stuck := w.state(t)
		if stuck.Status != "pending-upgrade" {
			t.Fatalf("after SIGKILL: %+v, want pending-upgrade", stuck)
		}
		clk := clock.NewOffset()
		w.roller.SetClock(clk)
		opts := Options{Request: rollout.Request{RecoverPending: true}, Domain: w.env.Domain}
		if code, out := w.run(t, Options{Domain: w.env.Domain}); code != ExitNeedsPerson ||
			!strings.Contains(out, fmt.Sprintf("helm rollback docs %d", before.Revision+4)) {
			t.Fatalf("without --recover-pending: exit %d\n%s", code, out)
		}
		if code, out := w.run(t, opts); code != ExitNeedsPerson || !strings.Contains(out, "may still be in progress") {
			t.Fatalf("--recover-pending on a fresh pending revision: exit %d\n%s", code, out)
		}
		// w.run's timeout is a minute.
		clk.Advance(time.Minute + rollout.RecoverGrace + time.Second)
		code, out := w.run(t, opts)
		if code != ExitOK {
			t.Fatalf("--recover-pending on a stale pending revision: exit %d\n%s", code, out)
		}
		s := w.state(t)
		// The killed revision failed, the rollback, then this run's upgrade
		// (new export, same content: only the link changed).
		if s.Status != "deployed" || s.Revision != stuck.Revision+2 || s.Version != before.Version {
			t.Errorf("after recovery: %+v, want revision %d deployed", s, stuck.Revision+2)
		}
		testutil.Eventually(t, 30*time.Second, "the pods to be Ready on the old chart", func() bool {
			d, err := w.cs.AppsV1().Deployments(namespace).Get(t.Context(), workload, metav1.GetOptions{})
			return err == nil && len(d.Spec.Template.Spec.NodeSelector) == 0 && d.Status.ReadyReplicas == 1 &&
				d.Status.UpdatedReplicas == 1 && d.Status.Replicas == 1
		})
	})
}
