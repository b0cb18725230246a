// Package rolloutcmd is the `rollout` subcommand: it exports the docs (or
// reuses an export job), gets a presigned bundle link and upgrades the
// self-hosted Helm release with it, once or in a watch loop that renews the
// link before it expires. The Helm work is internal/rollout's; the API work
// is internal/client's; this package only sequences them for a terminal or
// a cron job.
package rolloutcmd

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/hashicorp/go-hclog"
	"golang.org/x/term"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/cli"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/client"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
)

// Exit codes of the rollout subcommand. They are part of its interface:
// scripts and cron wrappers branch on them.
const (
	// ExitOK: the release carries a live link (upgraded, or nothing to do);
	// in watch mode, a clean stop on SIGTERM or SIGINT.
	ExitOK = cli.ExitOK
	// ExitFailed: the API or the cluster failed, or the upgrade failed or
	// was interrupted by a signal and was rolled back. Retrying later may
	// help.
	ExitFailed = cli.ExitFailed
	// ExitUsage: bad flags or environment.
	ExitUsage = cli.ExitUsage
	// ExitExportFailed: the export job ended failed; its error is printed.
	ExitExportFailed = 3
	// ExitNeedsPerson: the release is missing (and --install was not given)
	// or stuck in a pending state; retrying cannot help.
	ExitNeedsPerson = 4
)

// Options are the parsed flags.
type Options struct {
	Release, Namespace, Kubeconfig, KubeContext string
	Domain, JobID, Version, Chart               string
	ChartRepo, ChartVersion                     string
	RenewBefore, ReexportEvery, Timeout         time.Duration
	Watch, DryRun, Install, Atomic, Wait        bool
	RecoverPending, InCluster                   bool
	CreateNamespace, PlainHTTP                  bool
	// ExportTimeout bounds the whole wait for an export job.
	ExportTimeout time.Duration
}

// Roller is what the command needs of internal/rollout.
type Roller interface {
	Apply(ctx context.Context, req rollout.Request) (rollout.Result, error)
	Current(ctx context.Context, release string) (*rollout.State, error)
}

// Runner carries out Options with injected dependencies, so tests can drive
// it with their own clock and sleep.
type Runner struct {
	Opts   Options
	API    *client.Client
	Roller Roller
	Clock  clock.Clock
	// Sleep waits d or until ctx ends; tests replace it.
	Sleep func(ctx context.Context, d time.Duration) error
	Out   io.Writer
	// TTY draws a progress bar instead of printing lines.
	TTY bool
	Log hclog.Logger
	// Recheck is the longest the watch loop sleeps between looks at the
	// release; zero means one minute.
	Recheck time.Duration
	// Download fetches the head of a bundle to read its manifest, needed
	// only when the API does not send the content version. nil means a
	// client with a 30-second timeout.
	Download *http.Client
}

const usage = `Usage: terraform-provider-docsadmin rollout --release R --namespace N
       [--kubeconfig P] [--kube-context C] (--domain D | --job-id J)
       [--version V] [--chart PATH|NAME --repo URL|oci://HOST/REPO/NAME]
       [--chart-version V] [--plain-http] [--install [--create-namespace]]
       [--atomic=false] [--wait]
       [--timeout 5m] [--recover-pending] [--in-cluster] [--export-timeout 1h]
       [--renew-before 15m] [--watch [--reexport-every 24h]] [--dry-run]
       [--log-level info]

Exports the docs (--domain starts a new export, --job-id reuses one), gets a
presigned bundle link and upgrades the Helm release with
staticExport.enabled=true, bundleUrl, version and expiresAt, keeping every
other value. When the release already carries the same content and a link
valid for longer than --renew-before, nothing changes, so the command is
safe to run from cron. --watch keeps running and renews the link before it
expires. The API is reached with ` + cli.EnvBaseURL + ` and ` + cli.EnvAPIKey + `.

Exit codes: 0 done or nothing to do (watch: stopped by a signal), 1 API or
cluster failure, or the upgrade failed or was interrupted and was rolled
back (retry later), 2 usage, 3 the export job failed, 4 the release needs a
person (missing without --install, or stuck pending).

SIGINT or SIGTERM during an upgrade's wait stops within seconds: the upgrade
is rolled back to the last deployed revision without waiting, so the release
is left deployed, never pending or failed.

Flags:
`

// Command parses args, connects to the API and the cluster, and runs.
func Command(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	opts, log, code := parseFlags(args, stderr)
	if code >= 0 {
		return code
	}
	baseURL, key := os.Getenv(cli.EnvBaseURL), os.Getenv(cli.EnvAPIKey)
	if baseURL == "" || key == "" {
		fmt.Fprintf(stderr, "rollout: set %s and %s\n", cli.EnvBaseURL, cli.EnvAPIKey)
		return ExitUsage
	}
	api, err := client.New(clientConfig(opts, baseURL, key, log))
	if err != nil {
		fmt.Fprintf(stderr, "rollout: %v\n", err)
		return ExitUsage
	}
	roller, err := rollout.New(kubeConfig(opts, os.Getenv), log.Named("helm"))
	if err != nil {
		fmt.Fprintf(stderr, "rollout: %v\n", err)
		return ExitFailed
	}
	ctx, stop := cli.WithSignals(ctx)
	defer stop()
	tty := false
	if f, ok := stdout.(*os.File); ok {
		tty = term.IsTerminal(int(f.Fd()))
	}
	r := &Runner{Opts: opts, API: api, Roller: roller, Clock: clock.Real{}, Out: stdout, TTY: tty, Log: log}
	return r.Run(ctx)
}

// kubeConfig says how to reach the cluster. Inside a pod
// (KUBERNETES_SERVICE_HOST is set) with no kubeconfig given by flag or
// KUBECONFIG, the pod's service account is used, as kubectl does; client-go
// alone would look for ~/.kube/config first.
func kubeConfig(o Options, getenv func(string) string) rollout.Config {
	inPod := getenv("KUBERNETES_SERVICE_HOST") != "" && o.Kubeconfig == "" && o.KubeContext == "" && getenv("KUBECONFIG") == ""
	return rollout.Config{Kubeconfig: o.Kubeconfig, Context: o.KubeContext, Namespace: o.Namespace, InCluster: o.InCluster || inPod}
}

// clientConfig is the API client's configuration for opts.
func clientConfig(opts Options, baseURL, key string, log hclog.Logger) client.Config {
	return client.Config{BaseURL: baseURL, APIKey: key, UserAgent: "terraform-provider-docsadmin-rollout",
		Logger: client.HCLogger(log.Named("api")), PollTimeout: opts.ExportTimeout}
}

// parseFlags returns the options and the logger, or an exit code >= 0 to
// stop with (the reason is on stderr).
func parseFlags(args []string, stderr io.Writer) (Options, hclog.Logger, int) {
	cmd := cli.New("rollout", stderr)
	fs := cmd.Flags
	var o Options
	fs.Usage = func() { fmt.Fprint(stderr, usage); fs.PrintDefaults() }
	fs.StringVar(&o.Release, "release", "", "Helm release name (required)")
	fs.StringVar(&o.Namespace, "namespace", "", "namespace of the release (default: the context's)")
	fs.StringVar(&o.Kubeconfig, "kubeconfig", "", "kubeconfig file (default: $KUBECONFIG or ~/.kube/config)")
	fs.StringVar(&o.KubeContext, "kube-context", "", "kubeconfig context (default: the current one)")
	fs.BoolVar(&o.InCluster, "in-cluster", false, "use the pod's service account (the default inside a pod when no kubeconfig is given)")
	fs.StringVar(&o.Domain, "domain", "", "export this deployment's docs (starts a new export job)")
	fs.StringVar(&o.JobID, "job-id", "", "use this completed export job instead of starting one")
	fs.StringVar(&o.Version, "version", "", "staticExport.version (default: the bundle's content version, as the API reports it or from its manifest)")
	fs.StringVar(&o.Chart, "chart", "", "chart directory or archive, chart name in --repo, or oci://host/repo/name (default: the release's current chart; needed with --install)")
	fs.StringVar(&o.ChartRepo, "repo", "", "chart repository URL holding --chart")
	fs.StringVar(&o.ChartVersion, "chart-version", "", "chart version or constraint from --repo or the OCI registry (default: the newest)")
	fs.BoolVar(&o.PlainHTTP, "plain-http", false, "reach the OCI registry over plain HTTP")
	fs.BoolVar(&o.CreateNamespace, "create-namespace", false, "with --install: create the namespace if it does not exist")
	fs.BoolVar(&o.Install, "install", false, "install the release if it does not exist")
	fs.BoolVar(&o.Atomic, "atomic", true, "wait for the upgrade and roll back to the last deployed revision if it fails")
	fs.BoolVar(&o.Wait, "wait", false, "wait for resources to be ready even without --atomic")
	fs.BoolVar(&o.RecoverPending, "recover-pending", false,
		"roll back a pending-* revision this tool created that is older than --timeout plus "+rollout.RecoverGrace.String()+", then proceed")
	fs.DurationVar(&o.Timeout, "timeout", 5*time.Minute, "how long Helm waits for resources and a rollback")
	fs.DurationVar(&o.RenewBefore, "renew-before", 15*time.Minute, "renew the link when it expires within this")
	fs.DurationVar(&o.ReexportEvery, "reexport-every", 0, "with --watch and --domain: start a new export this often (0: never)")
	fs.BoolVar(&o.Watch, "watch", false, "keep running: renew the link before it expires and upgrade again")
	fs.DurationVar(&o.ExportTimeout, "export-timeout", client.DefaultPollTimeout, "give up waiting for the export job after this long (exit 1; the job goes on)")
	fs.BoolVar(&o.DryRun, "dry-run", false, "say what would change without upgrading")
	log, code, ok := cmd.Parse(args)
	if !ok {
		return o, nil, code
	}
	bad := func(msg string) (Options, hclog.Logger, int) {
		return o, nil, cmd.Usagef("%s", msg)
	}
	switch {
	case o.Release == "":
		return bad("--release is required")
	case (o.Domain == "") == (o.JobID == ""):
		return bad("give exactly one of --domain and --job-id")
	case o.RenewBefore < 0 || o.ReexportEvery < 0 || o.Timeout <= 0:
		return bad("durations must not be negative")
	case o.ExportTimeout <= 0:
		return bad("--export-timeout must be positive")
	case o.ReexportEvery > 0 && (!o.Watch || o.Domain == ""):
		return bad("--reexport-every needs --watch and --domain")
	case o.Install && o.Chart == "":
		return bad("--install needs --chart")
	case o.Chart == "" && (o.ChartRepo != "" || o.ChartVersion != ""):
		return bad("--repo and --chart-version need --chart")
	case o.CreateNamespace && !o.Install:
		return bad("--create-namespace needs --install")
	case o.InCluster && (o.Kubeconfig != "" || o.KubeContext != ""):
		return bad("--in-cluster does not take --kubeconfig or --kube-context")
	}
	return o, log, -1
}
