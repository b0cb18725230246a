package provider

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/docsadmin/terraform-provider-docsadmin/docsadmintest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
)

// jobConfig is the recommended flow: an export and the release that serves
// it, with no link anywhere in the configuration.
func (e *rolloutEnv) jobConfig() string { return e.jobConfigWith("") }

// jobConfigWith is jobConfig with extra inside the rollout's block.
func (e *rolloutEnv) jobConfigWith(extra string) string {
	return e.config(exportConfig(e.Domain, "a") + fmt.Sprintf(`
resource "docsadmin_static_export_rollout" "docs" {
  release         = %q
  namespace       = %q
  kubeconfig_path = %q
  kube_context    = %q
  chart           = %q
  install         = true
  atomic          = false
  job_id          = docsadmin_static_export.docs.id
%s}
`, rolloutRelease, e.ns, e.cluster.Kubeconfig, e.cluster.Context, e.chart, extra))
}

// TestAccStaticExportRollout_jobID walks the job_id flow on a real
// kube-apiserver: install, import by job, renewal at plan time, drift of
// the link (changed, then switched off) corrected, an empty plan after each
// apply, and never a part of a link's signature in state.
func TestAccStaticExportRollout_jobID(t *testing.T) {
	e := newRolloutEnv(t)
	workDir := stateDir(t)
	noLink := noLinkInState{e: e, t: t, tmpDir: workDir}
	sameJob := statecheck.CompareValuePairs(exportAddr, tfjsonpath.New("id"), rolloutAddr, tfjsonpath.New("job_id"), compare.ValuesSame())
	versionIsContent := statecheck.CompareValuePairs(exportAddr, tfjsonpath.New("content_version"),
		rolloutAddr, tfjsonpath.New("version"), compare.ValuesSame())
	newExpiry := statecheck.CompareValue(compare.ValuesDiffer())
	releaseExpiry := knownvalue.StringFunc(e.releaseHas(t, func(s *rollout.State) string { return s.ExpiresAt.Format(time.RFC3339) }))
	digest := knownvalue.StringFunc(e.releaseHas(t, func(s *rollout.State) string { return s.ValuesDigest }))
	emptyAfter := []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}
	common := func(revision int64) []statecheck.StateCheck {
		return []statecheck.StateCheck{
			noLink, sameJob, versionIsContent,
			statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("bundle_url"), knownvalue.Null()),
			statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("expires_at"), releaseExpiry),
			statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("revision"), knownvalue.Int64Exact(revision)),
			statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("values_digest"), digest),
			newExpiry.AddStateValue(rolloutAddr, tfjsonpath.New("expires_at")),
		}
	}
	var link string       // the release's link, to tell a new one
	var generation string // the pod template's fingerprint
	resource.Test(t, resource.TestCase{
		WorkingDir:               workDir,
		ProtoV6ProviderFactories: e.factories,
		Steps: []resource.TestStep{
			{
				Config:            e.jobConfig(),
				ConfigPlanChecks:  resource.ConfigPlanChecks{PostApplyPostRefresh: emptyAfter},
				ConfigStateChecks: common(1),
				Check: func(*terraform.State) error {
					link, generation = e.current(t).BundleURL, e.deploymentGeneration(t)
					return e.secretHolds(t)(link)
				},
			},
			{
				ResourceName:      rolloutAddr,
				ImportState:       true,
				ImportStateVerify: true,
				ImportStateIdFunc: func(s *terraform.State) (string, error) {
					return e.ns + "/" + rolloutRelease + "/" + s.RootModule().Resources[exportAddr].Primary.ID, nil
				},
				ImportStateVerifyIgnore: []string{"kubeconfig_path", "kube_context", "chart", "install", "atomic", "wait", "timeouts"},
			},
			{
				// 50 minutes in, the 1h link is within renew_before (15m):
				// the same job gets a new link, the pods do not roll.
				PreConfig: func() { e.Clock.Advance(50 * time.Minute) },
				Config:    e.jobConfig(),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(exportAddr, plancheck.ResourceActionNoop),
						plancheck.ExpectResourceAction(rolloutAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectUnknownValue(rolloutAddr, tfjsonpath.New("expires_at")),
						plancheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("version"), knownvalue.NotNull()),
					},
					PostApplyPostRefresh: emptyAfter,
				},
				ConfigStateChecks: common(2),
				Check: func(*terraform.State) error {
					cur := e.current(t)
					if cur.BundleURL == link {
						return fmt.Errorf("the release kept its old link")
					}
					if g := e.deploymentGeneration(t); g != generation {
						return fmt.Errorf("renewing the link changed the pod template: %s -> %s", generation, g)
					}
					link = cur.BundleURL
					return e.secretHolds(t)(link)
				},
			},
			{
				// Someone points the release at another link by hand.
				PreConfig: func() {
					e.Clock.Advance(time.Minute) // so that the new link's expiry differs to the second
					cur := e.current(t)
					if _, err := e.roller.Apply(t.Context(), rollout.Request{Release: rolloutRelease, OnFailure: rollout.KeepFailed,
						BundleURL: "https://elsewhere.example/b.tar.gz", Version: cur.Version, ExpiresAt: cur.ExpiresAt}); err != nil {
						t.Fatal(err)
					}
				},
				Config: e.jobConfig(),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(rolloutAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectUnknownValue(rolloutAddr, tfjsonpath.New("expires_at")),
					},
					PostApplyPostRefresh: emptyAfter,
				},
				ConfigStateChecks: common(4),
			},
			{
				// Someone switches the static export off by hand.
				PreConfig: func() {
					e.Clock.Advance(time.Minute)
					e.disableStaticExport(t)
				},
				Config: e.jobConfig(),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(rolloutAddr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: emptyAfter,
				},
				ConfigStateChecks: common(5),
			},
			{
				Config:   e.jobConfig(),
				PlanOnly: true,
			},
		},
	})
	if s := e.current(t); s.Revision != 5 || !s.Enabled {
		t.Fatalf("release after the test: revision %d, enabled %t", s.Revision, s.Enabled)
	}
}

// TestAccStaticExportRollout_renewalByTheServersClock: the server's clock
// runs 50 minutes ahead of the machine's (moved by the control plane, as
// another suite would, or simply skewed). By the machine's clock the
// release's 1h link has 50 minutes left, beyond renew_before (15m); by the
// server's, which signs the link and refuses it once expired, it is due.
// The plan renews it, and the release gets a link the server honours.
func TestAccStaticExportRollout_renewalByTheServersClock(t *testing.T) {
	t.Parallel()
	const token = "control-token-for-the-rollout-skew-test"
	e := startRolloutEnvOn(t, newAccEnv(t, apiservertest.WithControlToken(token)))
	control := docsadmintest.NewControl(e.URL, token)
	var link string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories,
		Steps: []resource.TestStep{
			{
				Config: e.jobConfig(),
				Check:  func(*terraform.State) error { link = e.current(t).BundleURL; return nil },
			},
			{
				// The machine's clock has not moved: by it, nothing is due.
				Config:           e.jobConfig(),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				PreConfig: func() {
					if _, err := control.Advance(context.Background(), 50*time.Minute); err != nil {
						t.Fatal(err)
					}
				},
				Config: e.jobConfig(),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(exportAddr, plancheck.ResourceActionNoop),
						plancheck.ExpectResourceAction(rolloutAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectUnknownValue(rolloutAddr, tfjsonpath.New("expires_at")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: func(*terraform.State) error {
					cur := e.current(t)
					if cur.BundleURL == link {
						return fmt.Errorf("the release kept the link the server's clock says is due")
					}
					if err := downloads(cur.BundleURL); err != nil {
						return fmt.Errorf("the renewed link: %w", err)
					}
					return e.secretHolds(t)(cur.BundleURL)
				},
			},
		},
	})
}
