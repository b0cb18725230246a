package rollout_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/kubernetes"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/kubetest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

const (
	kindNS     = "docs-drift"
	kindDep    = "docs-docsadmin-self-hosted"
	kindBundle = "docs-docsadmin-self-hosted-bundle"
	kindRenew  = "docs-docsadmin-self-hosted-renewer"
)

// helmInstall is `helm install NAME examples/self-hosted-chart --namespace
// NS --labels ... --values ...` without waiting (the cluster runs no pods).
func helmInstall(t *testing.T, kubeconfig, ns, name string, labels map[string]string, vals map[string]interface{}) {
	t.Helper()
	flags := genericclioptions.NewConfigFlags(false)
	flags.KubeConfig, flags.Namespace = &kubeconfig, &ns
	ac := new(action.Configuration)
	if err := ac.Init(flags, ns, "secret", t.Logf); err != nil {
		t.Fatal(err)
	}
	ch, err := loader.Load(driftChart)
	if err != nil {
		t.Fatal(err)
	}
	in := action.NewInstall(ac)
	in.ReleaseName, in.Namespace, in.Labels, in.Timeout = name, ns, labels, time.Minute
	in.KubeVersion = &chartutil.KubeVersion{Version: "v1.34.4", Major: "1", Minor: "34"}
	if _, err := in.Run(ch, vals); err != nil {
		t.Fatalf("install %s/%s: %v", ns, name, err)
	}
}

// TestDrift_eachKindOnCluster changes, on a real kube-apiserver, each kind
// of object the reference chart (with its renewer) makes, the way people
// do by hand: edits the Deployment's image, scales it to zero, replaces
// the link in the bundle Secret, deletes the bundle Secret, the Service,
// the renewer's Deployment, ServiceAccount, Role, RoleBinding and API key
// Secret. Each is reported naming object and field (never the link), an
// ignore rule leaves an autoscaler's replicas alone, and a repair (drift:
// correct) puts every object back as the release has it, after which no
// drift is left and the pods run again on the kwok node. The drift Event
// lands on the Deployment too.
func TestDrift_eachKindOnCluster(t *testing.T) {
	c := kubetest.Start(t, kubetest.WithNodes())
	t.Setenv("KUBECACHEDIR", t.TempDir())
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cs := c.Namespace(t, kindNS)
	vals := map[string]interface{}{
		rollout.ValuesKey: map[string]interface{}{"enabled": true, "bundleUrl": driftURL, "version": "v1", "expiresAt": "2030-01-01T00:00:00Z"},
		"renewer": map[string]interface{}{"enabled": true, "apiUrl": "https://api.docsadmin.test", "domain": "docs.acme.test",
			"apiKey": map[string]interface{}{"value": "sk-test-key", "secretKey": "apiKey"}},
	}
	helmInstall(t, c.Kubeconfig, kindNS, driftRelease, nil, vals)
	roller, err := rollout.New(rollout.Config{Kubeconfig: c.Kubeconfig, Context: c.Context, Namespace: kindNS}, hclog.NewNullLogger())
	if err != nil {
		t.Fatal(err)
	}
	drift := func(ignore ...string) []string {
		t.Helper()
		found, err := roller.Drift(ctx, driftRelease, ignore)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, d := range found {
			if strings.Contains(d.String(), driftSig) {
				t.Fatalf("drift shows the link's signature: %s", d)
			}
			out = append(out, d.String())
		}
		slices.Sort(out)
		return out
	}
	if d := drift(); len(d) != 0 {
		t.Fatalf("drift right after install: %q", d)
	}
	repair := func() {
		t.Helper()
		s, err := roller.Current(ctx, driftRelease)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := roller.Apply(ctx, rollout.Request{Release: driftRelease, OnFailure: rollout.KeepFailed, Repair: true,
			BundleURL: driftURL, Version: s.Version, ExpiresAt: s.ExpiresAt}); err != nil {
			t.Fatalf("repair: %v", err)
		}
		if d := drift(); len(d) != 0 {
			t.Fatalf("drift left after the repair: %q", d)
		}
	}
	for _, tc := range []struct {
		name   string
		change func(kubernetes.Interface) error
		want   []string
	}{
		{"image edited", func(cs kubernetes.Interface) error {
			_, err := cs.AppsV1().Deployments(kindNS).Patch(ctx, kindDep, types.StrategicMergePatchType,
				[]byte(`{"spec":{"template":{"spec":{"containers":[{"name":"serve-bundle","image":"example.com/other:latest"}]}}}}`),
				metav1.PatchOptions{})
			return err
		}, []string{"Deployment/" + kindDep + ": spec.template.spec.containers[serve-bundle].image is example.com/other:latest, the release says "}},
		{"scaled to zero", func(cs kubernetes.Interface) error {
			_, err := cs.AppsV1().Deployments(kindNS).Patch(ctx, kindDep, "application/merge-patch+json",
				[]byte(`{"spec":{"replicas":0}}`), metav1.PatchOptions{})
			return err
		}, []string{"Deployment/" + kindDep + ": spec.replicas is 0, the release says 1"}},
		{"link replaced", func(cs kubernetes.Interface) error {
			_, err := cs.CoreV1().Secrets(kindNS).Patch(ctx, kindBundle, "application/merge-patch+json",
				[]byte(`{"stringData":{"bundleUrl":"https://elsewhere.example.com/b.tar.gz"}}`), metav1.PatchOptions{})
			return err
		}, []string{"Secret/" + kindBundle + ": data.bundleUrl is changed, the release says the release's value"}},
		{"bundle Secret deleted", func(cs kubernetes.Interface) error {
			return cs.CoreV1().Secrets(kindNS).Delete(ctx, kindBundle, metav1.DeleteOptions{})
		}, []string{"Secret/" + kindBundle + " is missing (the release has it)"}},
		{"Service deleted", func(cs kubernetes.Interface) error {
			return cs.CoreV1().Services(kindNS).Delete(ctx, kindDep, metav1.DeleteOptions{})
		}, []string{"Service/" + kindDep + " is missing (the release has it)"}},
		{"renewer's objects deleted", func(cs kubernetes.Interface) error {
			for _, del := range []func() error{
				func() error { return cs.AppsV1().Deployments(kindNS).Delete(ctx, kindRenew, metav1.DeleteOptions{}) },
				func() error {
					return cs.CoreV1().ServiceAccounts(kindNS).Delete(ctx, kindRenew, metav1.DeleteOptions{})
				},
				func() error { return cs.RbacV1().Roles(kindNS).Delete(ctx, kindRenew, metav1.DeleteOptions{}) },
				func() error { return cs.RbacV1().RoleBindings(kindNS).Delete(ctx, kindRenew, metav1.DeleteOptions{}) },
				func() error { return cs.CoreV1().Secrets(kindNS).Delete(ctx, kindRenew, metav1.DeleteOptions{}) },
			} {
				if err := del(); err != nil {
					return err
				}
			}
			return nil
		}, []string{
			"Deployment/" + kindRenew + " is missing (the release has it)",
			"Role/" + kindRenew + " is missing (the release has it)",
			"RoleBinding/" + kindRenew + " is missing (the release has it)",
			"Secret/" + kindRenew + " is missing (the release has it)",
			"ServiceAccount/" + kindRenew + " is missing (the release has it)",
		}},
	} {
		if err := tc.change(cs); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got := drift()
		ok := len(got) == len(tc.want)
		for i := range tc.want {
			ok = ok && strings.HasPrefix(got[i], tc.want[i])
		}
		if !ok {
			t.Fatalf("%s: drift %q, want %q", tc.name, got, tc.want)
		}
		if tc.name == "scaled to zero" {
			if d := drift("Deployment:spec.replicas"); len(d) != 0 {
				t.Errorf("an ignore rule for the replicas leaves %q", d)
			}
			if err := roller.RecordEvent(ctx, driftRelease, "StaticExportDrift", "correcting: "+got[0], true); err != nil {
				t.Fatal(err)
			}
		}
		repair()
	}
	if sec, err := cs.CoreV1().Secrets(kindNS).Get(ctx, kindBundle, metav1.GetOptions{}); err != nil || string(sec.Data["bundleUrl"]) != driftURL {
		t.Fatalf("the bundle Secret after the repairs: %v", err)
	}
	testutil.Eventually(t, time.Minute, "both Deployments' pods Ready again", func() bool {
		for _, name := range []string{kindDep, kindRenew} {
			d, err := cs.AppsV1().Deployments(kindNS).Get(ctx, name, metav1.GetOptions{})
			if err != nil || d.Status.ReadyReplicas != 1 || d.Status.ObservedGeneration != d.Generation {
				return false
			}
		}
		return true
	})

	// The drift Event is on the Deployment, where `kubectl describe
	// deployment` shows it, and on the release's revision Secret.
	evs, err := cs.CoreV1().Events(kindNS).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	on := map[string]bool{}
	for _, e := range evs.Items {
		if e.Reason == "StaticExportDrift" && e.Type == "Warning" && strings.Contains(e.Message, "spec.replicas is 0") {
			on[e.InvolvedObject.Kind+"/"+e.InvolvedObject.Name] = e.InvolvedObject.UID != ""
		}
	}
	if !on["Deployment/"+kindDep] || !on["Deployment/"+kindRenew] || len(on) != 3 {
		t.Errorf("drift Events on %v, want both Deployments and the revision Secret, each with its UID", on)
	}
}

// TestSelect_byReleaseLabels: on a real kube-apiserver, Select returns the
// releases of a namespace whose Helm labels (helm install --labels) match
// the selector and that carry staticExport, with their labels; a release
// without staticExport, one without the label and one in another
// namespace are left out, and the labels outlive an upgrade by this
// package. Namespaces returns the namespaces a selector matches.
func TestSelect_byReleaseLabels(t *testing.T) {
	c := kubetest.Start(t)
	t.Setenv("KUBECACHEDIR", t.TempDir())
	ctx := t.Context()
	admin := c.Clientset(t)
	for _, ns := range []string{"team-a", "team-b"} {
		c.Namespace(t, ns)
		if _, err := admin.CoreV1().Namespaces().Patch(ctx, ns, "application/merge-patch+json",
			[]byte(`{"metadata":{"labels":{"docsadmin.io/docs":"`+map[string]string{"team-a": "true", "team-b": "false"}[ns]+`"}}}`),
			metav1.PatchOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	on := map[string]interface{}{rollout.ValuesKey: map[string]interface{}{"enabled": false}}
	fleet := map[string]string{"docsadmin.io/fleet": "docs", "docsadmin.io/domain": "a.example.com"}
	helmInstall(t, c.Kubeconfig, "team-a", "docs-a", fleet, on)
	helmInstall(t, c.Kubeconfig, "team-a", "docs-job", map[string]string{"docsadmin.io/fleet": "docs", "docsadmin.io/job-id": "se_7"}, on)
	helmInstall(t, c.Kubeconfig, "team-a", "no-export", fleet, map[string]interface{}{})
	helmInstall(t, c.Kubeconfig, "team-a", "other", map[string]string{"docsadmin.io/fleet": "blog"}, on)
	helmInstall(t, c.Kubeconfig, "team-b", "docs-b", fleet, on)

	cfg := rollout.Config{Kubeconfig: c.Kubeconfig, Context: c.Context, Namespace: "team-a"}
	sel, err := rollout.Select(ctx, cfg, "docsadmin.io/fleet=docs", nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range sel {
		got = append(got, s.Namespace+"/"+s.Release+" "+s.Labels["docsadmin.io/domain"]+s.Labels["docsadmin.io/job-id"])
	}
	if want := []string{"team-a/docs-a a.example.com", "team-a/docs-job se_7"}; !slices.Equal(got, want) {
		t.Fatalf("selected %q, want %q", got, want)
	}

	roller, err := rollout.New(cfg, hclog.NewNullLogger())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := roller.Apply(ctx, rollout.Request{Release: "docs-a", OnFailure: rollout.KeepFailed, BundleURL: driftURL,
		Version: "v1", ExpiresAt: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if sel, err = rollout.Select(ctx, cfg, "docsadmin.io/domain=a.example.com", nil); err != nil || len(sel) != 1 {
		t.Fatalf("after an upgrade the labels are gone: %v %v", sel, err)
	}
	if _, err := rollout.Select(ctx, cfg, "docsadmin.io/fleet in (", nil); err == nil {
		t.Error("a malformed selector was accepted")
	}

	spaces, err := rollout.Namespaces(ctx, cfg, "docsadmin.io/docs=true")
	if err != nil || !slices.Equal(spaces, []string{"team-a"}) {
		t.Fatalf("namespaces %v %v, want [team-a]", spaces, err)
	}
}
