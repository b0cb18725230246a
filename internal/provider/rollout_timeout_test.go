package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestAccStaticExportRollout_failedUpgradeRollsBack is the bad change
// through Terraform: on a cluster where no pod ever becomes ready, an
// atomic upgrade runs out of its update timeout. The apply fails with
// Helm's reason, the release is rolled back to the last deployed revision
// (deployed, the old values), and state keeps the previous values, so the
// old configuration plans nothing.
func TestAccStaticExportRollout_failedUpgradeRollsBack(t *testing.T) {
	e := newParallelRolloutEnv(t)
	config := func(version string, atomic bool) string {
		return e.atomicConfig(version, atomic, `
  timeouts = {
    update = "8s"
  }
`)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories,
		Steps: []resource.TestStep{
			{
				Config: config("v1", false),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("revision"), knownvalue.Int64Exact(1)),
				},
			},
			{
				// Helm's reason (the wait that ran out) and the rollback
				// are both in the error.
				Config:      config("v2", true),
				ExpectError: regexp.MustCompile(`Timed Out Upgrading Release(?s:.*)waiting\s+for\s+resources(?s:.*)rolled\s+back\s+to\s+revision\s+1`),
			},
			{
				PreConfig: func() {
					s := e.current(t)
					if s.Status != "deployed" || s.Version != "v1" || s.Revision != 3 {
						t.Errorf("after the failed upgrade the release is revision %d, %s, version %q; want revision 3 "+
							"(the rollback to 1), deployed, v1", s.Revision, s.Status, s.Version)
					}
				},
				// State still holds v1: the old configuration plans nothing.
				Config:   config("v1", false),
				PlanOnly: true,
			},
		},
	})
}
