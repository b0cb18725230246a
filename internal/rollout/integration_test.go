package rollout

import (
	"context"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/kubetest"
	"github.com/hashicorp/go-hclog"
	"helm.sh/helm/v3/pkg/action"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// The integration tier runs against a real kube-apiserver. Nothing runs pods
// there, so every request is KeepFailed without Wait: an atomic upgrade would
// wait for a Deployment that can never become ready. The install also proves
// the server reports its real version: the chart's kubeVersion constraint
// rejects the v0.0.0-master of a binary built without the version ldflags.
func TestIntegration_installUpgradeNoopDrift(t *testing.T) {
	c := kubetest.Start(t)
	// Keep the discovery cache of this throwaway server out of ~/.kube.
	t.Setenv("KUBECACHEDIR", t.TempDir())
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()

	cs := c.Namespace(t, itNamespace)
	cfg := Config{Kubeconfig: c.Kubeconfig, Context: c.Context, Namespace: itNamespace}
	r, err := New(cfg, hclog.New(&hclog.LoggerOptions{Level: hclog.Debug, Output: tWriter{t}}))
	if err != nil {
		t.Fatal(err)
	}

	req := request()
	req.Install, req.Chart, req.OnFailure = true, chartPath, KeepFailed
	res, err := r.Apply(ctx, req)
	if err != nil {
		t.Fatalf("install: %v", err)
	}
	if !res.Installed || res.Revision != 1 || res.Status != "deployed" {
		t.Fatalf("install = %+v", res)
	}
	gen := assertDeployed(ctx, t, cs, testURL, "2024-06-01")

	// New content and a new link.
	req.Version = "2024-07-01"
	req.BundleURL = "https://bundles.example.com/se_2/bundle.tar.gz?X-Amz-Signature=second"
	req.ExpiresAt = req.ExpiresAt.Add(24 * time.Hour)
	res, err = r.Apply(ctx, req)
	if err != nil {
		t.Fatalf("upgrade: %v", err)
	}
	if res.Installed || !res.Changed || res.Revision != 2 {
		t.Fatalf("upgrade = %+v", res)
	}
	if g := assertDeployed(ctx, t, cs, req.BundleURL, "2024-07-01"); g != gen {
		t.Errorf("new content changed the pod template from %s to %s: the pods would restart", gen, g)
	}

	// The cron runs again with the same link: no revision.
	noop, err := r.Apply(ctx, req)
	if err != nil {
		t.Fatalf("no-op: %v", err)
	}
	if noop.Changed || noop.Revision != 2 || noop.ValuesDigest != res.ValuesDigest {
		t.Errorf("no-op = %+v, want revision 2 unchanged", noop)
	}
	if n := releaseSecrets(ctx, t, cs, itNamespace); n != 2 {
		t.Errorf("%d helm release records, want 2", n)
	}

	// Someone runs helm upgrade behind Terraform's back.
	handUpgrade(t, cfg, map[string]interface{}{ValuesKey: map[string]interface{}{KeyVersion: "hand"}})
	s, err := r.Current(ctx, testRelease)
	if err != nil {
		t.Fatal(err)
	}
	if s.Revision != 3 || s.Version != "hand" || s.ValuesDigest == res.ValuesDigest {
		t.Fatalf("Current after the hand upgrade = %+v", s)
	}
	if g := assertDeployed(ctx, t, cs, req.BundleURL, "hand"); g != gen {
		t.Errorf("a hand-set pin changed the pod template (%s)", g)
	}

	fixed, err := r.Apply(ctx, req)
	if err != nil {
		t.Fatalf("correct drift: %v", err)
	}
	if !fixed.Changed || fixed.Revision != 4 || fixed.ValuesDigest != res.ValuesDigest {
		t.Errorf("correction = %+v", fixed)
	}
	assertDeployed(ctx, t, cs, req.BundleURL, "2024-07-01")
	if s, err := r.Current(ctx, testRelease); err != nil || s.ValuesDigest != res.ValuesDigest || !s.ExpiresAt.Equal(req.ExpiresAt) {
		t.Errorf("Current after correction = %+v, %v", s, err)
	}
}

// itNamespace is where the integration tier installs the release.
const itNamespace = "docs-it"

// assertDeployed checks the objects in itNamespace: the link and the pin in
// the Secret. It returns the Deployment's generation, which must never move
// with the bundle: a new generation would restart the pods.
func assertDeployed(ctx context.Context, t *testing.T, cs kubernetes.Interface, url, version string) string {
	t.Helper()
	sec, err := cs.CoreV1().Secrets(itNamespace).Get(ctx, "docs-docsadmin-self-hosted-bundle", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("bundle secret: %v", err)
	}
	if got := string(sec.Data["bundleUrl"]); got != url {
		t.Errorf("secret bundleUrl = %q, want %q", got, url)
	}
	if got := string(sec.Data["version"]); got != version {
		t.Errorf("secret version = %q, want %q", got, version)
	}
	dep, err := cs.AppsV1().Deployments(itNamespace).Get(ctx, "docs-docsadmin-self-hosted", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("deployment: %v", err)
	}
	return kubetest.TemplateFingerprint(dep)
}

func releaseSecrets(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns string) int {
	t.Helper()
	l, err := cs.CoreV1().Secrets(ns).List(ctx, metav1.ListOptions{LabelSelector: "owner=helm,name=" + testRelease})
	if err != nil {
		t.Fatal(err)
	}
	return len(l.Items)
}

// handUpgrade is `helm upgrade --reuse-values --set ...` with its own Helm
// configuration, as a person at a terminal would run it.
func handUpgrade(t *testing.T, cfg Config, set map[string]interface{}) {
	t.Helper()
	getter, ns, err := restClientGetter(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ac := new(action.Configuration)
	if err := ac.Init(getter, ns, "secret", t.Logf); err != nil {
		t.Fatal(err)
	}
	last, err := ac.Releases.Last(testRelease)
	if err != nil {
		t.Fatal(err)
	}
	up := action.NewUpgrade(ac)
	up.Namespace = ns
	up.ResetThenReuseValues = true
	if _, err := up.Run(testRelease, last.Chart, set); err != nil {
		t.Fatalf("hand upgrade: %v", err)
	}
}

// tWriter sends the Roller's log to the test log, shown on failure.
type tWriter struct{ t *testing.T }

func (w tWriter) Write(p []byte) (int, error) {
	w.t.Log(string(p))
	return len(p), nil
}
