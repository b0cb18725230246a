package rollout_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/releaseutil"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/kubetest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/rolloutcmd"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// renewerNS is the namespace the renewer's chart release is installed in.
const renewerNS = "docs-renewer"

// renderedRenewer is what the chart renders for a renewer: its args, the
// releases file of its ConfigMap (fleet mode) and its ServiceAccount and
// RBAC objects.
type renderedRenewer struct {
	args     []string
	releases string
	sa       string
	objects  []interface{}
}

// renderRenewer renders the chart as release name in renewerNS with the
// renewer values r (apiUrl and key filled in).
func renderRenewer(t *testing.T, name string, r map[string]interface{}) renderedRenewer {
	t.Helper()
	ch, err := loader.Load(driftChart)
	if err != nil {
		t.Fatal(err)
	}
	in := action.NewInstall(&action.Configuration{})
	in.ReleaseName, in.Namespace, in.DryRun, in.ClientOnly = name, renewerNS, true, true
	in.KubeVersion = &chartutil.KubeVersion{Version: "v1.34.4", Major: "1", Minor: "34"}
	r["enabled"], r["apiUrl"], r["domain"] = true, "https://api.docsadmin.test", ""
	r["apiKey"] = map[string]interface{}{"value": "sk-test-key", "secretKey": "apiKey"}
	rel, err := in.Run(ch, map[string]interface{}{"renewer": r})
	if err != nil {
		t.Fatalf("render %s: %v", name, err)
	}
	var out renderedRenewer
	for _, m := range releaseutil.SplitManifests(rel.Manifest) {
		obj, _, err := scheme.Codecs.UniversalDeserializer().Decode([]byte(m), nil, nil)
		if err != nil {
			continue // a kind the client's scheme does not know: not RBAC
		}
		switch o := obj.(type) {
		case *corev1.ServiceAccount:
			out.sa = o.Name
			out.objects = append(out.objects, o)
		case *rbacv1.Role, *rbacv1.RoleBinding, *rbacv1.ClusterRole, *rbacv1.ClusterRoleBinding:
			out.objects = append(out.objects, o)
		case *corev1.ConfigMap:
			out.releases = o.Data["releases.yaml"]
		case *appsv1.Deployment:
			if strings.HasSuffix(o.Name, "-renewer") {
				out.args = o.Spec.Template.Spec.Containers[0].Args
			}
		}
	}
	if out.sa == "" || len(out.args) == 0 {
		t.Fatalf("render %s: no renewer ServiceAccount or Deployment", name)
	}
	return out
}

// apply creates the renewer's ServiceAccount and RBAC objects as the
// cluster's administrator would by installing the chart.
func (rr renderedRenewer) apply(ctx context.Context, t *testing.T, admin kubernetes.Interface) {
	t.Helper()
	var err error
	for _, obj := range rr.objects {
		create := metav1.CreateOptions{}
		switch o := obj.(type) {
		case *corev1.ServiceAccount:
			_, err = admin.CoreV1().ServiceAccounts(renewerNS).Create(ctx, o, create)
		case *rbacv1.Role:
			_, err = admin.RbacV1().Roles(cmpNS(o.Namespace)).Create(ctx, o, create)
		case *rbacv1.RoleBinding:
			_, err = admin.RbacV1().RoleBindings(cmpNS(o.Namespace)).Create(ctx, o, create)
		case *rbacv1.ClusterRole:
			_, err = admin.RbacV1().ClusterRoles().Create(ctx, o, create)
		case *rbacv1.ClusterRoleBinding:
			_, err = admin.RbacV1().ClusterRoleBindings().Create(ctx, o, create)
		}
		if err != nil {
			t.Fatalf("create %T: %v", obj, err)
		}
	}
}

// cmpNS is the namespace of a rendered object; Helm puts an object with
// none in the release's.
func cmpNS(ns string) string {
	if ns == "" {
		return renewerNS
	}
	return ns
}

// impersonating writes a kubeconfig that is the administrator's acting as
// the ServiceAccount sa of renewerNS with the groups Kubernetes gives a
// service account token: the rest.Config it yields carries
// rest.ImpersonationConfig{UserName: "system:serviceaccount:NS:NAME",
// Groups: [...]}, so the API server authorises every request of the
// renewer as that ServiceAccount.
func impersonating(t *testing.T, adminKubeconfig, sa string) string {
	t.Helper()
	cfg, err := clientcmd.LoadFromFile(adminKubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	for _, ai := range cfg.AuthInfos {
		ai.Impersonate = "system:serviceaccount:" + renewerNS + ":" + sa
		ai.ImpersonateGroups = []string{"system:serviceaccounts", "system:serviceaccounts:" + renewerNS, "system:authenticated"}
	}
	p := filepath.Join(t.TempDir(), sa+".kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, p); err != nil {
		t.Fatal(err)
	}
	rc, err := clientcmd.BuildConfigFromFlags("", p)
	if err != nil || rc.Impersonate.UserName != "system:serviceaccount:"+renewerNS+":"+sa || len(rc.Impersonate.Groups) != 3 {
		t.Fatalf("the kubeconfig does not impersonate %s: %+v %v", sa, rc.Impersonate, err)
	}
	return p
}

// runRenewer runs the command with the renewer's rendered args, as its
// pod would, in-process: --in-cluster becomes --kubeconfig kubeconfig, the
// metrics listen on 127.0.0.1, and the releases file is a copy of the
// ConfigMap's (with extra appended). It stops when the test ends.
func runRenewer(t *testing.T, env *apiservertest.Env, rr renderedRenewer, kubeconfig string, edit func([]string) []string, extra string) *testutil.SyncBuffer {
	t.Helper()
	t.Setenv("DOCSADMIN_BASE_URL", env.URL)
	t.Setenv("DOCSADMIN_API_KEY", env.Key)
	args := slices.Clone(rr.args)
	if args[0] != "rollout" {
		t.Fatalf("the renewer runs %q", args)
	}
	args = args[1:]
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "--in-cluster":
			args[i] = "--kubeconfig=" + kubeconfig
		case "--metrics-addr":
			args[i+1] = "127.0.0.1:0"
		case "--releases":
			p := filepath.Join(t.TempDir(), "releases.yaml")
			if err := os.WriteFile(p, []byte(strings.TrimRight(rr.releases, "\n")+"\n"+extra), 0o600); err != nil {
				t.Fatal(err)
			}
			args[i+1] = p
		}
	}
	if edit != nil {
		args = edit(args)
	}
	out := &testutil.SyncBuffer{}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan int, 1)
	go func() { done <- rolloutcmd.Command(ctx, append(args, "--log-level", "error"), out, out) }()
	t.Cleanup(func() {
		cancel()
		<-done
		if t.Failed() {
			t.Logf("renewer %q output:\n%s", args, out.String())
		}
	})
	return out
}

// TestRenewer_rbacInSelectorModes proves on a real API server with RBAC
// on what the chart grants its renewer in each fleet mode. For each of
// renewer.selector with renewer.selectorNamespaces, renewer.releases and
// renewer.namespaceSelector it renders the chart, creates the
// ServiceAccount and the Roles, ClusterRoles and bindings it renders, and
// runs the renewer's own args in-process as that ServiceAccount
// (impersonated). The renewer renews the releases in the namespaces it
// was given (links from the reference server) and nothing else. Pointed
// at a namespace outside its Roles (team-c: an extra --namespaces entry,
// an extra releases file entry), it is refused by the API server and says
// so naming the namespace, while the others keep being renewed. Under the
// namespaceSelector's ClusterRole, the release in an unlabelled namespace
// is never touched, and the ClusterRole gives no more than its rules: no
// pods, no RBAC writes.
func TestRenewer_rbacInSelectorModes(t *testing.T) {
	c := kubetest.Start(t, kubetest.WithNodes(), kubetest.WithRBAC())
	t.Setenv("KUBECACHEDIR", t.TempDir())
	ctx, cancel := context.WithTimeout(t.Context(), 6*time.Minute)
	defer cancel()
	admin := c.Namespace(t, renewerNS)
	rollers := map[string]*rollout.Roller{}
	for _, ns := range []string{"team-a", "team-b", "team-c"} {
		c.Namespace(t, ns)
		if ns != "team-c" {
			if _, err := admin.CoreV1().Namespaces().Patch(ctx, ns, "application/merge-patch+json",
				[]byte(`{"metadata":{"labels":{"docsadmin.io/docs":"true"}}}`), metav1.PatchOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		r, err := rollout.New(rollout.Config{Kubeconfig: c.Kubeconfig, Context: c.Context, Namespace: ns}, hclog.NewNullLogger())
		if err != nil {
			t.Fatal(err)
		}
		rollers[ns] = r
	}
	env := apiservertest.Start(t)
	// Each mode renews its own pair of releases, so a link says which
	// renewer wrote it; team-c holds one of each, outside every Role.
	install := func(ns, name, fleet string) {
		t.Helper()
		if _, err := rollers[ns].Apply(ctx, rollout.Request{Release: name, Install: true, Chart: driftChart, OnFailure: rollout.KeepFailed,
			Labels: map[string]string{"docsadmin.io/fleet": fleet, rolloutcmd.LabelDomain: env.Domain}, BundleURL: "https://bundles.example.com/old.tar.gz",
			Version: "old", ExpiresAt: env.Clock.Now().Add(-time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	for _, fleet := range []string{"sel", "list", "nssel"} {
		for _, ns := range []string{"team-a", "team-b", "team-c"} {
			install(ns, "docs-"+fleet, fleet)
		}
	}
	renewed := func(ns, name string) bool {
		s, err := rollers[ns].Current(ctx, name)
		return err == nil && s.LinkValid(env.Clock.Now(), 15*time.Minute) && strings.HasPrefix(s.BundleURL, env.URL)
	}
	untouched := func(ns, name string) {
		t.Helper()
		if s, err := rollers[ns].Current(ctx, name); err != nil || s.Revision != 1 || s.Version != "old" {
			t.Errorf("%s/%s was touched: %+v %v", ns, name, s, err)
		}
	}
	start := func(t *testing.T, name string, r map[string]interface{}) (renderedRenewer, kubernetes.Interface, string) {
		t.Helper()
		rr := renderRenewer(t, name, r)
		rr.apply(ctx, t, admin)
		kc := impersonating(t, c.Kubeconfig, rr.sa)
		sa := clientsetFor(t, kc)
		// The authoriser learns of new bindings from an informer.
		testutil.Eventually(t, 30*time.Second, name+"'s RBAC to take effect", func() bool {
			_, err := sa.CoreV1().Secrets("team-a").List(ctx, metav1.ListOptions{LabelSelector: "owner=helm"})
			return err == nil
		})
		return rr, sa, kc
	}
	forbidden := func(sa kubernetes.Interface, what string) {
		t.Helper()
		if _, err := sa.CoreV1().Secrets("team-c").List(ctx, metav1.ListOptions{}); !apierrors.IsForbidden(err) {
			t.Errorf("%s: the renewer lists team-c's Secrets: %v, want Forbidden", what, err)
		}
	}

	t.Run("selector", func(t *testing.T) {
		rr, sa, kc := start(t, "sel", map[string]interface{}{"selector": "docsadmin.io/fleet=sel",
			"selectorNamespaces": []interface{}{"team-a", "team-b"}})
		forbidden(sa, "selector")
		out := runRenewer(t, env, rr, kc, func(args []string) []string {
			i := slices.Index(args, "--namespaces")
			if args[i+1] != "team-a,team-b" {
				t.Fatalf("the chart's renewer looks in %s", args[i+1])
			}
			args[i+1] = "team-a,team-b,team-c" // beyond what the chart granted
			return args
		}, "")
		testutil.Eventually(t, 2*time.Minute, "team-a and team-b renewed", func() bool {
			return renewed("team-a", "docs-sel") && renewed("team-b", "docs-sel")
		})
		testutil.Eventually(t, 30*time.Second, "the refusal in team-c reported", func() bool {
			return strings.Contains(out.String(), "namespace team-c: ") && strings.Contains(out.String(), "forbidden")
		})
		untouched("team-c", "docs-sel")
		logLines(t, out.String(), "team-c")
	})

	t.Run("releases", func(t *testing.T) {
		rr, sa, kc := start(t, "list", map[string]interface{}{"releases": []interface{}{
			map[string]interface{}{"release": "docs-list", "namespace": "team-a", "domain": env.Domain},
			map[string]interface{}{"release": "docs-list", "namespace": "team-b", "domain": env.Domain},
		}})
		forbidden(sa, "releases")
		out := runRenewer(t, env, rr, kc, nil,
			"- {release: docs-list, namespace: team-c, domain: "+env.Domain+"}\n")
		testutil.Eventually(t, 2*time.Minute, "team-a and team-b renewed", func() bool {
			return renewed("team-a", "docs-list") && renewed("team-b", "docs-list")
		})
		testutil.Eventually(t, 30*time.Second, "the refusal in team-c reported", func() bool {
			return strings.Contains(out.String(), "team-c/docs-list: ") && strings.Contains(out.String(), "forbidden")
		})
		untouched("team-c", "docs-list")
		logLines(t, out.String(), "team-c")
	})

	t.Run("namespaceSelector", func(t *testing.T) {
		rr, sa, kc := start(t, "nssel", map[string]interface{}{"selector": "docsadmin.io/fleet=nssel",
			"namespaceSelector": "docsadmin.io/docs=true"})
		if _, err := sa.CoreV1().Namespaces().List(ctx, metav1.ListOptions{}); err != nil {
			t.Errorf("the ClusterRole does not let the renewer list namespaces: %v", err)
		}
		if _, err := sa.CoreV1().Pods("team-a").List(ctx, metav1.ListOptions{}); !apierrors.IsForbidden(err) {
			t.Errorf("the renewer lists pods: %v, want Forbidden", err)
		}
		cr := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "renewer-escalates"}}
		if _, err := sa.RbacV1().ClusterRoles().Create(ctx, cr, metav1.CreateOptions{}); !apierrors.IsForbidden(err) {
			t.Errorf("the renewer creates a ClusterRole: %v, want Forbidden", err)
		}
		out := runRenewer(t, env, rr, kc, nil, "")
		testutil.Eventually(t, 2*time.Minute, "team-a and team-b renewed", func() bool {
			return renewed("team-a", "docs-nssel") && renewed("team-b", "docs-nssel")
		})
		if strings.Contains(out.String(), "team-c") {
			t.Errorf("the renewer looked at the unlabelled namespace:\n%s", out.String())
		}
		untouched("team-c", "docs-nssel")
	})
}

// logLines logs the lines of out that mention what.
func logLines(t *testing.T, out, what string) {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, what) {
			t.Log(l)
		}
	}
}
