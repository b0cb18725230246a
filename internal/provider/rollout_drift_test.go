package provider

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// rolloutWorkload is the chart's serve-bundle Deployment.
const rolloutWorkload = "docs-docsadmin-self-hosted"

// driftBefore is a plan check: the rollout's refreshed state, the "before"
// of its planned change, lists exactly want in drift, the lines the diff
// shows going away.
type driftBefore struct{ want []string }

func (c driftBefore) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != rolloutAddr {
			continue
		}
		before, _ := rc.Change.Before.(map[string]any)
		var got []string
		list, _ := before["drift"].([]any)
		for _, l := range list {
			got = append(got, fmt.Sprint(l))
		}
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			resp.Error = fmt.Errorf("the plan's drift before the change is %q, want %q", got, c.want)
		}
		return
	}
	resp.Error = fmt.Errorf("no planned change of %s", rolloutAddr)
}

// scaleWorkload sets the serve-bundle Deployment's replicas by hand.
func (e *rolloutEnv) scaleWorkload(t *testing.T, n int) {
	t.Helper()
	if _, err := e.cs.AppsV1().Deployments(e.ns).Patch(t.Context(), rolloutWorkload, "application/merge-patch+json",
		fmt.Appendf(nil, `{"spec":{"replicas":%d}}`, n), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
}

// TestAccStaticExportRollout_objectDrift: on a real kube-apiserver, with
// the real terraform, objects of the release changed by hand (the
// Deployment scaled to zero, the bundle Secret deleted) show in the plan
// as an in-place update whose diff names each object and field; the apply
// makes a new revision that puts them back, and the next plan is empty. A
// drift_ignore rule for an autoscaler's replicas keeps that field out of
// the plan, and a malformed rule is refused.
func TestAccStaticExportRollout_objectDrift(t *testing.T) {
	e := newParallelRolloutEnv(t)
	noDrift := statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("drift"), knownvalue.ListExact([]knownvalue.Check{}))
	emptyAfter := []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories,
		Steps: []resource.TestStep{
			{
				Config:            e.jobConfigWith(""),
				ConfigPlanChecks:  resource.ConfigPlanChecks{PostApplyPostRefresh: emptyAfter},
				ConfigStateChecks: []statecheck.StateCheck{noDrift, statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("revision"), knownvalue.Int64Exact(1))},
			},
			{
				PreConfig: func() {
					e.scaleWorkload(t, 0)
					if err := e.cs.CoreV1().Secrets(e.ns).Delete(t.Context(), rolloutSecret, metav1.DeleteOptions{}); err != nil {
						t.Fatal(err)
					}
				},
				Config: e.jobConfigWith(""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(rolloutAddr, plancheck.ResourceActionUpdate),
						driftBefore{want: []string{
							"Deployment/" + rolloutWorkload + ": spec.replicas is 0, the release says 1",
							"Secret/" + rolloutSecret + " is missing (the release has it)",
						}},
						plancheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("drift"), knownvalue.ListExact([]knownvalue.Check{})),
						plancheck.ExpectUnknownValue(rolloutAddr, tfjsonpath.New("revision")),
					},
					PostApplyPostRefresh: emptyAfter,
				},
				ConfigStateChecks: []statecheck.StateCheck{noDrift, statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("revision"), knownvalue.Int64Exact(2))},
				Check: func(*terraform.State) error {
					d, err := e.cs.AppsV1().Deployments(e.ns).Get(t.Context(), rolloutWorkload, metav1.GetOptions{})
					if err != nil {
						return err
					}
					if d.Spec.Replicas == nil || *d.Spec.Replicas != 1 {
						return fmt.Errorf("the Deployment has %v replicas after the correction", d.Spec.Replicas)
					}
					return e.secretHolds(t)(e.current(t).BundleURL)
				},
			},
			{
				Config:      e.jobConfigWith(`  drift_ignore = ["replicas"]` + "\n"),
				ExpectError: regexp.MustCompile(`Invalid Drift Ignore Rule`),
			},
			{
				Config:            e.jobConfigWith(`  drift_ignore = ["Deployment:spec.replicas"]` + "\n"),
				ConfigPlanChecks:  resource.ConfigPlanChecks{PostApplyPostRefresh: emptyAfter},
				ConfigStateChecks: []statecheck.StateCheck{noDrift, statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("revision"), knownvalue.Int64Exact(2))},
			},
			{
				// An autoscaler scales the Deployment: no plan.
				PreConfig: func() { e.scaleWorkload(t, 3) },
				Config:    e.jobConfigWith(`  drift_ignore = ["Deployment:spec.replicas"]` + "\n"),
				PlanOnly:  true,
			},
		},
	})
	if s := e.current(t); s.Revision != 2 || !strings.HasPrefix(s.Status, "deployed") {
		t.Fatalf("release after the test: revision %d, status %s", s.Revision, s.Status)
	}
}
