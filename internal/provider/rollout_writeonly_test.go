package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// ephemeralConfig feeds the ephemeral bundle's link into the rollout's
// write-only argument; woVersion says when to write it again.
func (e *rolloutEnv) ephemeralConfig(woVersion string) string {
	return e.config(exportConfig(e.Domain, "a") + fmt.Sprintf(`
ephemeral "docsadmin_static_export_bundle" "site" {
  job_id = docsadmin_static_export.docs.id
}

resource "docsadmin_static_export_rollout" "docs" {
  release         = %q
  namespace       = %q
  kubeconfig_path = %q
  kube_context    = %q
  chart           = %q
  install         = true
  atomic          = false

  bundle_url_wo         = ephemeral.docsadmin_static_export_bundle.site.bundle_url
  bundle_url_wo_version = %q
  version               = docsadmin_static_export.docs.content_version
}
`, rolloutRelease, e.ns, e.cluster.Kubeconfig, e.cluster.Context, e.chart, woVersion))
}

// TestAccStaticExportRollout_ephemeralIntoWriteOnly: the ephemeral link
// reaches the release through bundle_url_wo and never state; a plan opens
// a new link but does not write it until bundle_url_wo_version changes.
func TestAccStaticExportRollout_ephemeralIntoWriteOnly(t *testing.T) {
	e := newParallelRolloutEnv(t)
	workDir := stateDir(t)
	noLink := noLinkInState{e: e, t: t, tmpDir: workDir}
	var link string
	checks := func(revision int64, woVersion string) []statecheck.StateCheck {
		return []statecheck.StateCheck{
			noLink,
			statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("bundle_url"), knownvalue.Null()),
			statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("bundle_url_wo"), knownvalue.Null()),
			statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("bundle_url_wo_version"), knownvalue.StringExact(woVersion)),
			statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("revision"), knownvalue.Int64Exact(revision)),
			statecheck.CompareValuePairs(exportAddr, tfjsonpath.New("content_version"), rolloutAddr, tfjsonpath.New("version"),
				compare.ValuesSame()),
		}
	}
	resource.Test(t, resource.TestCase{
		WorkingDir:               workDir,
		ProtoV6ProviderFactories: e.factories,
		// Documentation only: 1.11.4 is on PATH, so nothing is skipped.
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
		Steps: ephemeralPlanSteps(t, []resource.TestStep{
			{
				Config:            e.ephemeralConfig("1"),
				ConfigPlanChecks:  resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: checks(1, "1"),
				Check: func(*terraform.State) error {
					link = e.current(t).BundleURL
					return e.secretHolds(t)(link)
				},
			},
			{
				// A new plan opens a new link, which is not written: the
				// write-only value is not compared.
				Config:   e.ephemeralConfig("1"),
				PlanOnly: true,
			},
			{
				Config: e.ephemeralConfig("2"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(exportAddr, plancheck.ResourceActionNoop),
						plancheck.ExpectResourceAction(rolloutAddr, plancheck.ResourceActionUpdate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: checks(2, "2"),
				Check: func(*terraform.State) error {
					if e.current(t).BundleURL == link {
						return fmt.Errorf("a new bundle_url_wo_version did not write the new link")
					}
					return e.secretHolds(t)(e.current(t).BundleURL)
				},
			},
		}),
	})
}

// TestAccStaticExportRollout_unrelatedChangeKeepsWriteOnlyLink: an update
// for another reason (here a timeouts change) keeps the link the release
// carries, although the ephemeral bundle opened a different one for this
// run: only a new bundle_url_wo_version writes the configured link.
func TestAccStaticExportRollout_unrelatedChangeKeepsWriteOnlyLink(t *testing.T) {
	e := newParallelRolloutEnv(t)
	var link string
	withTimeouts := strings.Replace(e.ephemeralConfig("1"), "  atomic          = false\n",
		"  atomic          = false\n  timeouts        = { update = \"5m\" }\n", 1)
	if withTimeouts == e.ephemeralConfig("1") {
		t.Fatal("the configuration changed shape; the timeouts line was not added")
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories,
		Steps: ephemeralPlanSteps(t, []resource.TestStep{
			{
				Config: e.ephemeralConfig("1"),
				Check: func(*terraform.State) error {
					link = e.current(t).BundleURL
					return e.secretHolds(t)(link)
				},
			},
			{
				Config: withTimeouts,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(rolloutAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("revision"), knownvalue.Int64Exact(1)),
				},
				Check: func(*terraform.State) error {
					if got := e.current(t).BundleURL; got != link {
						return fmt.Errorf("an unrelated change replaced the write-only link")
					}
					return e.secretHolds(t)(link)
				},
			},
		}),
	})
}
