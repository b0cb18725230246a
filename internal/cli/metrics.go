package cli

import (
	"context"
	"fmt"
	"net"
	"net/http"

	"github.com/hashicorp/go-hclog"
)

// ServeMetrics serves h at GET /metrics on a listener of its own at addr
// until ctx ends, for processes whose main listener (a site) must keep its
// whole URL space, or that have none (the renewer). It returns the
// address listened on; a listen error is returned, a later serve error
// logged.
func ServeMetrics(ctx context.Context, addr string, h http.Handler, log hclog.Logger) (net.Addr, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen for metrics: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", h)
	go func() {
		if err := Serve(ctx, ln, mux, nil); err != nil {
			log.Error("metrics listener stopped", "error", err)
		}
	}()
	return ln.Addr(), nil
}
