package rolloutcmd

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/cli"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/client"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// flakyRoller fails its first n Apply calls, as a cluster that is briefly
// unreachable would.
type flakyRoller struct {
	Roller
	fails atomic.Int32
}

func (f *flakyRoller) Apply(ctx context.Context, req rollout.Request) (rollout.Result, error) {
	if f.fails.Add(-1) >= 0 {
		return rollout.Result{}, errors.New("connection refused")
	}
	return f.Roller.Apply(ctx, req)
}

// TestRollout_watchSurvivesErrorsAndReexports runs the watch loop through a
// cluster error, an API error and two re-exports, with a sleep that moves
// the server's clock: errors back off from five seconds and are retried,
// and every --reexport-every a new export job is started.
func TestRollout_watchSurvivesErrorsAndReexports(t *testing.T) {
	w := newWorld(t)
	// A proxy in front of the API that answers 503 to the second bundle
	// call; the client does not retry, so the loop sees the error.
	target, _ := url.Parse(w.env.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	var bundles atomic.Int32
	front := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/bundle") && bundles.Add(1) == 2 {
			http.Error(rw, `{"error":"maintenance"}`, http.StatusServiceUnavailable)
			return
		}
		proxy.ServeHTTP(rw, r)
	}))
	defer front.Close()
	api, err := client.New(client.Config{BaseURL: front.URL, APIKey: w.env.Key, MaxRetries: -1, Clock: w.env.Clock})
	if err != nil {
		t.Fatal(err)
	}
	roller := &flakyRoller{Roller: w.roller}
	roller.fails.Store(1)

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var out bytes.Buffer
	var waits []time.Duration
	startedAt := w.env.Clock.Now()
	r := &Runner{
		Opts: Options{Request: rollout.Request{Release: release, Install: true, Chart: chartPath, Timeout: time.Minute, OnFailure: rollout.KeepFailed},
			Domain: w.env.Domain, RenewBefore: 15 * time.Minute, ReexportEvery: 2 * time.Hour, Watch: true},
		API: api, Roller: roller, Clock: w.env.Clock, Out: &out, Log: hclog.NewNullLogger(),
		Recheck: 24 * time.Hour,
		Sleep: func(ctx context.Context, d time.Duration) error {
			waits = append(waits, d)
			if w.env.Clock.Now().After(startedAt.Add(5 * time.Hour)) {
				cancel()
				return ctx.Err()
			}
			w.env.Clock.Advance(d)
			return nil
		},
	}
	if code := r.Run(ctx); code != ExitOK {
		t.Fatalf("watch exit %d:\n%s", code, out.String())
	}
	log := out.String()
	if waits[0] != minBackoff || !strings.Contains(log, "connection refused") {
		t.Fatalf("the cluster error was not retried after %s: waits %v\n%s", minBackoff, waits, log)
	}
	if !strings.Contains(log, "maintenance") {
		t.Fatalf("the API error never reached the loop:\n%s", log)
	}
	if n := strings.Count(log, "started export"); n < 3 {
		t.Fatalf("%d exports in five hours with --reexport-every 2h:\n%s", n, log)
	}
	if s := w.state(t); !s.LinkValid(w.env.Clock.Now(), 0) {
		t.Fatalf("watch left no live link: %+v", s)
	}
}

// TestCommand_watchStopsOnSIGTERM runs the real subcommand, flags and
// environment included, and stops it with SIGTERM once it has installed
// the release.
func TestCommand_watchStopsOnSIGTERM(t *testing.T) {
	w := newWorld(t)
	t.Setenv("DOCSADMIN_BASE_URL", w.env.URL)
	t.Setenv("DOCSADMIN_API_KEY", w.env.Key)
	var out, errs testutil.SyncBuffer
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("stdout:\n%s\nstderr:\n%s", out.String(), errs.String())
		}
	})
	done := make(chan int, 1)
	go func() {
		done <- Command(context.Background(), []string{"--release", release, "--namespace", namespace,
			"--kubeconfig", w.kubeconfig, "--domain", w.env.Domain, "--install", "--chart", chartPath,
			"--atomic=false", "--watch"}, &out, &errs)
	}()
	testutil.Eventually(t, 60*time.Second, "the release to be installed", func() bool {
		select {
		case code := <-done:
			t.Fatalf("exited %d before installing", code)
		default:
		}
		return strings.Contains(out.String(), "installed release docs: revision 1")
	})
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-done:
		if code != ExitOK || !strings.Contains(out.String(), "stopped") {
			t.Fatalf("exit %d after SIGTERM:\n%s", code, out.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("still running 30s after SIGTERM")
	}
}

func TestCommand_usage(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"--release", "docs"},
		{"--release", "docs", "--domain", "d", "--job-id", "j"},
		{"--release", "docs", "--domain", "d", "--reexport-every", "1h"},
		{"--release", "docs", "--job-id", "j", "--install"},
		{"--release", "docs", "--domain", "d", "--renew-before", "-1m"},
		{"--release", "docs", "--domain", "d", "--export-timeout", "0s"},
		{"--release", "docs", "--domain", "d", "--log-level", "loud"},
		{"--release", "docs", "--domain", "d", "stray"},
		{"--release", "docs", "--domain", "d", "--repo", "http://127.0.0.1:1"},
		{"--release", "docs", "--domain", "d", "--chart-version", "1.0.0"},
		{"--release", "docs", "--domain", "d", "--chart", "c", "--create-namespace"},
	} {
		var out, errs bytes.Buffer
		if code := Command(context.Background(), args, &out, &errs); code != ExitUsage || errs.Len() == 0 {
			t.Errorf("%q: exit %d, stderr %q", args, code, errs.String())
		}
	}
}

// A bad DOCSADMIN_LOG_LEVEL is a usage error naming the variable, reported
// before anything is contacted.
func TestCommand_badLogLevelInEnvironment(t *testing.T) {
	t.Setenv(cli.EnvLogLevel, "loud")
	t.Setenv(cli.EnvBaseURL, "http://127.0.0.1:1")
	t.Setenv(cli.EnvAPIKey, "dak_0123456789abcdef")
	var out, errs bytes.Buffer
	code := Command(context.Background(), []string{"--release", "docs", "--domain", "d"}, &out, &errs)
	if code != ExitUsage || !strings.Contains(errs.String(), cli.EnvLogLevel) {
		t.Fatalf("exit %d, stderr %q; want 2 naming %s", code, errs.String(), cli.EnvLogLevel)
	}
}

func TestCommand_inClusterWithKubeconfigIsUsage(t *testing.T) {
	var out, errs bytes.Buffer
	code := Command(context.Background(), []string{"--release", "docs", "--domain", "d", "--in-cluster", "--kubeconfig", "k"}, &out, &errs)
	if code != ExitUsage || !strings.Contains(errs.String(), "--in-cluster") {
		t.Fatalf("exit %d, stderr %q", code, errs.String())
	}
}

func TestKubeConfig_inClusterInsideAPod(t *testing.T) {
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}
	pod := map[string]string{"KUBERNETES_SERVICE_HOST": "10.0.0.1"}
	for _, tc := range []struct {
		name string
		o    Options
		env  map[string]string
		want bool
	}{
		{"flag", Options{InCluster: true}, nil, true},
		{"in a pod", Options{}, pod, true},
		{"in a pod with --kubeconfig", Options{Kubeconfig: "k"}, pod, false},
		{"in a pod with --kube-context", Options{KubeContext: "c"}, pod, false},
		{"in a pod with KUBECONFIG", Options{}, map[string]string{"KUBERNETES_SERVICE_HOST": "10.0.0.1", "KUBECONFIG": "k"}, false},
		{"outside a pod", Options{}, nil, false},
	} {
		if got := kubeConfig(tc.o, env(tc.env)).InCluster; got != tc.want {
			t.Errorf("%s: in-cluster = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// Inside a pod without a kubeconfig the command goes for the service
// account; here, outside a pod, that fails naming in-cluster configuration.
func TestCommand_inClusterAutomaticInsideAPod(t *testing.T) {
	t.Setenv("KUBERNETES_SERVICE_HOST", "127.0.0.1")
	t.Setenv("KUBERNETES_SERVICE_PORT", "1")
	t.Setenv("KUBECONFIG", "")
	t.Setenv(cli.EnvBaseURL, "http://127.0.0.1:1")
	t.Setenv(cli.EnvAPIKey, "dak_0123456789abcdef")
	if _, err := os.Stat("/var/run/secrets/kubernetes.io/serviceaccount/token"); err == nil {
		t.Skip("running inside a pod")
	}
	var out, errs bytes.Buffer
	code := Command(context.Background(), []string{"--release", "docs", "--domain", "d"}, &out, &errs)
	if code != ExitFailed || !strings.Contains(errs.String(), "in-cluster configuration") {
		t.Fatalf("exit %d, stderr %q; want 1 from the in-cluster configuration", code, errs.String())
	}
}

// forbiddenRoller is a release this process may not read or upgrade, as
// with a releases-file entry in a namespace its RBAC does not cover.
type forbiddenRoller struct{}

func (forbiddenRoller) Apply(context.Context, rollout.Request) (rollout.Result, error) {
	return rollout.Result{}, errors.New(`secrets is forbidden: User "renewer" cannot list resource "secrets" in namespace "elsewhere"`)
}

func (forbiddenRoller) Current(context.Context, string) (*rollout.State, error) {
	return nil, errors.New(`secrets is forbidden: User "renewer" cannot list resource "secrets" in namespace "elsewhere"`)
}

// TestWatch_readsTheReleaseBeforeExporting: a watch loop over a release it
// may not read fails on the release, as often as it retries, without
// starting an export it could never roll out.
func TestWatch_readsTheReleaseBeforeExporting(t *testing.T) {
	var starts atomic.Int32
	env := apiservertest.Start(t, apiservertest.WithMiddleware(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost && r.URL.Path == "/v1/static-export/jobs" {
				starts.Add(1)
			}
			next.ServeHTTP(w, r)
		})
	}))
	api, err := client.New(client.Config{BaseURL: env.URL, APIKey: env.Key, Clock: env.Clock})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var out testutil.SyncBuffer
	sleeps := 0
	r := &Runner{
		Opts: Options{Request: rollout.Request{Release: release, Chart: chartPath}, Namespace: "elsewhere",
			Domain: env.Domain, RenewBefore: 15 * time.Minute, Watch: true, MaxRetries: 3},
		API: api, Roller: forbiddenRoller{}, Clock: env.Clock, Out: &out, Log: hclog.NewNullLogger(),
		Sleep: func(ctx context.Context, d time.Duration) error {
			if sleeps++; sleeps == 3 {
				cancel()
				return ctx.Err()
			}
			env.Clock.Advance(d)
			return nil
		},
	}
	r.Run(ctx)
	if !strings.Contains(out.String(), "forbidden") {
		t.Fatalf("the refusal was not reported:\n%s", out.String())
	}
	if n := starts.Load(); n != 0 {
		t.Fatalf("%d exports started for a release the renewer may not read:\n%s", n, out.String())
	}
}
