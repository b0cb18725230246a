package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/kubetest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// syncBuffer is a bytes.Buffer that run's goroutine writes while the test
// reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestRun_usageErrors(t *testing.T) {
	for _, args := range [][]string{{"extra"}, {"-no-such-flag"}, {"-nodes=maybe"}} {
		var stderr syncBuffer
		if code := run(context.Background(), args, &syncBuffer{}, &stderr); code != 2 {
			t.Errorf("run(%q) = %d, want 2 (usage error); stderr:\n%s", args, code, stderr.String())
		}
		if !strings.Contains(stderr.String(), "-state-dir") {
			t.Errorf("run(%q) printed no usage:\n%s", args, stderr.String())
		}
	}
}

// running is one kubelocal run in the background.
type running struct {
	stdout, stderr syncBuffer
	stop           context.CancelFunc
	done           chan int
	waited         sync.Once
}

func start(t *testing.T, args ...string) *running {
	t.Helper()
	testutil.SkipShort(t, testutil.NeedsKube)
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{stop: cancel, done: make(chan int, 1)}
	go func() { r.done <- run(ctx, args, &r.stdout, &r.stderr) }()
	t.Cleanup(func() { r.wait(t) })
	var code int
	exited := false
	testutil.Eventually(t, 2*time.Minute, "kubelocal to print ready", func() bool {
		select {
		case code = <-r.done:
			exited = true
			return true
		default:
			return strings.HasPrefix(r.stdout.String(), "ready: ")
		}
	})
	if exited {
		r.waited.Do(func() {}) // nothing left to stop
		if code == 3 && os.Getenv(kubetest.EnvSkip) == "1" {
			t.Skipf("binaries not built (%s=1): %s", kubetest.EnvSkip, r.stderr.String())
		}
		t.Fatalf("kubelocal %q exited %d before it was ready; stderr:\n%s", args, code, r.stderr.String())
	}
	return r
}

// wait stops the run and waits for it to return, once, bounded: kubetest
// stops each server within its own 10 s limit.
func (r *running) wait(t *testing.T) {
	r.waited.Do(func() {
		r.stop()
		select {
		case code := <-r.done:
			if code != 0 {
				t.Errorf("kubelocal exited %d on stop; stderr:\n%s", code, r.stderr.String())
			}
		case <-time.After(time.Minute):
			t.Errorf("kubelocal did not stop within a minute")
		}
	})
}

func TestRun_stateDirKeepsTheClusterBetweenRuns(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "kube")
	first := filepath.Join(dir, "first.kubeconfig")
	r := start(t, "-state-dir", state, "-kubeconfig-out", first, "-namespace", "docs")

	var stderr syncBuffer
	code := run(context.Background(), []string{"-state-dir", state, "-kubeconfig-out", filepath.Join(dir, "x")},
		&syncBuffer{}, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), state+" is locked") {
		t.Errorf("second kubelocal on a running state dir: exit %d, stderr %q; want 1 naming the lock", code, stderr.String())
	}
	ready := r.stdout.String()
	r.wait(t)

	// Again, with the namespace the first run created: it is kept, and
	// that is not an error.
	second := filepath.Join(dir, "second.kubeconfig")
	r = start(t, "-state-dir", state, "-kubeconfig-out", second, "-namespace", "docs")
	if got := r.stdout.String(); got != ready {
		t.Errorf("second run says %q, want the first run's %q (same server)", got, ready)
	}
	a, errA := os.ReadFile(first)
	b, errB := os.ReadFile(second)
	if errA != nil || errB != nil || !bytes.Equal(a, b) {
		t.Errorf("kubeconfig changed between runs (%v, %v)", errA, errB)
	}
}
