package bundleserve

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"
)

// Command runs the serve-bundle subcommand and returns the exit code: 0
// after a clean stop on SIGTERM/SIGINT, 1 when serving failed, 2 for usage
// errors.
func Command(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve-bundle", flag.ContinueOnError)
	fs.SetOutput(stderr)
	link := fs.String("bundle-url", "", "presigned bundle link (prefer --bundle-url-file: a link on the command line is visible to every local user)")
	linkFile := fs.String("bundle-url-file", "", "file holding the link, e.g. a mounted Secret; re-read on every check")
	addr := fs.String("addr", ":8080", "address to serve on")
	dataDir := fs.String("data-dir", os.TempDir()+"/docsadmin-bundle", "where unpacked versions are kept")
	interval := fs.Duration("check-interval", 30*time.Second, "how often the link (file) is checked for a change")
	logLevel := fs.String("log-level", "info", "trace, debug, info, warn or error")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	log := hclog.New(&hclog.LoggerOptions{Name: "serve-bundle", Level: hclog.LevelFromString(*logLevel), Output: stderr})
	srv, err := New(Options{URL: *link, URLFile: *linkFile, DataDir: *dataDir, Logger: log})
	if err != nil {
		fmt.Fprintf(stderr, "serve-bundle: %v\n", err)
		return 2
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Error("listen", "error", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	go srv.Run(ctx, *interval)
	fmt.Fprintf(stdout, "listening on http://%s\n", ln.Addr())
	select {
	case err := <-errc:
		log.Error("serve", "error", err)
		return 1
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		log.Error("shutdown", "error", err)
		return 1
	}
	return 0
}
