package cli

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// TestServe_gracefulStop: once the context ends, the draining hook runs,
// new connections are refused, the request in flight still gets its whole
// answer, and Serve reports a clean stop.
func TestServe_gracefulStop(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	entered, release := make(chan struct{}), make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		close(entered)
		<-release
		_, _ = io.WriteString(w, "finished")
	})
	var drained atomic.Bool
	ctx, cancel := context.WithCancel(t.Context())
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, ln, h, func() { drained.Store(true) }) }()

	url := "http://" + ln.Addr().String() + "/"
	type answer struct {
		body string
		err  error
	}
	got := make(chan answer, 1)
	go func() {
		resp, err := http.Get(url)
		if err != nil {
			got <- answer{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		got <- answer{string(b), err}
	}()
	<-entered
	cancel()
	// Shutdown closes the listener before it waits for the request.
	testutil.Eventually(t, 10*time.Second, "the listener to close", func() bool {
		c, err := net.DialTimeout("tcp", ln.Addr().String(), time.Second)
		if err == nil {
			c.Close()
		}
		return err != nil
	})
	if !drained.Load() {
		t.Fatal("draining hook not run before the listener closed")
	}
	select {
	case err := <-served:
		t.Fatalf("Serve returned %v with a request in flight", err)
	default:
	}
	close(release)
	if a := <-got; a.err != nil || a.body != "finished" {
		t.Fatalf("in-flight request: %q, %v", a.body, a.err)
	}
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Serve = %v after a clean stop", err)
		}
	case <-time.After(ShutdownTimeout + 5*time.Second):
		t.Fatal("Serve did not return")
	}
}

// A listener that fails is an error, not a clean stop.
func TestServe_reportsListenerFailure(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	if err := Serve(t.Context(), ln, http.NotFoundHandler(), nil); err == nil {
		t.Fatal("Serve on a closed listener returned nil")
	}
}

// TestWithSignals_SIGTERM sends the process SIGTERM: the context ends and
// the test binary, whose default would be to die, lives on.
func TestWithSignals_SIGTERM(t *testing.T) {
	ctx, stop := WithSignals(t.Context())
	defer stop()
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("context still live 10s after SIGTERM")
	}
}
