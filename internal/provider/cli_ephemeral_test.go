package provider

import (
	"context"
	"fmt"
	"slices"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
)

// featureEphemeralPlans is a plan whose JSON leaves ephemeral resources
// out of its resource changes. OpenTofu before 1.12 lists each one as an
// "open" change (opentofu/opentofu#3781; 1.12 leaves them out, as
// Terraform always has), and terraform-plugin-testing counts that as a
// change: a plan the CLI itself reports as "No changes" fails the step's
// empty-plan checks.
var featureEphemeralPlans = cliFeature{"ephemeral resources left out of a plan's changes", "1.10.0", "1.12.0"}

// ephemeralPlanSteps returns steps unchanged on a CLI with
// featureEphemeralPlans. On one without, each step's empty-plan checks
// are made to pass over the ephemeral resources' "open" entries, and only
// those: the step expects a non-empty plan (so terraform-plugin-testing
// does not count them), and onlyEphemeralOpens, checked on the plans
// before and after the refresh, fails on any other change, as the
// built-in check would. plancheck.ExpectEmptyPlan, which would count
// them too, gives way to it. The test says so in its log.
func ephemeralPlanSteps(t *testing.T, steps []resource.TestStep) []resource.TestStep {
	t.Helper()
	c := testCLI(t)
	if c.has(featureEphemeralPlans) {
		return steps
	}
	t.Logf("%s lists ephemeral resources as \"open\" changes in its plans (opentofu/opentofu#3781): "+
		"the empty-plan checks pass over those entries and only those", c)
	out := slices.Clone(steps)
	for i := range out {
		s := &out[i]
		if s.ExpectError != nil || s.ExpectNonEmptyPlan {
			continue
		}
		s.ExpectNonEmptyPlan = true
		pc := &s.ConfigPlanChecks
		pc.PostApplyPreRefresh = append(withoutEmptyPlan(pc.PostApplyPreRefresh), onlyEphemeralOpens{})
		pc.PostApplyPostRefresh = append(withoutEmptyPlan(pc.PostApplyPostRefresh), onlyEphemeralOpens{})
	}
	return out
}

// withoutEmptyPlan drops plancheck.ExpectEmptyPlan from checks, known by
// its type, which the package does not export.
func withoutEmptyPlan(checks []plancheck.PlanCheck) []plancheck.PlanCheck {
	empty := fmt.Sprintf("%T", plancheck.ExpectEmptyPlan())
	return slices.DeleteFunc(slices.Clone(checks), func(c plancheck.PlanCheck) bool { return fmt.Sprintf("%T", c) == empty })
}

// onlyEphemeralOpens passes a plan whose only changes are ephemeral
// resources being opened.
type onlyEphemeralOpens struct{}

func (onlyEphemeralOpens) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Change.Actions.NoOp() {
			continue
		}
		if rc.Mode == tfjson.ResourceMode("ephemeral") && slices.Equal(rc.Change.Actions, tfjson.Actions{"open"}) {
			continue
		}
		resp.Error = fmt.Errorf("expected an empty plan, but %s has planned action(s): %v", rc.Address, rc.Change.Actions)
		return
	}
	for name, oc := range req.Plan.OutputChanges {
		if !oc.Actions.NoOp() {
			resp.Error = fmt.Errorf("expected an empty plan, but output %s has planned action(s): %v", name, oc.Actions)
			return
		}
	}
}

// The stand-in for the empty-plan check passes ephemeral opens and no-ops
// and fails on anything else, as the check it replaces does.
func TestOnlyEphemeralOpens(t *testing.T) {
	change := func(mode string, actions ...tfjson.Action) *tfjson.ResourceChange {
		return &tfjson.ResourceChange{Address: mode + ".x", Mode: tfjson.ResourceMode(mode), Change: &tfjson.Change{Actions: actions}}
	}
	for name, tc := range map[string]struct {
		plan tfjson.Plan
		ok   bool
	}{
		"empty":          {tfjson.Plan{}, true},
		"open and no-op": {tfjson.Plan{ResourceChanges: []*tfjson.ResourceChange{change("ephemeral", "open"), change("managed", tfjson.ActionNoop)}}, true},
		"update":         {tfjson.Plan{ResourceChanges: []*tfjson.ResourceChange{change("ephemeral", "open"), change("managed", tfjson.ActionUpdate)}}, false},
		"managed open":   {tfjson.Plan{ResourceChanges: []*tfjson.ResourceChange{change("managed", "open")}}, false},
		"output":         {tfjson.Plan{OutputChanges: map[string]*tfjson.Change{"o": {Actions: tfjson.Actions{tfjson.ActionCreate}}}}, false},
	} {
		t.Run(name, func(t *testing.T) {
			var resp plancheck.CheckPlanResponse
			onlyEphemeralOpens{}.CheckPlan(t.Context(), plancheck.CheckPlanRequest{Plan: &tc.plan}, &resp)
			if (resp.Error == nil) != tc.ok {
				t.Fatalf("error %v, want ok %t", resp.Error, tc.ok)
			}
		})
	}
	checks := withoutEmptyPlan([]plancheck.PlanCheck{plancheck.ExpectEmptyPlan(), plancheck.ExpectNonEmptyPlan()})
	if len(checks) != 1 {
		t.Fatalf("withoutEmptyPlan kept %d checks", len(checks))
	}
}
