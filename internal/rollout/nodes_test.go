package rollout

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/kubetest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

const workload = "docs-docsadmin-self-hosted"

// nodesWorld is a release of the reference chart on a cluster whose pods
// turn Ready (kwok), shared by the subtests of one test to start one
// cluster.
type nodesWorld struct {
	c  *kubetest.Cluster
	cs kubernetes.Interface
	r  *Roller
	ns string
}

func newNodesWorld(t *testing.T, c *kubetest.Cluster, ns string) *nodesWorld {
	t.Helper()
	cs := c.Namespace(t, ns)
	r, err := New(Config{Kubeconfig: c.Kubeconfig, Context: c.Context, Namespace: ns}, hclog.New(&hclog.LoggerOptions{Level: hclog.Debug, Output: tWriter{t}}))
	if err != nil {
		t.Fatal(err)
	}
	return &nodesWorld{c: c, cs: cs, r: r, ns: ns}
}

func (w *nodesWorld) deployment(t *testing.T) *appsv1.Deployment {
	t.Helper()
	d, err := w.cs.AppsV1().Deployments(w.ns).Get(context.Background(), workload, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// ready reports whether every replica of the current template is Ready.
func ready(d *appsv1.Deployment) bool {
	want := int32(1)
	if d.Spec.Replicas != nil {
		want = *d.Spec.Replicas
	}
	return d.Status.ObservedGeneration >= d.Generation && d.Status.UpdatedReplicas == want &&
		d.Status.ReadyReplicas == want && d.Status.Replicas == want
}

// badChart is the reference chart as a broken new version: its pods select
// a node label no node has, so they are never scheduled.
func badChart(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "docsadmin-self-hosted")
	if err := os.CopyFS(dir, os.DirFS(chartPath)); err != nil {
		t.Fatal(err)
	}
	edit := func(name, old, repl string) {
		p := filepath.Join(dir, name)
		b, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(b), old) {
			t.Fatalf("%s: %q not found (%v)", name, old, err)
		}
		if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, repl, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit("Chart.yaml", "version: 0.1.0", "version: 0.1.1-bad")
	edit("values.yaml", "nodeSelector: {}", "nodeSelector: {disktype: no-such-disk}")
	return dir
}

// TestNodes_waitAndAtomicRollback pins --wait and atomic mode on a cluster
// that runs pods: an install is reported only once its pods are Ready; an
// upgrade whose pods can never schedule times out, is rolled back and
// leaves the release deployed with Helm's reason in the error; and an
// interrupt during that wait returns within seconds, rolled back too.
func TestNodes_waitAndAtomicRollback(t *testing.T) {
	c := kubetest.Start(t, kubetest.WithNodes())
	t.Setenv("KUBECACHEDIR", t.TempDir())
	w := newNodesWorld(t, c, "docs-nodes")
	bad := badChart(t)

	req := request()
	req.Install, req.Chart, req.Timeout = true, chartPath, time.Minute
	res, err := w.r.Apply(t.Context(), req)
	if err != nil {
		t.Fatalf("install: %v", err)
	}
	// Read once, right after Apply returned: no polling, so this proves the
	// wait, not that the pods got Ready eventually.
	if d := w.deployment(t); !ready(d) || res.Status != "deployed" || res.Revision != 1 {
		t.Fatalf("install returned %+v with the deployment at %+v", res, d.Status)
	}

	t.Run("timeout rolls back", func(t *testing.T) {
		req := request()
		req.Chart, req.Version, req.Timeout = bad, "v-bad", 4*time.Second
		_, err := w.r.Apply(t.Context(), req)
		if err == nil {
			t.Fatal("the upgrade to a chart whose pods never schedule succeeded")
		}
		for _, want := range []string{"not ready within the timeout", "rolled back to revision 1"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not contain %q", err, want)
			}
		}
		s, err := w.r.Current(t.Context(), testRelease)
		if err != nil {
			t.Fatal(err)
		}
		if s.Status != "deployed" || s.Revision != 3 || s.Version != "2024-06-01" || s.Chart != "docsadmin-self-hosted-0.1.0" {
			t.Errorf("after the rollback: %+v, want revision 3 deployed on the first chart", s)
		}
		testutil.Eventually(t, 30*time.Second, "the rolled-back pods to be Ready", func() bool {
			d := w.deployment(t)
			return ready(d) && len(d.Spec.Template.Spec.NodeSelector) == 0
		})
	})

	t.Run("interrupt during the wait rolls back at once", func(t *testing.T) {
		req := request()
		req.Chart, req.Version, req.Timeout = bad, "v-bad-2", 5*time.Minute
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		type result struct {
			err error
			at  time.Time
		}
		done := make(chan result, 1)
		go func() {
			_, err := w.r.Apply(ctx, req)
			done <- result{err, time.Now()}
		}()
		testutil.Eventually(t, 30*time.Second, "the upgrade to be waiting (pending-upgrade)", func() bool {
			s, err := w.r.Current(t.Context(), testRelease)
			return err == nil && s.Status == "pending-upgrade"
		})
		cancelled := time.Now()
		cancel()
		var res result
		select {
		case res = <-done:
		case <-time.After(time.Minute):
			t.Fatal("Apply still running a minute after its context ended")
		}
		took := res.at.Sub(cancelled)
		t.Logf("Apply returned %v after the cancel", took)
		if took > 15*time.Second {
			t.Errorf("Apply took %v to stop after the cancel, want seconds", took)
		}
		if !errors.Is(res.err, context.Canceled) || !strings.Contains(res.err.Error(), "rolled back to revision 3") {
			t.Errorf("err = %v, want context.Canceled and a rollback to revision 3", res.err)
		}
		s, err := w.r.Current(t.Context(), testRelease)
		if err != nil {
			t.Fatal(err)
		}
		if s.Status != "deployed" || s.Revision != 5 || s.Version != "2024-06-01" {
			t.Errorf("after the interrupt: %+v, want revision 5 deployed with the old version", s)
		}
	})
	t.Run("install from a chart repository into a new namespace", func(t *testing.T) {
		isolateHelm(t)
		url := chartRepo(t, "0.3.0")
		r, err := New(Config{Kubeconfig: c.Kubeconfig, Context: c.Context, Namespace: "docs-created"}, hclog.NewNullLogger())
		if err != nil {
			t.Fatal(err)
		}
		req := request()
		req.Install, req.CreateNamespace, req.Timeout = true, true, time.Minute
		req.Chart, req.ChartRepo = "docsadmin-self-hosted", url
		if _, err := r.Apply(t.Context(), req); err != nil {
			t.Fatalf("install: %v", err)
		}
		d, err := w.cs.AppsV1().Deployments("docs-created").Get(t.Context(), workload, metav1.GetOptions{})
		if err != nil || !ready(d) || d.Labels["helm.sh/chart"] != "docsadmin-self-hosted-0.3.0" {
			t.Fatalf("deployment %v (%v), want chart 0.3.0 Ready", d.Labels, err)
		}
	})
}
