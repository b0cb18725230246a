package provider

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/redact"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
)

// TestAccStaticExportRollout_lifecycle walks the whole loop on a real
// kube-apiserver: install wired from an export and its link, import, a
// renewal that upgrades the release, a hand-made drift that the next apply
// corrects, and an empty plan after each apply.
func TestAccStaticExportRollout_lifecycle(t *testing.T) {
	e := newRolloutEnv(t)
	// Everything Terraform and the provider log, to check that no link
	// reaches it with its signature.
	logPath := filepath.Join(t.TempDir(), "terraform.log")
	t.Setenv("TF_ACC_LOG_PATH", logPath)
	// Every log at TRACE, as a user chasing a problem would ask for.
	for _, v := range []string{"TF_LOG", "TF_LOG_PROVIDER_DOCSADMIN", "TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK"} {
		t.Setenv(v, "TRACE")
	}
	sameJob := statecheck.CompareValue(compare.ValuesSame())
	newLink := statecheck.CompareValue(compare.ValuesDiffer())
	// staticExport.version is the content version, wired from the export.
	versionIsContent := statecheck.CompareValuePairs(exportAddr, tfjsonpath.New("content_version"),
		rolloutAddr, tfjsonpath.New("version"), compare.ValuesSame())
	linkIsBundle := statecheck.CompareValuePairs(bundleAddr, tfjsonpath.New("bundle_url"),
		rolloutAddr, tfjsonpath.New("bundle_url"), compare.ValuesSame())
	digest := e.releaseHas(t, func(s *rollout.State) string { return s.ValuesDigest })
	emptyAfter := resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories,
		Steps: []resource.TestStep{
			{
				Config:           e.wiredConfig(),
				ConfigPlanChecks: emptyAfter,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("id"), knownvalue.StringExact(e.ns+"/"+rolloutRelease)),
					statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("revision"), knownvalue.Int64Exact(1)),
					statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("status"), knownvalue.StringExact("deployed")),
					statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("values_digest"), knownvalue.StringFunc(digest)),
					statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("bundle_url"), knownvalue.StringFunc(e.secretHolds(t))),
					statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("expires_at"),
						knownvalue.StringFunc(e.releaseHas(t, func(s *rollout.State) string { return s.ExpiresAt.Format(time.RFC3339) }))),
					statecheck.ExpectSensitiveValue(rolloutAddr, tfjsonpath.New("bundle_url")),
					versionIsContent, linkIsBundle,
					sameJob.AddStateValue(exportAddr, tfjsonpath.New("id")),
					newLink.AddStateValue(rolloutAddr, tfjsonpath.New("bundle_url")),
				},
			},
			{
				ResourceName:      rolloutAddr,
				ImportState:       true,
				ImportStateVerify: true,
				// Import reads only what the release carries; how to reach
				// the cluster and how to upgrade come from the configuration.
				ImportStateVerifyIgnore: []string{"kubeconfig_path", "kube_context", "chart", "install", "atomic", "wait", "timeouts"},
			},
			{
				// 50 minutes in, the link is within renew_before of expiry:
				// the renewed link flows into an upgrade of the release.
				PreConfig: func() { e.Clock.Advance(50 * time.Minute) },
				Config:    e.wiredConfig(),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(exportAddr, plancheck.ResourceActionNoop),
						plancheck.ExpectResourceAction(bundleAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectResourceAction(rolloutAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectUnknownValue(rolloutAddr, tfjsonpath.New("revision")),
					},
					PostApplyPostRefresh: emptyAfter.PostApplyPostRefresh,
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("revision"), knownvalue.Int64Exact(2)),
					statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("bundle_url"), knownvalue.StringFunc(e.secretHolds(t))),
					statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("values_digest"), knownvalue.StringFunc(digest)),
					versionIsContent, linkIsBundle,
					sameJob.AddStateValue(exportAddr, tfjsonpath.New("id")),
					newLink.AddStateValue(rolloutAddr, tfjsonpath.New("bundle_url")),
				},
			},
			{
				// Someone pins another version with helm upgrade (revision
				// 3); refresh sees it and the apply puts the content version back.
				PreConfig: func() {
					cur := e.current(t)
					if _, err := e.roller.Apply(t.Context(), rollout.Request{Release: rolloutRelease, OnFailure: rollout.KeepFailed,
						BundleURL: cur.BundleURL, Version: "pinned-by-hand", ExpiresAt: cur.ExpiresAt}); err != nil {
						t.Fatal(err)
					}
				},
				Config: e.wiredConfig(),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectNonEmptyPlan(),
						plancheck.ExpectResourceAction(bundleAddr, plancheck.ResourceActionNoop),
						plancheck.ExpectResourceAction(rolloutAddr, plancheck.ResourceActionUpdate),
					},
					PostApplyPostRefresh: emptyAfter.PostApplyPostRefresh,
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("revision"), knownvalue.Int64Exact(4)),
					statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("version"),
						knownvalue.StringFunc(e.releaseHas(t, func(s *rollout.State) string { return s.Version }))),
					versionIsContent,
				},
			},
			{
				// Drift that no argument shows: staticExport.enabled switched
				// off by hand. Only the values digest gives it away.
				PreConfig: func() { e.disableStaticExport(t) },
				Config:    e.wiredConfig(),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(rolloutAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectUnknownValue(rolloutAddr, tfjsonpath.New("values_digest")),
					},
					PostApplyPostRefresh: emptyAfter.PostApplyPostRefresh,
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("revision"), knownvalue.Int64Exact(5)),
					statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("values_digest"), knownvalue.StringFunc(digest)),
					statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("bundle_url"), knownvalue.StringFunc(e.secretHolds(t))),
				},
			},
			{
				// Nothing changed since: the plan is empty and no revision
				// is made.
				Config:   e.wiredConfig(),
				PlanOnly: true,
			},
		},
	})
	if s := e.current(t); s.Revision != 5 || !s.Enabled {
		t.Fatalf("release after the test: revision %d, enabled %t", s.Revision, s.Enabled)
	}
	logged, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(logged), "upgrading release") {
		t.Fatal("the provider's rollout log lines did not reach Terraform's log")
	}
	// Links may be logged, but only in their redacted form.
	for _, link := range regexp.MustCompile(`bundle\.tar\.gz\?\w*`).FindAll(logged, -1) {
		if string(link) != "bundle.tar.gz?"+redact.Marker {
			t.Fatalf("a bundle link with its query reached the log: %q", link)
		}
	}
}

// A missing release is an error naming it unless install = true; importing
// one is refused too, as is an import ID without a namespace.
func TestAccStaticExportRollout_missingRelease(t *testing.T) {
	e := newRolloutEnv(t)
	config := e.config(fmt.Sprintf(`
resource "docsadmin_static_export_rollout" "docs" {
  release         = "absent"
  namespace       = %q
  kubeconfig_path = %q
  atomic          = false
  bundle_url      = "https://bundles.example.com/b.tar.gz?sig=secret"
  version         = "v1"
}
`, e.ns, e.cluster.Kubeconfig))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories,
		Steps: []resource.TestStep{
			{
				Config:      config,
				ExpectError: regexp.MustCompile(`(?s)Helm Release Not Found.*"absent".*namespace.*"` + regexp.QuoteMeta(e.ns) + `".*install = true`),
			},
			{
				Config:        config,
				ResourceName:  rolloutAddr,
				ImportState:   true,
				ImportStateId: "absent",
				ExpectError:   regexp.MustCompile(`(?s)Invalid Import ID.*<namespace>/<release>`),
			},
			{
				Config:        config,
				ResourceName:  rolloutAddr,
				ImportState:   true,
				ImportStateId: e.ns + "/absent",
				ExpectError:   regexp.MustCompile(`(?i)cannot import non-existent remote object`),
			},
		},
	})
	if _, err := e.roller.Current(t.Context(), "absent"); !errors.Is(err, rollout.ErrReleaseNotFound) {
		t.Fatalf("a failed create left a release behind: %v", err)
	}
}

// Plan-time checks need no cluster: they fail before any apply.
func TestAccStaticExportRollout_invalidArgumentsPointAtTheAttribute(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t)
	for name, c := range map[string]struct{ release, expires, want string }{
		"release upper case": {"Docs", "2026-01-02T15:04:05Z", `(?s)release.*valid Helm release name`},
		"release too long":   {strings.Repeat("a", 54), "2026-01-02T15:04:05Z", `(?s)release.*53`},
		"expiry not rfc3339": {"docs", "tomorrow", `(?s)Invalid Timestamp.*expires_at`},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: env.factories,
				Steps: []resource.TestStep{{
					Config: env.config(fmt.Sprintf(`
resource "docsadmin_static_export_rollout" "docs" {
  release    = %q
  namespace  = "docs"
  bundle_url = "https://bundles.example.com/b.tar.gz"
  version    = "v1"
  expires_at = %q
}
`, c.release, c.expires)),
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(c.want),
				}},
			})
		})
	}
}

// A release stuck in a pending state cannot be created on a test cluster
// without killing Helm half-way, so the diagnostic is checked directly.
func TestStaticExportRollout_pendingErrorNamesTheRecovery(t *testing.T) {
	var diags diag.Diagnostics
	m := staticExportRolloutModel{Release: types.StringValue("docs"), Namespace: types.StringValue("web")}
	err := fmt.Errorf("upgrade: %w", &rollout.PendingError{Release: "docs", Namespace: "web", Revision: 3,
		Status: "pending-upgrade", RollbackTo: 2})
	addApplyError(&diags, m, time.Minute, err)
	if len(diags) != 1 || diags[0].Summary() != "Helm Release Has a Pending Operation" ||
		!strings.Contains(diags[0].Detail(), "helm rollback docs 2 --namespace web") ||
		!strings.Contains(diags[0].Detail(), "revision 3") {
		t.Fatalf("diagnostics: %v", diags)
	}
}
