package cli

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
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

// rawRequest sends req over a fresh connection and returns the status line
// of the answer, failing when none comes within 10 s.
func rawRequest(t *testing.T, addr, req string) string {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	return strings.TrimSpace(line)
}

func serveForTest(t *testing.T, h http.Handler, to Timeouts) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- ServeWith(ctx, ln, h, nil, to) }()
	t.Cleanup(func() { cancel(); <-done })
	return ln.Addr().String()
}

// A client that announces a body and never sends it is answered once the
// read timeout passes, instead of holding the connection.
func TestServe_announcedBodyNeverSent(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			http.Error(w, "body not received", http.StatusRequestTimeout)
			return
		}
		_, _ = io.WriteString(w, "ok")
	})
	addr := serveForTest(t, h, Timeouts{Read: 300 * time.Millisecond, ReadHeader: 300 * time.Millisecond})
	got := rawRequest(t, addr, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n")
	if !strings.HasPrefix(got, "HTTP/1.1 408") {
		t.Fatalf("answer %q, want 408", got)
	}
	// Headers that never end are cut off too.
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, _ = io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n")
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.ReadAll(c); err != nil {
		t.Fatalf("connection with unfinished headers was not closed: %v", err)
	}
}

// A download that takes longer than the write timeout keeps going as long
// as data flows; the timeout only cuts a stalled one.
func TestServe_longDownloadOutlivesWriteTimeout(t *testing.T) {
	const chunks, size = 8, 64 << 10
	h := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		tick := time.NewTicker(100 * time.Millisecond) // paces the producer: 8 × 100 ms > the 300 ms timeout
		defer tick.Stop()
		buf := make([]byte, size)
		for range chunks {
			<-tick.C
			if _, err := w.Write(buf); err != nil {
				return
			}
			_ = http.NewResponseController(w).Flush()
		}
	})
	addr := serveForTest(t, h, Timeouts{Write: 300 * time.Millisecond})
	resp, err := http.Get("http://" + addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil || n != chunks*size {
		t.Fatalf("download got %d of %d bytes: %v", n, chunks*size, err)
	}
}

func TestServe_defaultsAreSet(t *testing.T) {
	d := Timeouts{}.withDefaults()
	if d.ReadHeader <= 0 || d.Read <= 0 || d.Write <= 0 || d.Idle <= 0 || d.MaxHeaderBytes <= 0 {
		t.Fatalf("defaults leave a limit unset: %+v", d)
	}
	if d.Read > 20*time.Second {
		t.Fatalf("read timeout %v lets a silent client hold a connection for over 20 s", d.Read)
	}
}
