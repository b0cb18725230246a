package rolloutcmd

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundleserve"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/client"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/kubetest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
)

const (
	chartPath = "../../examples/self-hosted-chart"
	release   = "docs"
	namespace = "docs-cli"
	secret    = "docs-docsadmin-self-hosted-bundle"
	workload  = "docs-docsadmin-self-hosted"
)

type world struct {
	env        *apiservertest.Env
	kubeconfig string
	cs         kubernetes.Interface
	roller     *rollout.Roller
	api        *client.Client
}

// newWorld starts the reference API server and a real kube-apiserver with
// an empty namespace; opts shape the cluster (kubetest.WithNodes for one
// whose pods turn Ready).
func newWorld(t *testing.T, opts ...kubetest.Option) *world {
	t.Helper()
	c := kubetest.Start(t, opts...)
	t.Setenv("KUBECACHEDIR", t.TempDir())
	cs := c.Namespace(t, namespace)
	roller, err := rollout.New(rollout.Config{Kubeconfig: c.Kubeconfig, Context: c.Context, Namespace: namespace}, hclog.NewNullLogger())
	if err != nil {
		t.Fatal(err)
	}
	env := apiservertest.Start(t)
	api, err := client.New(client.Config{BaseURL: env.URL, APIKey: env.Key, Clock: env.Clock})
	if err != nil {
		t.Fatal(err)
	}
	return &world{env: env, kubeconfig: c.Kubeconfig, cs: cs, roller: roller, api: api}
}

// run executes the command with opts on top of sensible test defaults; the
// cluster runs no pods, so nothing may wait for readiness.
func (w *world) run(t *testing.T, opts Options) (int, string) {
	t.Helper()
	var out bytes.Buffer
	if opts.Release == "" {
		opts.Release = release
	}
	if opts.RenewBefore == 0 {
		opts.RenewBefore = 15 * time.Minute
	}
	opts.Timeout = time.Minute
	r := &Runner{Opts: opts, API: w.api, Roller: w.roller, Clock: w.env.Clock, Out: &out, Log: hclog.NewNullLogger()}
	code := r.Run(t.Context())
	return code, out.String()
}

func (w *world) state(t *testing.T) *rollout.State {
	t.Helper()
	s, err := w.roller.Current(t.Context(), release)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestRollout_cli walks the life of a release: install, a cron run that
// changes nothing, a renewal near expiry that touches only the Secret, a
// hand-made drift that is corrected, a dry run, and the exit codes.
func TestRollout_cli(t *testing.T) {
	w := newWorld(t)
	ctx := t.Context()

	if code, out := w.run(t, Options{Request: rollout.Request{OnFailure: rollout.KeepFailed}, Domain: w.env.Domain}); code != ExitNeedsPerson || !strings.Contains(out, "not found") {
		t.Fatalf("missing release: %d %s", code, out)
	}
	code, out := w.run(t, Options{Request: rollout.Request{Install: true, Chart: chartPath, OnFailure: rollout.KeepFailed}, Domain: w.env.Domain})
	if code != ExitOK || !strings.Contains(out, "installed release docs: revision 1") || !strings.Contains(out, "export se_") {
		t.Fatalf("install: %d %s", code, out)
	}
	first := w.state(t)
	if !first.Enabled || first.Version == "" || first.ExpiresAt.IsZero() {
		t.Fatalf("after install: %+v", first)
	}
	gen := w.generation(ctx, t)
	site := w.serveBundle(t)
	if v := site.check(ctx, t); v != first.Version {
		t.Fatalf("serve-bundle serves %q, release %q", v, first.Version)
	}

	// A cron run a few minutes later: the same content exports to the same
	// version and the link is fresh, so no revision.
	w.env.Clock.Advance(5 * time.Minute)
	if code, out := w.run(t, Options{Request: rollout.Request{OnFailure: rollout.KeepFailed}, Domain: w.env.Domain}); code != ExitOK || !strings.Contains(out, "nothing to do") {
		t.Fatalf("cron run: %d %s", code, out)
	}
	if s := w.state(t); s.Revision != 1 {
		t.Fatalf("cron run made revision %d", s.Revision)
	}

	// Near expiry the same job's link is renewed: a new revision whose
	// Secret changes while the pod template does not.
	job := jobOf(t, first.BundleURL)
	w.env.Clock.Advance(50 * time.Minute)
	if code, out := w.run(t, Options{Request: rollout.Request{OnFailure: rollout.KeepFailed}, JobID: job}); code != ExitOK || !strings.Contains(out, "revision 2") {
		t.Fatalf("renewal: %d %s", code, out)
	}
	renewed := w.state(t)
	if renewed.BundleURL == first.BundleURL || renewed.Version != first.Version || !renewed.ExpiresAt.After(first.ExpiresAt) {
		t.Fatalf("renewed state %+v vs %+v", renewed, first)
	}
	if got := w.secretURL(ctx, t); got != renewed.BundleURL {
		t.Fatal("secret does not hold the renewed link")
	}
	if g := w.generation(ctx, t); g != gen {
		t.Fatalf("renewing the link changed the pod template (%s): the pods would restart", g)
	}

	// Drift: someone pins another version by hand; the next run corrects it.
	_, err := w.roller.Apply(ctx, rollout.Request{Release: release, OnFailure: rollout.KeepFailed, BundleURL: renewed.BundleURL,
		Version: "pinned-by-hand", ExpiresAt: renewed.ExpiresAt})
	if err != nil {
		t.Fatal(err)
	}
	if code, out := w.run(t, Options{Request: rollout.Request{OnFailure: rollout.KeepFailed}, JobID: job}); code != ExitOK || !strings.Contains(out, "revision 4") {
		t.Fatalf("drift correction: %d %s", code, out)
	}
	if s := w.state(t); s.Version != first.Version {
		t.Fatalf("drift not corrected: %+v", s)
	}

	// A dry run says what it would do and does nothing.
	w.env.Clock.Advance(55 * time.Minute)
	if code, out := w.run(t, Options{Request: rollout.Request{OnFailure: rollout.KeepFailed}, JobID: job, DryRun: true}); code != ExitOK || !strings.Contains(out, "dry run: would upgrade") {
		t.Fatalf("dry run: %d %s", code, out)
	}
	if s := w.state(t); s.Revision != 4 {
		t.Fatalf("dry run made revision %d", s.Revision)
	}

	// New content: a new revision whose Secret alone changes. The
	// Deployment keeps its generation, so no pod restarts, and serve-bundle
	// reading the refreshed Secret serves the new site.
	job2 := w.env.StartExportAndWait(t, api.StartExportRequest{Domain: w.env.Domain, Paths: []string{"index", "quickstart"}})
	if code, out := w.run(t, Options{Request: rollout.Request{OnFailure: rollout.KeepFailed}, JobID: job2.JobID}); code != ExitOK || !strings.Contains(out, "revision 5") {
		t.Fatalf("new content: %d %s", code, out)
	}
	fresh := w.state(t)
	if fresh.Version == first.Version {
		t.Fatalf("new content kept version %s", fresh.Version)
	}
	if g := w.generation(ctx, t); g != gen {
		t.Fatalf("new content changed the pod template from %s to %s: the pods would restart", gen, g)
	}
	if v := site.check(ctx, t); v != fresh.Version {
		t.Fatalf("serve-bundle serves %q after new content, want %q", v, fresh.Version)
	}

	if code, out := w.run(t, Options{Request: rollout.Request{OnFailure: rollout.KeepFailed}, Domain: w.env.FailDomain}); code != ExitExportFailed || !strings.Contains(out, "docs.json") {
		t.Fatalf("failing export: %d %s", code, out)
	}
}

// TestRollout_watch runs the watch loop with a sleep that moves the
// server's clock instead of waiting: every wake-up lands in the renewal
// window, so each cycle renews the link and upgrades once.
func TestRollout_watch(t *testing.T) {
	w := newWorld(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var out bytes.Buffer
	cycles := 0
	r := &Runner{
		Opts: Options{Request: rollout.Request{Release: release, Install: true, Chart: chartPath, Timeout: time.Minute, OnFailure: rollout.KeepFailed},
			Domain: w.env.Domain, RenewBefore: 15 * time.Minute, Watch: true},
		API: w.api, Roller: w.roller, Clock: w.env.Clock, Out: &out, Log: hclog.NewNullLogger(),
		Recheck: 24 * time.Hour,
		Sleep: func(ctx context.Context, d time.Duration) error {
			cycles++
			if cycles == 4 {
				cancel()
				return ctx.Err()
			}
			w.env.Clock.Advance(d)
			return nil
		},
	}
	if code := r.Run(ctx); code != ExitOK {
		t.Fatalf("watch exit %d: %s", code, out.String())
	}
	s := w.state(t)
	// Install, then one renewal at each of the three wake-ups before the
	// fourth sleep stops the loop.
	if s.Revision != 4 || !strings.Contains(out.String(), "stopped") {
		t.Fatalf("after watch: revision %d\n%s", s.Revision, out.String())
	}
	if !s.LinkValid(w.env.Clock.Now(), 0) {
		t.Fatalf("watch left an expired link: %+v", s)
	}
}

func (w *world) secretURL(ctx context.Context, t *testing.T) string {
	t.Helper()
	sec, err := w.cs.CoreV1().Secrets(namespace).Get(ctx, secret, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return string(sec.Data["bundleUrl"])
}

func (w *world) generation(ctx context.Context, t *testing.T) string {
	t.Helper()
	dep, err := w.cs.AppsV1().Deployments(namespace).Get(ctx, workload, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return kubetest.TemplateFingerprint(dep)
}

// podSite is serve-bundle as the chart runs it, with the test playing the
// kubelet: check copies the bundle Secret's keys into the mounted files and
// lets serve-bundle look at them, as its loop does every --check-interval.
type podSite struct {
	w      *world
	secret string
	srv    *bundleserve.Server
}

func (w *world) serveBundle(t *testing.T) *podSite {
	t.Helper()
	dir := t.TempDir()
	srv, err := bundleserve.New(bundleserve.Options{URLFile: filepath.Join(dir, "bundleUrl"),
		PinVersionFile: filepath.Join(dir, "version"), DataDir: filepath.Join(dir, "data")})
	if err != nil {
		t.Fatal(err)
	}
	return &podSite{w: w, secret: dir, srv: srv}
}

// check returns the content version served after the Secret's current keys
// were picked up.
func (p *podSite) check(ctx context.Context, t *testing.T) string {
	t.Helper()
	sec, err := p.w.cs.CoreV1().Secrets(namespace).Get(ctx, secret, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"bundleUrl", "version"} {
		if err := os.WriteFile(filepath.Join(p.secret, k), sec.Data[k], 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.srv.Update(ctx); err != nil {
		t.Fatalf("serve-bundle: %v", err)
	}
	return p.srv.Version()
}

// jobOf takes the job id out of a reference-server link (test knowledge of
// the link layout, not something the command relies on).
func jobOf(t *testing.T, link string) string {
	t.Helper()
	i := strings.Index(link, "/bundles/")
	if i < 0 {
		t.Fatalf("unexpected link layout")
	}
	return strings.SplitN(link[i+len("/bundles/"):], "/", 2)[0]
}
