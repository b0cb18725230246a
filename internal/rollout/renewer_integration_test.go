package rollout_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/client"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/kubetest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/rolloutcmd"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

const (
	renewNS      = "docs-renew"
	renewRelease = "docs"
	renewer      = "docs-docsadmin-self-hosted-renewer"
	// linkHolder is the chart's Secret that holds the bundle link.
	linkHolder = "docs-docsadmin-self-hosted-bundle"
)

// TestRenewer_upgradesWithItsOwnRoleOnly installs the chart with the
// renewer on a cluster that enforces RBAC and runs pods, then runs the
// rollout the renewer runs (its flags, the release's own chart) with the
// renewer ServiceAccount's token: the first run turns staticExport on
// (creating serve-bundle's objects), a later one renews the link. The same
// token is refused a Secret of another namespace and a ClusterRole, and
// cannot widen its own Role.
func TestRenewer_upgradesWithItsOwnRoleOnly(t *testing.T) {
	c := kubetest.Start(t, kubetest.WithNodes(), kubetest.WithRBAC())
	t.Setenv("KUBECACHEDIR", t.TempDir())
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	admin := clientsetFor(t, c.Kubeconfig)
	for _, ns := range []string{renewNS, "elsewhere"} {
		if _, err := admin.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	other := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "creds"}, StringData: map[string]string{"k": "v"}}
	if _, err := admin.CoreV1().Secrets("elsewhere").Create(ctx, other, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	env := apiservertest.Start(t)
	installWithRenewer(t, c.Kubeconfig, map[string]interface{}{"renewer": map[string]interface{}{
		"enabled": true, "apiUrl": env.URL, "domain": env.Domain,
		"apiKey": map[string]interface{}{"value": env.Key, "secretKey": "apiKey"},
	}})

	saConfig := c.ServiceAccountKubeconfig(t, renewNS, renewer)
	sa := clientsetFor(t, saConfig)
	// The authorizer learns of the new RoleBinding from an informer: wait
	// until the renewer may list the release records.
	testutil.Eventually(t, 30*time.Second, "the renewer's Role to take effect", func() bool {
		_, err := sa.CoreV1().Secrets(renewNS).List(ctx, metav1.ListOptions{LabelSelector: "owner=helm"})
		return err == nil
	})

	roller, err := rollout.New(rollout.Config{Kubeconfig: saConfig, Namespace: renewNS}, hclog.NewNullLogger())
	if err != nil {
		t.Fatal(err)
	}
	api, err := client.New(client.Config{BaseURL: env.URL, APIKey: env.Key, Clock: env.Clock})
	if err != nil {
		t.Fatal(err)
	}
	run := func() (int, string) {
		var out bytes.Buffer
		// The renewer's flags, one cycle: no --chart (the release's own),
		// atomic, so the upgrade waits for the pods on the kwok node.
		r := &rolloutcmd.Runner{Opts: rolloutcmd.Options{
			Request:   rollout.Request{Release: renewRelease, Timeout: time.Minute, RecoverPending: true},
			Namespace: renewNS, Domain: env.Domain, RenewBefore: 15 * time.Minute, ExportTimeout: time.Minute},
			API: api, Roller: roller, Clock: env.Clock, Out: &out, Log: hclog.NewNullLogger()}
		return r.Run(ctx), out.String()
	}

	if code, out := run(); code != rolloutcmd.ExitOK || !strings.Contains(out, "revision 2") {
		t.Fatalf("first renewal (turns staticExport on): exit %d\n%s", code, out)
	}
	first := bundleLink(ctx, t, admin)
	if !strings.HasPrefix(first, env.URL) {
		t.Fatalf("release Secret holds %q, want a link of the reference server", first)
	}
	before := generations(ctx, t, admin)
	env.Clock.Advance(50 * time.Minute)
	if code, out := run(); code != rolloutcmd.ExitOK || !strings.Contains(out, "revision 3") {
		t.Fatalf("renewal near expiry: exit %d\n%s", code, out)
	}
	// Neither serve-bundle nor the renewer itself restarts for a renewal.
	if after := generations(ctx, t, admin); after != before {
		t.Errorf("the renewal changed the pod templates %v to %v", before, after)
	}
	if renewed := bundleLink(ctx, t, admin); renewed == first || !strings.HasPrefix(renewed, env.URL) {
		t.Fatalf("the renewal left the link unchanged")
	}
	s, err := roller.Current(ctx, renewRelease)
	if err != nil || s.Revision != 3 || s.Status != "deployed" {
		t.Fatalf("release after renewals: %+v, %v", s, err)
	}

	// Nothing beyond the namespace, and no way to widen its own rights.
	if _, err := sa.CoreV1().Secrets("elsewhere").Get(ctx, "creds", metav1.GetOptions{}); !apierrors.IsForbidden(err) {
		t.Errorf("renewer reads a Secret of another namespace: %v, want Forbidden", err)
	}
	cr := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "renewer-escalates"},
		Rules: []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"secrets"}, Verbs: []string{"get"}}}}
	if _, err := sa.RbacV1().ClusterRoles().Create(ctx, cr, metav1.CreateOptions{}); !apierrors.IsForbidden(err) {
		t.Errorf("renewer creates a ClusterRole: %v, want Forbidden", err)
	}
	if _, err := sa.RbacV1().Roles(renewNS).Patch(ctx, renewer, "application/merge-patch+json",
		[]byte(`{"rules":[{"apiGroups":["*"],"resources":["*"],"verbs":["*"]}]}`), metav1.PatchOptions{}); !apierrors.IsForbidden(err) {
		t.Errorf("renewer patches its own Role: %v, want Forbidden", err)
	}
	if _, err := sa.CoreV1().Pods(renewNS).List(ctx, metav1.ListOptions{}); !apierrors.IsForbidden(err) {
		t.Errorf("renewer lists pods: %v, want Forbidden (the upgrade does not need it)", err)
	}
}

// installWithRenewer is `helm install docs examples/self-hosted-chart
// --namespace docs-renew --values ...` as an administrator would run it.
func installWithRenewer(t *testing.T, kubeconfig string, vals map[string]interface{}) {
	t.Helper()
	flags := genericclioptions.NewConfigFlags(false)
	ns := renewNS
	flags.KubeConfig, flags.Namespace = &kubeconfig, &ns
	ac := new(action.Configuration)
	if err := ac.Init(flags, ns, "secret", t.Logf); err != nil {
		t.Fatal(err)
	}
	ch, err := loader.Load("../../examples/self-hosted-chart")
	if err != nil {
		t.Fatal(err)
	}
	in := action.NewInstall(ac)
	in.ReleaseName, in.Namespace = renewRelease, ns
	in.Wait, in.Timeout = true, time.Minute
	in.KubeVersion = &chartutil.KubeVersion{Version: "v1.34.4", Major: "1", Minor: "34"}
	if _, err := in.Run(ch, vals); err != nil {
		t.Fatalf("install with the renewer: %v", err)
	}
}

// generations are those of serve-bundle's and the renewer's Deployments.
func generations(ctx context.Context, t *testing.T, cs kubernetes.Interface) [2]string {
	t.Helper()
	var g [2]string
	for i, name := range []string{"docs-docsadmin-self-hosted", renewer} {
		d, err := cs.AppsV1().Deployments(renewNS).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		g[i] = kubetest.TemplateFingerprint(d)
	}
	return g
}

func bundleLink(ctx context.Context, t *testing.T, cs kubernetes.Interface) string {
	t.Helper()
	sec, err := cs.CoreV1().Secrets(renewNS).Get(ctx, linkHolder, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("bundle secret: %v", err)
	}
	return string(sec.Data["bundleUrl"])
}

func clientsetFor(t *testing.T, kubeconfig string) kubernetes.Interface {
	t.Helper()
	rc, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := kubernetes.NewForConfig(rc)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}
