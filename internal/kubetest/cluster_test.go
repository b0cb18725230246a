package kubetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

// rolloutTimeout bounds a rollout on the cluster with nodes, which takes
// about a second; the margin is for a loaded CI machine.
const rolloutTimeout = 60 * time.Second

func TestStartWithNodes_deploymentBecomesAvailable(t *testing.T) {
	began := time.Now()
	c := Start(t, WithNodes())
	t.Logf("cluster with nodes ready in %s", time.Since(began).Round(time.Millisecond))
	if c.Node == "" {
		t.Fatal("Cluster.Node is empty on a cluster started WithNodes")
	}
	cs := clientsetFor(t, c.Kubeconfig)
	ns := createNamespace(t, cs, "rollout")
	createDeployment(t, cs, ns, "web", 2)

	began = time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), rolloutTimeout)
	defer cancel()
	if err := waitAvailable(ctx, cs, ns, "web", 2); err != nil {
		t.Fatal(err)
	}
	t.Logf("deployment available in %s", time.Since(began).Round(time.Millisecond))

	// The node-lifecycle controller takes a node whose lease is not
	// renewed for unreachable after 40-50 s and marks its pods unready;
	// a test that runs longer would see its rollout undone.
	lease, err := cs.CoordinationV1().Leases(corev1.NamespaceNodeLease).Get(ctx, c.Node, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("node lease: %v", err)
	}
	if lease.Spec.RenewTime == nil {
		t.Errorf("node lease %s has never been renewed", lease.Name)
	}

	pods, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=web"})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pods.Items {
		if p.Spec.NodeName != c.Node || p.Status.Phase != corev1.PodRunning || p.Status.PodIP == "" {
			t.Errorf("pod %s: node %q, phase %s, IP %q; want scheduled to %s, Running, with an IP",
				p.Name, p.Spec.NodeName, p.Status.Phase, p.Status.PodIP, c.Node)
		}
	}
}

func TestStartWithNodes_cleanupStopsEveryProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads the process table from /proc")
	}
	var dir string
	if !t.Run("cluster", func(t *testing.T) {
		dir = Start(t, WithNodes()).dir
	}) {
		return
	}
	if dir == "" {
		t.Skip("the subtest skipped starting a cluster")
	}
	// Every process of the cluster names a file in its directory on its
	// command line; the cleanup waits for them to exit, so none may be left.
	procs, err := filepath.Glob("/proc/[0-9]*/cmdline")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range procs {
		cmdline, err := os.ReadFile(p)
		if err == nil && bytes.Contains(cmdline, []byte(dir)) {
			t.Errorf("still running after the cleanup: %s", bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}))
		}
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("cluster directory %s still there after the cleanup (%v)", dir, err)
	}
}

func TestStart_withoutNodesDeploymentNeverBecomesAvailable(t *testing.T) {
	c := Start(t)
	cs := clientsetFor(t, c.Kubeconfig)
	ns := createNamespace(t, cs, "stuck")
	createDeployment(t, cs, ns, "web", 2)

	// The cluster with nodes rolls out in about a second; five times that
	// without any change shows this wait would never end.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := waitAvailable(ctx, cs, ns, "web", 2)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("waitAvailable = %v, want it to time out", err)
	}
	d, err := cs.AppsV1().Deployments(ns).Get(context.Background(), "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// No controller manager: nothing ever even looked at the Deployment.
	if d.Status.ObservedGeneration != 0 || d.Status.ReadyReplicas != 0 {
		t.Errorf("status = %+v, want it untouched", d.Status)
	}
}

func TestStartWithRBAC_serviceAccountGetsOnlyWhatItsRoleAllows(t *testing.T) {
	c := Start(t, WithRBAC())
	admin := clientsetFor(t, c.Kubeconfig)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	a := createNamespace(t, admin, "a")
	b := createNamespace(t, admin, "b")
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "settings"}, Data: map[string]string{"k": "v"}}
	if _, err := admin.CoreV1().ConfigMaps(a).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "creds"}, StringData: map[string]string{"k": "v"}}
	if _, err := admin.CoreV1().Secrets(b).Create(ctx, secret, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	role := &rbacv1.Role{
		ObjectMeta: metav1.ObjectMeta{Name: "configmap-reader"},
		Rules:      []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"get"}}},
	}
	if _, err := admin.RbacV1().Roles(a).Create(ctx, role, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	binding := &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "reader"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: role.Name},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Namespace: a, Name: "reader"}},
	}
	if _, err := admin.RbacV1().RoleBindings(a).Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	sa := clientsetFor(t, c.ServiceAccountKubeconfig(t, a, "reader"))
	// The authorizer reads roles from an informer cache, so the binding
	// takes effect a moment after it was created: poll for the allowed get.
	var err error
	for {
		_, err = sa.CoreV1().ConfigMaps(a).Get(ctx, "settings", metav1.GetOptions{})
		if !apierrors.IsForbidden(err) || ctx.Err() != nil {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(pollInterval):
		}
	}
	if err != nil {
		t.Fatalf("service account gets configmap %s/settings: %v, want it allowed", a, err)
	}

	_, err = sa.CoreV1().Secrets(b).Get(ctx, "creds", metav1.GetOptions{})
	if !apierrors.IsForbidden(err) {
		t.Errorf("service account gets secret %s/creds: %v, want Forbidden", b, err)
	}
	_, err = sa.CoreV1().ConfigMaps(a).List(ctx, metav1.ListOptions{})
	if !apierrors.IsForbidden(err) {
		t.Errorf("service account lists configmaps in %s: %v, want Forbidden (the role allows get only)", a, err)
	}
	// The test's own kubeconfig is system:masters and unaffected by RBAC.
	if _, err := admin.CoreV1().Secrets(b).Get(ctx, "creds", metav1.GetOptions{}); err != nil {
		t.Errorf("admin gets secret %s/creds: %v", b, err)
	}
}

func clientsetFor(t *testing.T, kubeconfigPath string) kubernetes.Interface {
	t.Helper()
	cfg, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(
		&clientcmd.ClientConfigLoadingRules{ExplicitPath: kubeconfigPath},
		&clientcmd.ConfigOverrides{CurrentContext: contextName},
	).ClientConfig()
	if err != nil {
		t.Fatalf("load kubeconfig: %v", err)
	}
	// The tests poll every pollInterval, faster than client-go's default
	// limit of 5 requests a second.
	cfg.QPS, cfg.Burst = 50, 100
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func createNamespace(t *testing.T, cs kubernetes.Interface, name string) string {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
	if _, err := cs.CoreV1().Namespaces().Create(context.Background(), ns, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create namespace %s: %v", name, err)
	}
	return name
}

func createDeployment(t *testing.T, cs kubernetes.Interface, ns, name string, replicas int32) {
	t.Helper()
	labels := map[string]string{"app": name}
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{
					Name: "web",
					// kwok never pulls or runs an image.
					Image: "registry.invalid/web:1",
				}}},
			},
		},
	}
	if _, err := cs.AppsV1().Deployments(ns).Create(context.Background(), d, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create deployment %s/%s: %v", ns, name, err)
	}
}

// waitAvailable polls until the Deployment's current generation has
// replicas ready pods and is Available, or ctx ends; the error then says
// what was seen last and wraps ctx's error.
func waitAvailable(ctx context.Context, cs kubernetes.Interface, ns, name string, replicas int32) error {
	last := "nothing yet"
	for {
		d, err := cs.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		if err == nil {
			st := d.Status
			available := false
			for _, cond := range st.Conditions {
				if cond.Type == appsv1.DeploymentAvailable && cond.Status == corev1.ConditionTrue {
					available = true
				}
			}
			if st.ObservedGeneration >= d.Generation && st.UpdatedReplicas == replicas &&
				st.ReadyReplicas == replicas && available {
				return nil
			}
			last = fmt.Sprintf("generation %d observed %d, %d updated, %d ready, available %t",
				d.Generation, st.ObservedGeneration, st.UpdatedReplicas, st.ReadyReplicas, available)
		} else if ctx.Err() == nil {
			last = err.Error()
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("deployment %s/%s not available (last seen: %s): %w", ns, name, last, ctx.Err())
		case <-time.After(pollInterval):
		}
	}
}
