package provider

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

const bundleAddr = "docsadmin_static_export_bundle.site"

func bundleConfig(domain, renewBefore string) string {
	return exportConfig(domain, "a") + fmt.Sprintf(`
resource "docsadmin_static_export_bundle" "site" {
  job_id       = docsadmin_static_export.docs.id
  renew_before = %q
}
`, renewBefore)
}

// downloads checks that a bundle link serves the archive right now.
func downloads(url string) error {
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET bundle link: %s", resp.Status)
	}
	return nil
}

func TestAccStaticExportBundle_createImportRenewUpdate(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t) // links live 1h
	sameJob := statecheck.CompareValue(compare.ValuesSame())
	newExpiry := statecheck.CompareValue(compare.ValuesDiffer())
	sameLink := statecheck.CompareValue(compare.ValuesSame())
	rfc3339Pattern := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.factories,
		Steps: []resource.TestStep{
			{
				Config: env.config(bundleConfig(env.Domain, "15m")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(bundleAddr, tfjsonpath.New("bundle_url"), knownvalue.StringFunc(downloads)),
					statecheck.ExpectKnownValue(bundleAddr, tfjsonpath.New("expires_at"), knownvalue.StringRegexp(rfc3339Pattern)),
					statecheck.ExpectKnownValue(bundleAddr, tfjsonpath.New("size_bytes"), knownvalue.Int64Func(positive)),
					statecheck.ExpectKnownValue(bundleAddr, tfjsonpath.New("ready_for_renewal"), knownvalue.Bool(false)),
					statecheck.ExpectSensitiveValue(bundleAddr, tfjsonpath.New("bundle_url")),
					sameJob.AddStateValue(exportAddr, tfjsonpath.New("id")),
					newExpiry.AddStateValue(bundleAddr, tfjsonpath.New("expires_at")),
				},
			},
			{
				ResourceName:      bundleAddr,
				ImportState:       true,
				ImportStateVerify: true,
				// An imported bundle has no link until the next apply makes one.
				ImportStateVerifyIgnore: []string{"bundle_url", "expires_at", "size_bytes", "ready_for_renewal"},
			},
			{
				// 30 minutes in, the link is still outside its window.
				PreConfig: func() { env.Clock.Advance(30 * time.Minute) },
				Config:    env.config(bundleConfig(env.Domain, "15m")),
				PlanOnly:  true,
			},
			{
				// 50 minutes in, 10 minutes before expiry: renew in place.
				PreConfig: func() { env.Clock.Advance(20 * time.Minute) },
				Config:    env.config(bundleConfig(env.Domain, "15m")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(bundleAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction(exportAddr, plancheck.ResourceActionNoop),
					plancheck.ExpectUnknownValue(bundleAddr, tfjsonpath.New("bundle_url")),
					plancheck.ExpectUnknownValue(bundleAddr, tfjsonpath.New("expires_at")),
					plancheck.ExpectKnownValue(bundleAddr, tfjsonpath.New("ready_for_renewal"), knownvalue.Bool(true)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					sameJob.AddStateValue(exportAddr, tfjsonpath.New("id")),
					newExpiry.AddStateValue(bundleAddr, tfjsonpath.New("expires_at")),
					statecheck.ExpectKnownValue(bundleAddr, tfjsonpath.New("bundle_url"), knownvalue.StringFunc(downloads)),
					sameLink.AddStateValue(bundleAddr, tfjsonpath.New("bundle_url")),
				},
			},
			{
				// Changing renew_before outside the window keeps the link.
				Config: env.config(bundleConfig(env.Domain, "30m")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(bundleAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(bundleAddr, tfjsonpath.New("ready_for_renewal"), knownvalue.Bool(false)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					sameJob.AddStateValue(exportAddr, tfjsonpath.New("id")),
					sameLink.AddStateValue(bundleAddr, tfjsonpath.New("bundle_url")),
					statecheck.ExpectKnownValue(bundleAddr, tfjsonpath.New("renew_before"), knownvalue.StringExact("30m")),
				},
			},
		},
	})
}

// A bundle imported by job ID has no link; the next apply makes one in
// place, for the same job.
func TestAccStaticExportBundle_importThenApplyGeneratesLink(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t)
	job := env.StartExportAndWait(t, api.StartExportRequest{Domain: env.Domain})
	cfg := env.config(fmt.Sprintf(`
resource "docsadmin_static_export_bundle" "site" {
  job_id = %q
}
`, job.JobID))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.factories,
		Steps: []resource.TestStep{
			{
				Config:             cfg,
				ResourceName:       bundleAddr,
				ImportState:        true,
				ImportStateId:      job.JobID,
				ImportStatePersist: true,
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(bundleAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(bundleAddr, tfjsonpath.New("bundle_url")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(bundleAddr, tfjsonpath.New("job_id"), knownvalue.StringExact(job.JobID)),
					statecheck.ExpectKnownValue(bundleAddr, tfjsonpath.New("bundle_url"), knownvalue.StringFunc(downloads)),
				},
			},
		},
	})
}

func TestAccStaticExportBundle_renewBeforeMustBeADuration(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t)
	env.expectError(t, env.config(bundleConfig(env.Domain, "a while")), `(?s)Invalid Duration.*renew_before`, true)
}

// A renew_before of no time or less is refused at plan time, on its line.
func TestAccStaticExportBundle_renewBeforeMustBePositive(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t)
	for value, why := range map[string]string{"-5m": "is negative", "0s": "is no time at all"} {
		t.Run(value, func(t *testing.T) {
			t.Parallel()
			env.expectError(t, env.config(bundleConfig(env.Domain, value)),
				`(?s)Invalid Duration.*renew_before = "`+value+`".*`+value+`\s+`+strings.ReplaceAll(why, " ", `\s+`), true)
		})
	}
}

func TestRenewalDue(t *testing.T) {
	exp := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	expires := types.StringValue(exp.Format(time.RFC3339))
	for _, c := range []struct {
		now    time.Time
		before string
		due    bool
	}{
		{exp.Add(-16 * time.Minute), "15m", false},
		{exp.Add(-15 * time.Minute), "15m", true}, // the window includes its start
		{exp.Add(time.Hour), "15m", true},         // long expired
		{exp.Add(-time.Minute), "0s", false},
	} {
		due, err := renewalDue(c.now, expires, c.before)
		if err != nil || due != c.due {
			t.Errorf("renewalDue(expiry%+v, %s) = %v, %v; want %v", c.now.Sub(exp), c.before, due, err, c.due)
		}
	}
	if due, err := renewalDue(exp, types.StringNull(), "15m"); err != nil || !due {
		t.Errorf("a link of unknown expiry (imported) must be due: %v, %v", due, err)
	}
	if _, err := renewalDue(exp, expires, "soon"); err == nil {
		t.Error("an unparsable renew_before must be an error")
	}
}
