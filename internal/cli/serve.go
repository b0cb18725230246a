package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// ShutdownTimeout is how long requests in flight may run once a server has
// been told to stop. It stays below Kubernetes' default 30 s grace period,
// so the process exits on its own before it would be killed.
const ShutdownTimeout = 10 * time.Second

// WithSignals returns a context that ends when ctx does or when SIGINT or
// SIGTERM arrives: the way every subcommand learns it should stop. Call
// stop when done to restore the default signal handling.
func WithSignals(ctx context.Context) (_ context.Context, stop context.CancelFunc) {
	return signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
}

// Timeouts bound what one client can hold of a server. Zero fields take
// the DefaultTimeouts value.
type Timeouts struct {
	// ReadHeader bounds the request line and headers (Slowloris).
	ReadHeader time.Duration
	// Read bounds the whole request, body included: a client that
	// announces a body and never sends it is answered, not waited for.
	Read time.Duration
	// Write bounds the answer while nothing is written; every write moves
	// the deadline on, so a large download runs as long as data flows.
	Write time.Duration
	// Idle bounds a keep-alive connection nobody uses.
	Idle time.Duration
	// MaxHeaderBytes caps the request headers.
	MaxHeaderBytes int
}

// DefaultTimeouts suit an API with bodies of at most 1 MiB and pages or
// archives streamed to clients that keep reading.
var DefaultTimeouts = Timeouts{
	ReadHeader:     10 * time.Second,
	Read:           15 * time.Second,
	Write:          30 * time.Second,
	Idle:           2 * time.Minute,
	MaxHeaderBytes: 64 << 10,
}

func (t Timeouts) withDefaults() Timeouts {
	d := DefaultTimeouts
	if t.ReadHeader > 0 {
		d.ReadHeader = t.ReadHeader
	}
	if t.Read > 0 {
		d.Read = t.Read
	}
	if t.Write > 0 {
		d.Write = t.Write
	}
	if t.Idle > 0 {
		d.Idle = t.Idle
	}
	if t.MaxHeaderBytes > 0 {
		d.MaxHeaderBytes = t.MaxHeaderBytes
	}
	return d
}

// Serve serves h on ln until ctx ends or serving fails, and then stops
// gracefully: draining (when not nil) runs first, so a readiness probe can
// turn red before the listener closes; then no new connection is accepted
// and requests in flight get ShutdownTimeout to finish. It returns nil after
// a clean stop. The listener is closed either way.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, draining func()) error {
	return ServeWith(ctx, ln, h, draining, Timeouts{})
}

// ServeWith is Serve with explicit timeouts.
func ServeWith(ctx context.Context, ln net.Listener, h http.Handler, draining func(), to Timeouts) error {
	to = to.withDefaults()
	hs := &http.Server{
		Handler:           extendWriteDeadline(h, to.Write),
		ReadHeaderTimeout: to.ReadHeader,
		ReadTimeout:       to.Read,
		WriteTimeout:      to.Write,
		IdleTimeout:       to.Idle,
		MaxHeaderBytes:    to.MaxHeaderBytes,
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	if draining != nil {
		draining()
	}
	// The parent context has ended; the shutdown needs its own deadline.
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ShutdownTimeout)
	defer cancel()
	err := hs.Shutdown(sctx)
	// Serve has returned ErrServerClosed by now (Shutdown closes the
	// listener first); collect it so the goroutine never outlives us.
	if serr := <-errc; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	if err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

// extendWriteDeadline moves the connection's write deadline d past every
// write, so WriteTimeout cuts off a client that stopped reading (or a
// handler that stopped writing) while a download that keeps flowing runs
// to its end however large it is.
func extendWriteDeadline(h http.Handler, d time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(&deadlineWriter{ResponseWriter: w, rc: http.NewResponseController(w), d: d}, r)
	})
}

type deadlineWriter struct {
	http.ResponseWriter
	rc *http.ResponseController
	d  time.Duration
}

func (w *deadlineWriter) Write(b []byte) (int, error) {
	// An error means the connection cannot take deadlines (a test
	// recorder); the server's own WriteTimeout then stays in force.
	_ = w.rc.SetWriteDeadline(time.Now().Add(w.d))
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
