// Package rolloutcmd is the `rollout` subcommand: it exports the docs (or
// reuses an export job), gets a presigned bundle link and upgrades the
// self-hosted Helm release with it, once or in a watch loop that renews the
// link before it expires. The Helm work is internal/rollout's; the API work
// is internal/client's; this package only sequences them for a terminal or
// a cron job.
package rolloutcmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"
	"golang.org/x/term"
	"k8s.io/apimachinery/pkg/labels"

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

// Options are the parsed flags. The Helm side of the rollout is the
// documented rollout.Request, filled from the flags; each run adds the
// bundle link, its expiry and (without --version) the content version.
type Options struct {
	rollout.Request
	// Namespace is the release's namespace ("" for the kubeconfig
	// context's); Kubeconfig and KubeContext choose the cluster as kubectl
	// does ("" for $KUBECONFIG or ~/.kube/config, and its current
	// context); InCluster uses the pod's service account instead.
	Namespace   string
	Kubeconfig  string
	KubeContext string
	InCluster   bool
	// Domain names the deployment whose docs a new export job renders;
	// JobID reuses a completed export job instead. One of the two is
	// given (or a fleet, whose entries name their own).
	Domain string
	JobID  string
	// RenewBefore is how long before the link expires a watch renews it;
	// ReexportEvery, with Watch and Domain, starts a new export this often
	// (0: never).
	RenewBefore   time.Duration
	ReexportEvery time.Duration
	// Watch keeps running, renewing the link and upgrading again; DryRun
	// says what would change without upgrading.
	Watch  bool
	DryRun bool
	// ExportTimeout bounds the whole wait for an export job.
	ExportTimeout time.Duration
	// MaxRetries is how many failures in a row the watch loop retries
	// before it marks the release as needing attention; 0 retries forever.
	MaxRetries int
	// Releases is a fleet file (see Entry), Parallel how many of its
	// releases work at once; MetricsAddr serves /metrics.
	Releases    string
	Parallel    int
	MetricsAddr string
	// Selector chooses the fleet by Helm release label instead (see
	// LabelDomain), in Namespaces (default Namespace) or in the
	// namespaces NamespaceSelector matches, looked up again every Resync.
	Selector          string
	Namespaces        []string
	NamespaceSelector string
	Resync            time.Duration
	// Retry asks a watching renewer to try a release it gave up on again.
	Retry bool
	// Drift is off, warn or correct: what the watch loop does when the
	// release's objects differ from what it says; DriftIgnore lists the
	// fields another controller owns (Kind:field or Kind/name:field).
	Drift       string
	DriftIgnore []string
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
	// Metrics, when set, records each release's renewals and failures.
	Metrics *Metrics
	// slots bounds how many releases of a fleet work at once; fleet
	// makes a member of a Fleet wait for a person instead of exiting.
	slots chan struct{}
	fleet bool
	// warnedDrift is the drift --drift warn last said, so a recheck that
	// finds the same differences does not say it again.
	warnedDrift string
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
       rollout --watch --releases FILE [--parallel 4] [--namespace N] [shared flags]
       rollout --watch --selector SEL [--namespaces A,B | --namespace-selector SEL]
       [--resync 1m] [--parallel 4] [shared flags]
       rollout --retry --release R --namespace N

With --watch, --max-retries failures in a row (default 10, with back-off)
mark the release as needing attention: an error line, a Kubernetes Event
and the docsadmin_renewer_needs_attention metric, and no more retries until
someone runs rollout --retry or the release changes. --metrics-addr serves
Prometheus metrics per release.

With --selector the fleet is every Helm release whose labels match SEL and
whose values carry a staticExport table, in --namespaces (default
--namespace) or in the namespaces --namespace-selector matches; each names
its export with the release label ` + LabelDomain + ` or ` + LabelJobID + `
(helm upgrade --labels). Releases that join or leave the selection are
picked up every --resync.

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
	rollers := func(ns string) (*rollout.Roller, error) {
		o := opts
		o.Namespace = ns
		return rollout.New(kubeConfig(o, os.Getenv), log.Named("helm"))
	}
	if opts.Retry {
		return retry(ctx, opts, rollers, stdout, stderr)
	}
	var entries []Entry
	if opts.Releases != "" {
		var err error
		if entries, err = LoadFleet(opts.Releases, opts.Namespace); err != nil {
			fmt.Fprintf(stderr, "rollout: %v\n", err)
			return ExitUsage
		}
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
	ctx, stop := cli.WithSignals(ctx)
	defer stop()
	tty := false
	if f, ok := stdout.(*os.File); ok {
		tty = term.IsTerminal(int(f.Fd()))
	}
	r := Runner{Opts: opts, API: api, Clock: clock.Real{}, Out: stdout, TTY: tty, Log: log}
	if opts.MetricsAddr != "" {
		r.Metrics = NewMetrics()
		addr, err := cli.ServeMetrics(ctx, opts.MetricsAddr, r.Metrics.Handler(), log)
		if err != nil {
			fmt.Fprintf(stderr, "rollout: %v\n", err)
			return ExitFailed
		}
		fmt.Fprintf(stdout, "metrics on http://%s/metrics\n", addr)
	}
	if opts.Releases != "" || opts.Selector != "" {
		f := &Fleet{Base: r, Entries: entries, Parallel: opts.Parallel, Resync: opts.Resync,
			Rollers: func(ns string) (Roller, error) { return rollers(ns) }}
		if opts.Selector != "" {
			f.Select = selection(opts, log)
		}
		return f.Run(ctx)
	}
	roller, err := rollers(opts.Namespace)
	if err != nil {
		fmt.Fprintf(stderr, "rollout: %v\n", err)
		return ExitFailed
	}
	r.Roller = roller
	return r.Run(ctx)
}

// selection looks the fleet up on the command's cluster.
func selection(opts Options, log hclog.Logger) *Selection {
	spaces := opts.Namespaces
	if len(spaces) == 0 && opts.NamespaceSelector == "" {
		spaces = []string{opts.Namespace}
	}
	in := func(ns string) rollout.Config {
		o := opts
		o.Namespace = ns
		return kubeConfig(o, os.Getenv)
	}
	return &Selection{Selector: opts.Selector, Namespaces: spaces, NamespaceSelector: opts.NamespaceSelector, Log: log,
		List: func(ctx context.Context, ns, selector string) ([]rollout.Selected, error) {
			return rollout.Select(ctx, in(ns), selector, log.Named("helm"))
		},
		Spaces: func(ctx context.Context, selector string) ([]string, error) {
			return rollout.Namespaces(ctx, in(opts.Namespace), selector)
		}}
}

// retry is `rollout --retry`: it asks the renewer watching the release,
// which stopped retrying it, to try again.
func retry(ctx context.Context, o Options, rollers func(string) (*rollout.Roller, error), stdout, stderr io.Writer) int {
	roller, err := rollers(o.Namespace)
	if err == nil {
		err = roller.RequestRetry(ctx, o.Release, time.Now())
	}
	if err != nil {
		fmt.Fprintf(stderr, "rollout: %v\n", err)
		return ExitFailed
	}
	fmt.Fprintf(stdout, "asked the renewer of release %s to retry it\n", o.Release)
	return ExitOK
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
	fs.BoolVar(&o.ChartPlainHTTP, "plain-http", false, "reach the OCI registry over plain HTTP")
	fs.BoolVar(&o.CreateNamespace, "create-namespace", false, "with --install: create the namespace if it does not exist")
	fs.BoolVar(&o.Install, "install", false, "install the release if it does not exist")
	fs.Var(atomicFlag{&o.OnFailure}, "atomic", "wait for the upgrade and roll back to the last deployed revision if it fails (default true)")
	fs.BoolVar(&o.Wait, "wait", false, "wait for resources to be ready even without --atomic")
	fs.BoolVar(&o.RecoverPending, "recover-pending", false,
		"roll back a pending-* revision this tool created that is older than --timeout plus "+rollout.RecoverGrace.String()+", then proceed")
	fs.DurationVar(&o.Timeout, "timeout", 5*time.Minute, "how long Helm waits for resources and a rollback")
	fs.DurationVar(&o.RenewBefore, "renew-before", 15*time.Minute, "renew the link when it expires within this")
	fs.DurationVar(&o.ReexportEvery, "reexport-every", 0, "with --watch and --domain: start a new export this often (0: never)")
	fs.BoolVar(&o.Watch, "watch", false, "keep running: renew the link before it expires and upgrade again")
	fs.DurationVar(&o.ExportTimeout, "export-timeout", client.DefaultPollTimeout, "give up waiting for the export job after this long (exit 1; the job goes on)")
	fs.BoolVar(&o.DryRun, "dry-run", false, "say what would change without upgrading")
	fs.IntVar(&o.MaxRetries, "max-retries", 10, "with --watch: failures in a row before the release is marked as needing attention and no longer retried (0: retry forever)")
	fs.StringVar(&o.Releases, "releases", "", "with --watch: keep every release of this YAML file fresh (a list under releases: of release, namespace, domain or jobId, version, chart, repo, chartVersion)")
	fs.StringVar(&o.Selector, "selector", "", "with --watch: keep every Helm release whose labels match this selector (e.g. docsadmin.io/fleet=docs) and whose values carry staticExport fresh; each names its export with the label "+LabelDomain+" or "+LabelJobID)
	fs.Func("namespaces", "with --selector: the namespaces to look in, comma-separated (default: --namespace)", func(s string) error {
		for n := range strings.SplitSeq(s, ",") {
			if n = strings.TrimSpace(n); n != "" {
				o.Namespaces = append(o.Namespaces, n)
			}
		}
		return nil
	})
	fs.StringVar(&o.NamespaceSelector, "namespace-selector", "", "with --selector: look in every namespace whose labels match this selector (needs the right to list namespaces)")
	fs.DurationVar(&o.Resync, "resync", defaultResync, "with --selector: how often to look for releases that joined or left the selection")
	fs.IntVar(&o.Parallel, "parallel", 4, "with --releases: how many releases may be exported and upgraded at once")
	fs.StringVar(&o.MetricsAddr, "metrics-addr", "", "with --watch: serve Prometheus metrics at /metrics on this address (empty: off)")
	fs.StringVar(&o.Drift, "drift", driftOff, "with --watch: when the release's objects differ from the release (an image edited, the bundle Secret deleted, scaled to zero): off, warn (log, Event, metric) or correct (upgrade to put them back)")
	fs.Func("drift-ignore", "with --drift: a field another controller owns, Kind:field or Kind/name:field, e.g. Deployment:spec.replicas for an autoscaler (repeatable)", func(s string) error {
		if err := rollout.CheckIgnoreRule(s); err != nil {
			return err
		}
		o.DriftIgnore = append(o.DriftIgnore, s)
		return nil
	})
	fs.BoolVar(&o.Retry, "retry", false, "ask the renewer watching --release, which gave up on it, to try again, and exit")
	log, code, ok := cmd.Parse(args)
	if !ok {
		return o, nil, code
	}
	bad := func(msg string) (Options, hclog.Logger, int) {
		return o, nil, cmd.Usagef("%s", msg)
	}
	if msg := fleetFlags(o); msg != "" {
		return bad(msg)
	}
	switch {
	case o.Release == "" && o.Releases == "" && o.Selector == "":
		return bad("--release is required (or --releases or --selector with --watch)")
	case o.Releases == "" && o.Selector == "" && !o.Retry && (o.Domain == "") == (o.JobID == ""):
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

// fleetFlags checks --releases, --retry and the flags only a watch takes,
// returning what is wrong or "".
func fleetFlags(o Options) string {
	perRelease := o.Release != "" || o.Domain != "" || o.JobID != "" || o.Version != "" ||
		o.Chart != "" || o.Install
	switch {
	case o.MaxRetries < 0:
		return "--max-retries must not be negative"
	case o.Parallel < 1:
		return "--parallel must be at least 1"
	case o.Retry && (o.Release == "" || o.Watch || o.Releases != "" || o.Domain != "" || o.JobID != ""):
		return "--retry takes --release (and --namespace) only: it asks the renewer watching it to try again"
	case o.Releases != "" && !o.Watch:
		return "--releases needs --watch"
	case o.Selector != "" && (!o.Watch || o.Releases != ""):
		return "--selector needs --watch, and takes the place of --releases"
	case o.Selector != "" && perRelease:
		return "--selector finds each release's domain or job in its labels: " +
			"do not combine it with --release, --domain, --job-id, --version, --chart or --install"
	case o.Selector == "" && (len(o.Namespaces) > 0 || o.NamespaceSelector != ""):
		return "--namespaces and --namespace-selector need --selector"
	case len(o.Namespaces) > 0 && o.NamespaceSelector != "":
		return "give one of --namespaces and --namespace-selector"
	case o.Resync <= 0:
		return "--resync must be positive"
	case o.Selector != "" && badSelector(o.Selector, o.NamespaceSelector) != "":
		return badSelector(o.Selector, o.NamespaceSelector)
	case o.Releases != "" && perRelease:
		return "--releases gives each release its own release, domain or jobId, version and chart: " +
			"do not combine it with --release, --domain, --job-id, --version, --chart or --install"
	case o.MetricsAddr != "" && !o.Watch:
		return "--metrics-addr needs --watch"
	case o.Drift != driftOff && o.Drift != driftWarn && o.Drift != driftCorrect:
		return "--drift must be off, warn or correct"
	case o.Drift != driftOff && !o.Watch:
		return "--drift needs --watch"
	case len(o.DriftIgnore) > 0 && o.Drift == driftOff:
		return "--drift-ignore needs --drift warn or correct"
	}
	return ""
}

// badSelector says what is wrong with the label selectors, or "".
func badSelector(release, namespace string) string {
	if _, err := labels.Parse(release); err != nil {
		return "--selector: " + err.Error()
	}
	if _, err := labels.Parse(namespace); err != nil {
		return "--namespace-selector: " + err.Error()
	}
	return ""
}

// atomicFlag is --atomic, a boolean flag that sets Request.OnFailure: true
// (the default) rolls a failed upgrade back, false keeps it.
type atomicFlag struct{ mode *rollout.OnFailure }

func (f atomicFlag) String() string {
	if f.mode == nil {
		return "true"
	}
	return strconv.FormatBool(*f.mode == rollout.RollBack)
}

func (f atomicFlag) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return errors.New("not a boolean")
	}
	*f.mode = rollout.Atomic(b)
	return nil
}

// IsBoolFlag lets --atomic stand alone, as a flag.BoolVar does.
func (atomicFlag) IsBoolFlag() bool { return true }
