package rolloutcmd

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/client"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/kubetest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// driftNS is the namespace of the drift tests on the cluster.
const driftNS = "docs-drift-cli"

// driftStep is one turn of the watch loop: check looks at the cluster
// after the loop's last cycle, then change edits it by hand as a person
// would before the next cycle.
type driftStep struct {
	name   string
	check  func(t *testing.T, s *rollout.State)
	change func(ctx context.Context, t *testing.T)
}

// watchOnCluster runs `rollout --watch` with args (the command's own
// flags, parsed as the command parses them) on the cluster's release,
// in-process: the Runner the command builds, with the Roller it builds
// from --kubeconfig. Between cycles the loop's sleep plays steps in turn
// instead of sleeping (the loop is due again within the Sleep it asks
// for, at most --recheck's minute), and it stops after the last one. Each
// cycle after a change must end within a minute of wall time.
func watchOnCluster(t *testing.T, env *apiservertest.Env, kubeconfig string, args []string, steps []driftStep) string {
	t.Helper()
	opts, log, code := parseFlags(append([]string{"--watch", "--release", release, "--namespace", driftNS,
		"--kubeconfig", kubeconfig, "--domain", env.Domain, "--install", "--chart", chartPath, "--atomic=false",
		"--timeout", "1m", "--log-level", "error"}, args...), io.Discard)
	if code >= 0 {
		t.Fatalf("flags %q: exit %d", args, code)
	}
	roller, err := rollout.New(kubeConfig(opts, func(string) string { return "" }), log)
	if err != nil {
		t.Fatal(err)
	}
	api, err := client.New(client.Config{BaseURL: env.URL, APIKey: env.Key, Clock: env.Clock})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	out := &testutil.SyncBuffer{}
	turn, changed := 0, time.Time{}
	r := &Runner{Opts: opts, API: api, Roller: roller, Clock: env.Clock, Out: out, Log: log,
		Sleep: func(ctx context.Context, d time.Duration) error {
			if d > recheck {
				t.Errorf("the loop asked to sleep %s: drift would wait longer than --recheck's %s", d, recheck)
			}
			if !changed.IsZero() {
				if took := time.Since(changed); took > time.Minute {
					t.Errorf("step %q: the cycle after the change took %s", steps[turn-1].name, took)
				}
			}
			if turn == len(steps) {
				cancel()
				return ctx.Err()
			}
			s, err := roller.Current(ctx, release)
			if err != nil {
				t.Fatal(err)
			}
			st := steps[turn]
			turn++
			if st.check != nil {
				st.check(t, s)
			}
			if st.change != nil {
				st.change(ctx, t)
			}
			changed = time.Now()
			return nil
		}}
	if code := r.Run(ctx); code != ExitOK || turn != len(steps) {
		t.Fatalf("exit %d after %d of %d steps\n%s", code, turn, len(steps), out.String())
	}
	if t.Failed() {
		t.Logf("output:\n%s", out.String())
	}
	return out.String()
}

// driftEdits are the hand edits of the drift tests.
type driftEdits struct {
	cs kubernetes.Interface
}

func (e driftEdits) image(ctx context.Context, t *testing.T) {
	t.Helper()
	if _, err := e.cs.AppsV1().Deployments(driftNS).Patch(ctx, workload, types.StrategicMergePatchType,
		[]byte(`{"spec":{"template":{"spec":{"containers":[{"name":"serve-bundle","image":"example.com/other:latest"}]}}}}`),
		metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
}

func (e driftEdits) scaleToZero(ctx context.Context, t *testing.T) {
	t.Helper()
	if _, err := e.cs.AppsV1().Deployments(driftNS).Patch(ctx, workload, types.MergePatchType,
		[]byte(`{"spec":{"replicas":0}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
}

func (e driftEdits) deleteSecret(ctx context.Context, t *testing.T) {
	t.Helper()
	if err := e.cs.CoreV1().Secrets(driftNS).Delete(ctx, secret, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
}

// live reads the Deployment's image and replicas and whether the bundle
// Secret exists with a link.
func (e driftEdits) live(t *testing.T) (image string, replicas int32, link bool) {
	t.Helper()
	dep, err := e.cs.AppsV1().Deployments(driftNS).Get(t.Context(), workload, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range dep.Spec.Template.Spec.Containers {
		if c.Name == "serve-bundle" {
			image = c.Image
		}
	}
	replicas = 1
	if dep.Spec.Replicas != nil {
		replicas = *dep.Spec.Replicas
	}
	sec, err := e.cs.CoreV1().Secrets(driftNS).Get(t.Context(), secret, metav1.GetOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		t.Fatal(err)
	}
	return image, replicas, err == nil && strings.HasPrefix(string(sec.Data["bundleUrl"]), "http")
}

// driftEvents returns the messages of the StaticExportDrift Events on the
// release's Deployment.
func (e driftEdits) driftEvents(t *testing.T) []string {
	t.Helper()
	evs, err := e.cs.CoreV1().Events(driftNS).List(t.Context(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, ev := range evs.Items {
		if ev.Reason == reasonDrift && ev.InvolvedObject.Kind == "Deployment" && ev.InvolvedObject.Name == workload &&
			ev.Type == corev1.EventTypeWarning {
			out = append(out, ev.Message)
		}
	}
	return out
}

// TestWatch_driftOnCluster runs `rollout --watch --drift correct
// --drift-ignore Deployment:spec.replicas` and then `--drift warn` on a
// real kube-apiserver with a kwok node, through the command's flags and
// watch loop. With correct, an edited image and a deleted bundle Secret
// are each put back by the next cycle (a new revision each; the Secret
// comes back with its link), while a Deployment scaled to zero is left
// alone under the ignore rule (an autoscaler's field): no report, no
// revision. With warn, the same edits (the replicas now reported) are
// printed and recorded as Warning Events on the Deployment, and nothing on
// the cluster changes: no revision, the image, replicas and missing
// Secret stay as the person left them.
func TestWatch_driftOnCluster(t *testing.T) {
	c := kubetest.Start(t, kubetest.WithNodes())
	t.Setenv("KUBECACHEDIR", t.TempDir())
	e := driftEdits{cs: c.Namespace(t, driftNS)}
	env := apiservertest.Start(t)
	const (
		imageDrift   = "Deployment/" + workload + ": spec.template.spec.containers[serve-bundle].image is example.com/other:latest"
		secretDrift  = "Secret/" + secret + " is missing (the release has it)"
		replicaDrift = "Deployment/" + workload + ": spec.replicas is 0, the release says 1"
	)
	var installed, imageFixed int
	log := watchOnCluster(t, env, c.Kubeconfig, []string{"--drift", "correct", "--drift-ignore", "Deployment:spec.replicas"}, []driftStep{
		{name: "image edited", check: func(_ *testing.T, s *rollout.State) { installed = s.Revision }, change: e.image},
		{name: "bundle Secret deleted", check: func(t *testing.T, s *rollout.State) {
			imageFixed = s.Revision
			if img, _, _ := e.live(t); strings.Contains(img, "example.com/other") || s.Revision != installed+1 {
				t.Errorf("correct: image %s at revision %d after the edit of revision %d; want it put back by a new revision",
					img, s.Revision, installed)
			}
		}, change: e.deleteSecret},
		{name: "scaled to zero", check: func(t *testing.T, s *rollout.State) {
			if _, _, link := e.live(t); !link || s.Revision != imageFixed+1 {
				t.Errorf("correct: bundle Secret back with a link %v, revision %d; want it back in revision %d", link, s.Revision, imageFixed+1)
			}
		}, change: e.scaleToZero},
		{name: "replicas left to the autoscaler", check: func(t *testing.T, s *rollout.State) {
			if _, n, _ := e.live(t); n != 0 || s.Revision != imageFixed+1 {
				t.Errorf("correct with the replicas ignored: %d replicas, revision %d; want 0 and no new revision (%d)",
					n, s.Revision, imageFixed+1)
			}
		}},
	})
	for _, want := range []string{"correcting drift: " + imageDrift, "correcting drift: " + secretDrift} {
		if !strings.Contains(log, want) {
			t.Errorf("correct: no %q in\n%s", want, log)
		}
	}
	if strings.Contains(log, "spec.replicas") {
		t.Errorf("correct: the ignored replicas were reported:\n%s", log)
	}
	if len(e.driftEvents(t)) < 2 {
		t.Errorf("correct: drift Events on the Deployment %q, want one per correction", e.driftEvents(t))
	}

	// The same release under --drift warn: reported, never changed. (Its
	// first cycle exports again and upgrades to the new link, which puts
	// the replicas back; the edits come after it.)
	before := len(e.driftEvents(t))
	var rev int
	log = watchOnCluster(t, env, c.Kubeconfig, []string{"--drift", "warn"}, []driftStep{
		{name: "image edited, scaled to zero, Secret deleted", check: func(_ *testing.T, s *rollout.State) { rev = s.Revision },
			change: func(ctx context.Context, t *testing.T) {
				e.image(ctx, t)
				e.scaleToZero(ctx, t)
				e.deleteSecret(ctx, t)
			}},
		{name: "left as it is", check: func(t *testing.T, s *rollout.State) {
			if img, n, link := e.live(t); !strings.Contains(img, "example.com/other") || n != 0 || link || s.Revision != rev {
				t.Errorf("warn changed the cluster: image %s, %d replicas, Secret %v, revision %d (was %d)", img, n, link, s.Revision, rev)
			}
		}},
	})
	for _, want := range []string{replicaDrift, imageDrift, secretDrift} {
		if !strings.Contains(log, want) || !strings.Contains(log, "drift (not corrected, --drift warn): ") {
			t.Errorf("warn: %q not reported in\n%s", want, log)
		}
	}
	if strings.Contains(log, "correcting") {
		t.Errorf("warn corrected:\n%s", log)
	}
	if evs := e.driftEvents(t); len(evs) <= before || !strings.Contains(strings.Join(evs, "\n"), "objects differ from the release") {
		t.Errorf("warn: no new drift Event on the Deployment: %q", evs)
	}
}
