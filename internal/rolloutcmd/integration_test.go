package rolloutcmd

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
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
// an empty namespace.
func newWorld(t *testing.T) *world {
	t.Helper()
	c := kubetest.Start(t)
	t.Setenv("KUBECACHEDIR", t.TempDir())
	rc, err := clientcmd.BuildConfigFromFlags("", c.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	cs := kubernetes.NewForConfigOrDie(rc)
	if _, err := cs.CoreV1().Namespaces().Create(t.Context(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
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

	if code, out := w.run(t, Options{Domain: w.env.Domain, Atomic: false}); code != ExitNeedsPerson || !strings.Contains(out, "not found") {
		t.Fatalf("missing release: %d %s", code, out)
	}
	code, out := w.run(t, Options{Domain: w.env.Domain, Install: true, Chart: chartPath})
	if code != ExitOK || !strings.Contains(out, "installed release docs: revision 1") || !strings.Contains(out, "export se_") {
		t.Fatalf("install: %d %s", code, out)
	}
	first := w.state(t)
	if !first.Enabled || first.Version == "" || first.ExpiresAt.IsZero() {
		t.Fatalf("after install: %+v", first)
	}
	annotation := w.podVersion(ctx, t)
	if annotation != first.Version {
		t.Fatalf("pod template carries %q, release %q", annotation, first.Version)
	}

	// A cron run a few minutes later: the same content exports to the same
	// version and the link is fresh, so no revision.
	w.env.Clock.Advance(5 * time.Minute)
	if code, out := w.run(t, Options{Domain: w.env.Domain}); code != ExitOK || !strings.Contains(out, "nothing to do") {
		t.Fatalf("cron run: %d %s", code, out)
	}
	if s := w.state(t); s.Revision != 1 {
		t.Fatalf("cron run made revision %d", s.Revision)
	}

	// Near expiry the same job's link is renewed: a new revision whose
	// Secret changes while the pod template does not.
	job := jobOf(t, first.BundleURL)
	w.env.Clock.Advance(50 * time.Minute)
	if code, out := w.run(t, Options{JobID: job}); code != ExitOK || !strings.Contains(out, "revision 2") {
		t.Fatalf("renewal: %d %s", code, out)
	}
	renewed := w.state(t)
	if renewed.BundleURL == first.BundleURL || renewed.Version != first.Version || !renewed.ExpiresAt.After(first.ExpiresAt) {
		t.Fatalf("renewed state %+v vs %+v", renewed, first)
	}
	if got := w.secretURL(ctx, t); got != renewed.BundleURL {
		t.Fatal("secret does not hold the renewed link")
	}
	if w.podVersion(ctx, t) != annotation {
		t.Fatal("renewing the link changed the pod template")
	}

	// Drift: someone pins another version by hand; the next run corrects it.
	_, err := w.roller.Apply(ctx, rollout.Request{Release: release, NonAtomic: true, BundleURL: renewed.BundleURL,
		Version: "pinned-by-hand", ExpiresAt: renewed.ExpiresAt})
	if err != nil {
		t.Fatal(err)
	}
	if code, out := w.run(t, Options{JobID: job}); code != ExitOK || !strings.Contains(out, "revision 4") {
		t.Fatalf("drift correction: %d %s", code, out)
	}
	if s := w.state(t); s.Version != first.Version {
		t.Fatalf("drift not corrected: %+v", s)
	}

	// A dry run says what it would do and does nothing.
	w.env.Clock.Advance(55 * time.Minute)
	if code, out := w.run(t, Options{JobID: job, DryRun: true}); code != ExitOK || !strings.Contains(out, "dry run: would upgrade") {
		t.Fatalf("dry run: %d %s", code, out)
	}
	if s := w.state(t); s.Revision != 4 {
		t.Fatalf("dry run made revision %d", s.Revision)
	}

	if code, out := w.run(t, Options{Domain: w.env.FailDomain}); code != ExitExportFailed || !strings.Contains(out, "docs.json") {
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
		Opts: Options{Release: release, Domain: w.env.Domain, Install: true, Chart: chartPath,
			RenewBefore: 15 * time.Minute, Timeout: time.Minute, Watch: true},
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

func (w *world) podVersion(ctx context.Context, t *testing.T) string {
	t.Helper()
	dep, err := w.cs.AppsV1().Deployments(namespace).Get(ctx, workload, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return dep.Spec.Template.Annotations["docsadmin.dev/bundle-version"]
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
