package rollout_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout/rollouttest"
)

// The fixture of the drift tests, which see the package from outside
// through rollouttest.
const (
	driftNS, driftRelease = "docs", "docs"
	driftChart            = "../../examples/self-hosted-chart"
	driftSig              = "topsecret123"
	driftURL              = "https://bundles.example.com/se_1/bundle.tar.gz?X-Amz-Signature=" + driftSig
)

// driftFixture installs the reference chart with a link over Helm's memory
// storage and puts the objects it rendered into client-go's fake
// clientset, as a cluster would hold them.
func driftFixture(t *testing.T) (*rollouttest.Cluster, *fake.Clientset) {
	t.Helper()
	c := rollouttest.NewCluster(driftNS)
	if _, err := c.Roller.Apply(t.Context(), rollout.Request{Release: driftRelease, Install: true, Chart: driftChart,
		BundleURL: driftURL, Version: "v1", ExpiresAt: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := c.Sync(driftRelease); err != nil {
		t.Fatal(err)
	}
	return c, c.Kube
}

// TestDrift_eachKind: an image edited by hand, the Deployment scaled to
// zero, the bundle Secret's link replaced and the Service deleted are each
// reported naming object and field, without the link; an ignore rule for
// an autoscaler's replicas leaves that one out.
func TestDrift_eachKind(t *testing.T) {
	c, cs := driftFixture(t)
	ctx := t.Context()
	if d, err := c.Roller.Drift(ctx, driftRelease, nil); err != nil || len(d) != 0 {
		t.Fatalf("drift right after install: %v %v", d, err)
	}
	const dep, sec, svc = "docs-docsadmin-self-hosted", "docs-docsadmin-self-hosted-bundle", "docs-docsadmin-self-hosted"
	d, err := cs.AppsV1().Deployments(driftNS).Get(ctx, dep, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	zero := int32(0)
	d.Spec.Replicas = &zero
	d.Spec.Template.Spec.Containers[0].Image = "example.com/other:latest"
	if _, err := cs.AppsV1().Deployments(driftNS).Update(ctx, d, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	s, err := cs.CoreV1().Secrets(driftNS).Get(ctx, sec, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s.Data["bundleUrl"] = []byte("https://elsewhere.example.com/b.tar.gz")
	if _, err := cs.CoreV1().Secrets(driftNS).Update(ctx, s, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := cs.CoreV1().Services(driftNS).Delete(ctx, svc, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}

	drifts, err := c.Roller.Drift(ctx, driftRelease, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range drifts {
		got = append(got, d.String())
	}
	slices.Sort(got)
	want := []string{
		"Deployment/" + dep + ": spec.replicas is 0, the release says 1",
		"Deployment/" + dep + ": spec.template.spec.containers[serve-bundle].image is example.com/other:latest, the release says ghcr.io/docsadmin/terraform-provider-docsadmin:0.1.0",
		"Secret/" + sec + ": data.bundleUrl is changed, the release says the release's value",
		"Service/" + svc + " is missing (the release has it)",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("drift:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if all := fmt.Sprint(drifts); strings.Contains(all, driftSig) || strings.Contains(all, "elsewhere") {
		t.Fatalf("a drift report shows the link: %s", all)
	}

	drifts, err = c.Roller.Drift(ctx, driftRelease, []string{"Deployment:spec.replicas", "Service/other:metadata"})
	if err != nil || len(drifts) != 3 || slices.ContainsFunc(drifts, func(d rollout.Drift) bool { return d.Field == "spec.replicas" }) {
		t.Fatalf("with replicas ignored: %v %v", drifts, err)
	}
}

// TestDrift_repairMakesARevision: a repair with unchanged values creates a
// revision (the upgrade that puts drifted objects back); without Repair the
// same request creates none.
func TestDrift_repairMakesARevision(t *testing.T) {
	c, _ := driftFixture(t)
	st, err := c.Roller.Current(t.Context(), driftRelease)
	if err != nil {
		t.Fatal(err)
	}
	req := rollout.Request{Release: driftRelease, BundleURL: driftURL, Version: "v1", ExpiresAt: st.ExpiresAt}
	res, err := c.Roller.Apply(t.Context(), req)
	if err != nil || res.Revision != 1 {
		t.Fatalf("same values: revision %d %v, want 1 (no new revision)", res.Revision, err)
	}
	req.Repair = true
	if res, err = c.Roller.Apply(t.Context(), req); err != nil || res.Revision != 2 || res.Status != "deployed" {
		t.Fatalf("repair: revision %d %v, want 2 deployed", res.Revision, err)
	}
}

func TestCheckIgnoreRule(t *testing.T) {
	for rule, ok := range map[string]bool{
		"Deployment:spec.replicas": true, "Deployment/docs:spec.replicas": true,
		"Deployment": false, ":spec.replicas": false, "Deployment:": false, "Deployment:spec replicas": false,
	} {
		if err := rollout.CheckIgnoreRule(rule); (err == nil) != ok {
			t.Errorf("%q: %v", rule, err)
		}
	}
}
