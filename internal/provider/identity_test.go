package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestAccStaticExport_identity: the identity is the job ID from Create on,
// and an import block that gives only the identity adopts the job with an
// empty plan.
func TestAccStaticExport_identity(t *testing.T) {
	t.Parallel()
	requireCLI(t, featureIdentity)
	env := newAccEnv(t)
	cfg := env.config(exportConfig(env.Domain, "a"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.factories,
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentity(exportAddr, map[string]knownvalue.Check{
						"job_id": knownvalue.StringRegexp(regexp.MustCompile(`.+`)),
					}),
					statecheck.ExpectIdentityValueMatchesStateAtPath(exportAddr, tfjsonpath.New("job_id"), tfjsonpath.New("id")),
				},
			},
			{
				// The identity survives a refresh and an in-place update
				// (a timeouts change), which OpenTofu before 1.12 needs.
				Config: env.config(`
resource "docsadmin_static_export" "docs" {
  domain   = "` + env.Domain + `"
  version  = "2026-01"
  triggers = { content = "a" }
  timeouts = { create = "20m" }
}
`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(exportAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentityValueMatchesStateAtPath(exportAddr, tfjsonpath.New("job_id"), tfjsonpath.New("id")),
				},
			},
			{
				// The API does not return a job's arguments, so the import
				// plans an in-place update adopting them, not a new export.
				Config:             cfg,
				ResourceName:       exportAddr,
				ImportState:        true,
				ImportStateKind:    resource.ImportBlockWithResourceIdentity,
				ExpectNonEmptyPlan: true,
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(exportAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(exportAddr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`.+`))),
				}},
			},
		},
	})
}

// TestAccStaticExportRollout_importByIdentity adopts a release through an
// import block naming only its namespace and release; the plan that follows
// shows no change, and the identity is set on create and after refresh.
func TestAccStaticExportRollout_importByIdentity(t *testing.T) {
	requireCLI(t, featureIdentity)
	e := newRolloutEnv(t)
	cfg := e.atomicConfig("v1", false, "")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories,
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentity(rolloutAddr, map[string]knownvalue.Check{
						"namespace": knownvalue.StringExact(e.ns),
						"release":   knownvalue.StringExact(rolloutRelease),
					}),
				},
			},
			{
				// Import reads what the release carries; the settings of
				// how to install it (chart, install, atomic) are adopted in
				// place, without a new revision.
				Config:             cfg,
				ResourceName:       rolloutAddr,
				ImportState:        true,
				ImportStateKind:    resource.ImportBlockWithResourceIdentity,
				ExpectNonEmptyPlan: true,
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(rolloutAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("id"), knownvalue.StringExact(e.ns+"/"+rolloutRelease)),
					plancheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("version"), knownvalue.StringExact("v1")),
				}},
			},
		},
	})
}

// TestAccStaticExportRollout_importIdentityIsChecked: an identity with an
// empty release is the identity's fault, said before any cluster call.
func TestAccStaticExportRollout_importIdentityIsChecked(t *testing.T) {
	t.Parallel()
	requireCLI(t, featureIdentity)
	env := newAccEnv(t)
	env.expectError(t, env.config(fmt.Sprintf(`
import {
  to       = %s
  identity = { namespace = "docs", release = "" }
}

resource "docsadmin_static_export_rollout" "docs" {
  release    = "docs"
  namespace  = "docs"
  bundle_url = "https://bundles.example.com/b.tar.gz"
  version    = "v1"
}
`, rolloutAddr)), `(?s)Invalid Import Identity.*namespace and a release`, true)
}
