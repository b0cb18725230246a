package rollout

import (
	"context"
	"strings"
	"testing"
	"time"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart/loader"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/yaml"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/kubetest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

const apiServerNS = "docs-apiserver"

// TestAPIServerChart_installsAndScales is `helm install` of the chart with
// two replicas on a cluster whose pods turn Ready (kwok), the database URL
// from a Secret the administrator made and the bucket's from one the chart
// makes, then `helm upgrade` to three replicas. Both wait as `--wait` does
// and are then checked against what the cluster reports.
func TestAPIServerChart_installsAndScales(t *testing.T) {
	c := kubetest.Start(t, kubetest.WithNodes())
	t.Setenv("KUBECACHEDIR", t.TempDir())
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cs := c.Namespace(t, apiServerNS)
	pg := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "pg"}, StringData: map[string]string{"uri": testDatabaseURL}}
	if _, err := cs.CoreV1().Secrets(apiServerNS).Create(ctx, pg, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	vals := func(replicas int) map[string]interface{} {
		v := apiServerSharedValues()
		v["replicas"] = replicas
		v["storage"].(map[string]interface{})["database"] = map[string]interface{}{"existingSecret": "pg", "secretKey": "uri"}
		return v
	}

	ac := apiServerHelm(t, c)
	ch, err := loader.Load(apiServerChart)
	if err != nil {
		t.Fatal(err)
	}
	in := action.NewInstall(ac)
	in.ReleaseName, in.Namespace = "docs", apiServerNS
	in.Wait, in.Timeout = true, 2*time.Minute
	in.KubeVersion = testKubeVersion
	if _, err := in.RunWithContext(ctx, ch, vals(2)); err != nil {
		t.Fatalf("install: %v", err)
	}
	d := apiServerDeployment(ctx, t, cs)
	if !apiServerAvailable(d, 2) {
		t.Fatalf("after install the Deployment is at %+v, want 2 available", d.Status)
	}
	firstGen := d.Generation

	// The pod template, as the cluster stores it, names Secrets and keys
	// and holds no credential.
	tmpl, err := yaml.Marshal(d.Spec.Template)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"pgPassw0rdSecret", testObjectStore, testAccessKey, testSecretKey, testAPIKey} {
		if strings.Contains(string(tmpl), secret) {
			t.Errorf("the stored pod template contains %q", secret)
		}
	}
	refs := map[string]string{}
	for _, e := range d.Spec.Template.Spec.Containers[0].Env {
		if e.Value != "" || e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil {
			t.Errorf("env %s is not from a Secret: %+v", e.Name, e)
			continue
		}
		refs[e.Name] = e.ValueFrom.SecretKeyRef.Name + "/" + e.ValueFrom.SecretKeyRef.Key
	}
	for name, want := range map[string]string{
		"DOCSADMIN_DATABASE_URL": "pg/uri",
		"DOCSADMIN_OBJECT_STORE": "docs-docsadmin-apiserver-objects/objectStore",
		"AWS_ACCESS_KEY_ID":      "docs-docsadmin-apiserver-objects/accessKeyId",
		"AWS_SECRET_ACCESS_KEY":  "docs-docsadmin-apiserver-objects/secretAccessKey",
	} {
		if refs[name] != want {
			t.Errorf("env %s from %q, want %q", name, refs[name], want)
		}
	}
	// Every Secret the pods refer to exists, holding the key they ask for;
	// the administrator's own Secret is left as it was.
	for _, ref := range []struct{ name, key, want string }{
		{"pg", "uri", testDatabaseURL},
		{"docs-docsadmin-apiserver-objects", "secretAccessKey", testSecretKey},
		{"docs-docsadmin-apiserver-config", "config.yaml", testAPIKey},
	} {
		s, err := cs.CoreV1().Secrets(apiServerNS).Get(ctx, ref.name, metav1.GetOptions{})
		if err != nil {
			t.Fatalf("secret %s: %v", ref.name, err)
		}
		if !strings.Contains(string(s.Data[ref.key]), ref.want) {
			t.Errorf("secret %s[%s] does not hold what the values gave", ref.name, ref.key)
		}
		if ref.name == "pg" && s.Labels["app.kubernetes.io/managed-by"] != "" {
			t.Errorf("the chart took over the administrator's Secret pg: labels %v", s.Labels)
		}
	}
	if _, err := cs.PolicyV1().PodDisruptionBudgets(apiServerNS).Get(ctx, "docs-docsadmin-apiserver", metav1.GetOptions{}); err != nil {
		t.Errorf("no PodDisruptionBudget with two replicas: %v", err)
	}
	assertAPIServerReadyPods(ctx, t, cs, 2)

	up := action.NewUpgrade(ac)
	up.Namespace, up.Wait, up.Timeout = apiServerNS, true, 2*time.Minute
	if _, err := up.RunWithContext(ctx, "docs", ch, vals(3)); err != nil {
		t.Fatalf("upgrade to 3 replicas: %v", err)
	}
	d = apiServerDeployment(ctx, t, cs)
	if !apiServerAvailable(d, 3) || d.Generation <= firstGen {
		t.Fatalf("after the upgrade the Deployment is at generation %d (was %d), %+v; want 3 available",
			d.Generation, firstGen, d.Status)
	}
	assertAPIServerReadyPods(ctx, t, cs, 3)

	// New config values: the server reads them at start, so the pods are
	// replaced, one surge at a time, and the release ends with 3 available.
	changed := vals(3)
	cfg := apiServerConfigValues("")
	cfg["maxActiveExports"] = 20
	changed["config"] = map[string]interface{}{"values": cfg}
	oldHash := d.Spec.Template.Annotations["checksum/secrets"]
	if _, err := up.RunWithContext(ctx, "docs", ch, changed); err != nil {
		t.Fatalf("upgrade with new config: %v", err)
	}
	d = apiServerDeployment(ctx, t, cs)
	if d.Spec.Template.Annotations["checksum/secrets"] == oldHash {
		t.Fatalf("the config upgrade left the pod template as it was: %v", d.Spec.Template.Annotations)
	}
	// --wait returns once the new pods are Ready; the old ones may still
	// be on their way out, so the final count is polled.
	testutil.Eventually(t, time.Minute, "3 available replicas of the new template, no old ones", func() bool {
		d = apiServerDeployment(ctx, t, cs)
		return apiServerAvailable(d, 3)
	})
	s, err := cs.CoreV1().Secrets(apiServerNS).Get(ctx, "docs-docsadmin-apiserver-config", metav1.GetOptions{})
	if err != nil || !strings.Contains(string(s.Data["config.yaml"]), "maxActiveExports: 20") {
		t.Errorf("config Secret after the upgrade: %v\n%s", err, s.Data["config.yaml"])
	}
}

// apiServerHelm is Helm's client for the test cluster, storing releases in
// Secrets as the helm CLI does.
func apiServerHelm(t *testing.T, c *kubetest.Cluster) *action.Configuration {
	t.Helper()
	flags := genericclioptions.NewConfigFlags(false)
	kubeconfig, kubeContext, ns := c.Kubeconfig, c.Context, apiServerNS
	flags.KubeConfig, flags.Context, flags.Namespace = &kubeconfig, &kubeContext, &ns
	ac := new(action.Configuration)
	if err := ac.Init(flags, ns, "secret", t.Logf); err != nil {
		t.Fatal(err)
	}
	return ac
}

func apiServerDeployment(ctx context.Context, t *testing.T, cs kubernetes.Interface) *appsv1.Deployment {
	t.Helper()
	d, err := cs.AppsV1().Deployments(apiServerNS).Get(ctx, "docs-docsadmin-apiserver", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// apiServerAvailable is ready() plus the Available count a Service routes to.
func apiServerAvailable(d *appsv1.Deployment, want int32) bool {
	return d.Spec.Replicas != nil && *d.Spec.Replicas == want && ready(d) && d.Status.AvailableReplicas == want
}

// assertAPIServerReadyPods counts the release's pods that report Ready.
func assertAPIServerReadyPods(ctx context.Context, t *testing.T, cs kubernetes.Interface, want int) {
	t.Helper()
	pods, err := cs.CoreV1().Pods(apiServerNS).List(ctx, metav1.ListOptions{
		LabelSelector: "app.kubernetes.io/name=docsadmin-apiserver,app.kubernetes.io/instance=docs",
	})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range pods.Items {
		if p.DeletionTimestamp != nil {
			continue
		}
		for _, cond := range p.Status.Conditions {
			if cond.Type == corev1.PodReady && cond.Status == corev1.ConditionTrue {
				n++
			}
		}
	}
	if n != want {
		t.Errorf("%d Ready pods, want %d", n, want)
	}
}
