package kubetest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// Clientset is a client for the cluster acting as system:masters, the
// identity of c.Kubeconfig, or the test fails. Unlike the package's own
// polling client it sets no request timeout, so watches run as long as
// the test wants them to.
func (c *Cluster) Clientset(t testing.TB) kubernetes.Interface {
	t.Helper()
	cfg := c.RESTConfig()
	// client-go's default of 5 requests a second would throttle the
	// tests' polls.
	cfg.QPS, cfg.Burst = 50, 100
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatalf("kubetest: kubernetes client: %v", err)
	}
	return cs
}

// Namespace creates the namespace name and returns Clientset, or the test
// fails: the fixture every rollout test starts from.
func (c *Cluster) Namespace(t testing.TB, name string) kubernetes.Interface {
	t.Helper()
	cs := c.Clientset(t)
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
	if _, err := cs.CoreV1().Namespaces().Create(t.Context(), ns, metav1.CreateOptions{}); err != nil {
		t.Fatalf("kubetest: create namespace %s: %v", name, err)
	}
	return cs
}

// TemplateFingerprint is a digest of a Deployment's pod template: it
// changes exactly when an update would roll the pods. The generation is
// no such sign: a Deployment's generation also moves when only its own
// annotations change (the chart records the last rollout there).
func TemplateFingerprint(d *appsv1.Deployment) string {
	b, err := json.Marshal(d.Spec.Template)
	if err != nil {
		return "unmarshalable template: " + err.Error()
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}
