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

// Serve serves h on ln until ctx ends or serving fails, and then stops
// gracefully: draining (when not nil) runs first, so a readiness probe can
// turn red before the listener closes; then no new connection is accepted
// and requests in flight get ShutdownTimeout to finish. It returns nil after
// a clean stop. The listener is closed either way.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, draining func()) error {
	// ReadHeaderTimeout keeps a client that never finishes its headers from
	// holding a connection (Slowloris); IdleTimeout bounds keep-alive
	// connections nobody uses. No write timeout: bundle downloads are large.
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
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
