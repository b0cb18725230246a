package bundleserve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/cli"
)

// Command runs the serve-bundle subcommand and returns the exit code: 0
// after a clean stop on SIGTERM/SIGINT, 1 when serving failed or the data
// dir is refused (another user's, or writable by others), 2 for usage
// errors.
func Command(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmd := cli.New("serve-bundle", stderr)
	fs := cmd.Flags
	link := fs.String("bundle-url", "", "presigned bundle link (prefer --bundle-url-file: a link on the command line is visible to every local user)")
	linkFile := fs.String("bundle-url-file", "", "file holding the link, e.g. a mounted Secret; re-read on every check")
	addr := fs.String("addr", ":8080", "address to serve on")
	dataDir := fs.String("data-dir", "", "where unpacked versions are kept, created 0700; refused if another user owns it or others may write to it (default $XDG_STATE_HOME/docsadmin/serve-bundle, else ~/.local/state/docsadmin/serve-bundle)")
	pin := fs.String("pin-version", "", "refuse a bundle whose content version (its manifest's) differs; the old site keeps serving")
	pinFile := fs.String("pin-version-file", "", "file holding the pinned version, re-read on every check; a missing file pins nothing")
	interval := fs.Duration("check-interval", 30*time.Second, "how often the link (file) is checked for a change and the served files against the verified ones")
	stall := fs.Duration("stall-timeout", DefaultStallTimeout, "give a download up once it has received nothing for this long")
	minRate := fs.Int64("min-rate", DefaultMinRate, "give a download up once its body brings fewer bytes a second than this, averaged over each --stall-timeout (0: no floor)")
	fetchTimeout := fs.Duration("fetch-timeout", DefaultFetchTimeout, "give a download up once it has taken this long in all (0: no limit)")
	redirectHosts := fs.String("allow-redirect-host", "", "comma-separated hosts (host or host:port) besides the link's own that a download may be redirected to, over https only")
	metricsAddr := fs.String("metrics-addr", "", "serve Prometheus metrics at /metrics on this address, apart from the site (empty: off)")
	log, code, ok := cmd.Parse(args)
	if !ok {
		return code
	}
	if *interval <= 0 || *stall <= 0 {
		return cmd.Usagef("--check-interval and --stall-timeout must be positive")
	}
	if *minRate < 0 || *fetchTimeout < 0 {
		return cmd.Usagef("--min-rate and --fetch-timeout must not be negative")
	}
	// 0 on the command line is "none"; in Options it is "the default".
	if *minRate == 0 {
		*minRate = -1
	}
	if *fetchTimeout == 0 {
		*fetchTimeout = -1
	}
	var hosts []string
	for h := range strings.SplitSeq(*redirectHosts, ",") {
		if h = strings.TrimSpace(h); h != "" {
			hosts = append(hosts, h)
		}
	}
	if *dataDir == "" {
		d, err := DefaultDataDir()
		if err != nil {
			return cmd.Usagef("%v", err)
		}
		*dataDir = d
	}
	srv, err := New(Options{URL: *link, URLFile: *linkFile, DataDir: *dataDir,
		PinVersion: *pin, PinVersionFile: *pinFile, Logger: log, StallTimeout: *stall,
		MinRate: *minRate, FetchTimeout: *fetchTimeout, RedirectHosts: hosts})
	var dde *DataDirError
	if errors.As(err, &dde) {
		log.Error("refusing the data dir", "error", err)
		return cli.ExitFailed
	}
	if err != nil {
		return cmd.Usagef("%v", err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Error("listen", "error", err)
		return cli.ExitFailed
	}
	ctx, stop := cli.WithSignals(ctx)
	defer stop()
	if *metricsAddr != "" {
		addr, err := cli.ServeMetrics(ctx, *metricsAddr, srv.MetricsHandler(), log)
		if err != nil {
			log.Error("metrics", "error", err)
			return cli.ExitFailed
		}
		fmt.Fprintf(stdout, "metrics on http://%s/metrics\n", addr)
	}
	go srv.Run(ctx, *interval)
	fmt.Fprintf(stdout, "listening on http://%s\n", ln.Addr())
	if err := cli.Serve(ctx, ln, srv.Handler(), nil); err != nil {
		log.Error("serve-bundle stopped", "error", err)
		return cli.ExitFailed
	}
	return cli.ExitOK
}
