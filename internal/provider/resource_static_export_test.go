package provider

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
)

const exportAddr = "docsadmin_static_export.docs"

func exportConfig(domain, trigger string) string {
	return fmt.Sprintf(`
resource "docsadmin_static_export" "docs" {
  domain   = %q
  version  = "2026-01"
  triggers = { content = %q }
}
`, domain, trigger)
}

func TestAccStaticExport_createImportUpdate(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t)
	newID := statecheck.CompareValue(compare.ValuesDiffer())
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.factories,
		Steps: []resource.TestStep{
			{
				Config: env.config(exportConfig(env.Domain, "a")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("status"), knownvalue.StringExact("completed")),
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("progress"), knownvalue.Float64Exact(100)),
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("page_count"), knownvalue.Int64Func(positive)),
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`.+`))),
					newID.AddStateValue(exportAddr, tfjsonpath.New("id")),
				},
			},
			{
				ResourceName:      exportAddr,
				ImportState:       true,
				ImportStateVerify: true,
				// The API does not return a job's arguments.
				ImportStateVerifyIgnore: []string{"domain", "version", "triggers", "timeouts"},
			},
			{
				Config: env.config(exportConfig(env.Domain, "b")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(exportAddr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					newID.AddStateValue(exportAddr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("status"), knownvalue.StringExact("completed")),
				},
			},
		},
	})
}

// An export started elsewhere (by CI, say) is imported, and the first
// apply adopts the configured arguments in place instead of exporting again.
// importJobStep imports job id as exportAddr with cfg and keeps it in
// state for the steps after it.
func importJobStep(cfg, id string) resource.TestStep {
	return resource.TestStep{Config: cfg, ResourceName: exportAddr, ImportState: true, ImportStateId: id, ImportStatePersist: true}
}

func TestAccStaticExport_importAdoptsConfiguration(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t)
	job := env.StartExportAndWait(t, api.StartExportRequest{Domain: env.Domain, Version: "2026-01"})
	cfg := env.config(exportConfig(env.Domain, "a"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.factories,
		Steps: []resource.TestStep{
			importJobStep(cfg, job.JobID),
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(exportAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("id"), knownvalue.StringExact(job.JobID)),
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("domain"), knownvalue.StringExact(env.Domain)),
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("status"), knownvalue.StringExact("completed")),
				},
			},
		},
	})
}

// A configuration that contradicts the imported job is not adopted: each
// contradiction (domain, version, paths) is an error on its attribute,
// taken from what the job's bundle says it exported.
func TestAccStaticExport_importRefusesAContradictingConfiguration(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t)
	job := env.StartExportAndWait(t, api.StartExportRequest{Domain: env.Domain, Version: "2026-01"})
	cfg := env.config(`
resource "docsadmin_static_export" "docs" {
  domain  = "docs.other.test"
  version = "2025-12"
  paths   = ["no/such/page"]
}
`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.factories,
		Steps: []resource.TestStep{
			importJobStep(cfg, job.JobID),
			{
				Config: cfg,
				ExpectError: regexp.MustCompile(`(?s)Configuration Contradicts the Imported Job.*domain\s+= "docs.other.test".*` +
					`exported domain "` + regexp.QuoteMeta(env.Domain) + `".*` +
					`Configuration Contradicts the Imported Job.*version\s+= "2025-12".*exported\s+version\s+"2026-01".*` +
					`Configuration Contradicts the Imported Job.*paths\s+= \["no/such/page"\].*did\s+not\s+export\s+no/such/page`),
			},
		},
	})
}

func TestAccStaticExport_failedExportReportsServerError(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t)
	env.expectError(t, env.config(exportConfig(env.FailDomain, "a")), `(?s)Static Export Failed.*The server reports: \S+`, false)
}

func TestAccStaticExport_vanishedJobIsExportedAgain(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t, apiservertest.WithJobRetention(time.Hour))
	newID := statecheck.CompareValue(compare.ValuesDiffer())
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.factories,
		Steps: []resource.TestStep{
			{
				Config:            env.config(exportConfig(env.Domain, "a")),
				ConfigStateChecks: []statecheck.StateCheck{newID.AddStateValue(exportAddr, tfjsonpath.New("id"))},
			},
			{
				PreConfig: func() { env.Clock.Advance(2 * time.Hour) },
				Config:    env.config(exportConfig(env.Domain, "a")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(exportAddr, plancheck.ResourceActionCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{newID.AddStateValue(exportAddr, tfjsonpath.New("id"))},
			},
		},
	})
}

// content_version is the bundle's content version as the API reports it
// and as its manifest holds it. A new job over the same content keeps it,
// which is why the rollout's staticExport.version is wired from it: pods
// roll for new content, not for a new job or link.
func TestAccStaticExport_contentVersion(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t)
	c := env.client(t)
	var jobID, version string
	sameContent := statecheck.CompareValue(compare.ValuesSame())
	newJob := statecheck.CompareValue(compare.ValuesDiffer())
	captureID := knownvalue.StringFunc(func(v string) error { jobID = v; return nil })
	// The checks run in order, so jobID is set when this one runs.
	reportedByAPI := knownvalue.StringFunc(func(v string) error {
		job, err := c.GetExport(context.Background(), jobID)
		if err != nil {
			return err
		}
		if !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(v) || v != job.Version {
			return fmt.Errorf("content_version %q, the API reports %q for job %s", v, job.Version, jobID)
		}
		version = v
		return nil
	})
	inManifest := knownvalue.StringFunc(func(link string) error {
		resp, err := http.Get(link)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		m, err := bundle.ReadManifest(resp.Body)
		if err != nil {
			return err
		}
		if m.Version != version {
			return fmt.Errorf("the bundle's manifest has version %q, content_version is %q", m.Version, version)
		}
		return nil
	})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.factories,
		Steps: []resource.TestStep{
			{
				Config: env.config(bundleConfig(env.Domain, "15m")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("id"), captureID),
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("content_version"), reportedByAPI),
					statecheck.ExpectKnownValue(bundleAddr, tfjsonpath.New("bundle_url"), inManifest),
					sameContent.AddStateValue(exportAddr, tfjsonpath.New("content_version")),
					newJob.AddStateValue(exportAddr, tfjsonpath.New("id")),
				},
			},
			{
				// Another trigger: a new job over the same docs source.
				Config: env.config(exportConfig(env.Domain, "b")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(exportAddr, plancheck.ResourceActionDestroyBeforeCreate),
					plancheck.ExpectUnknownValue(exportAddr, tfjsonpath.New("content_version")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("id"), captureID),
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("content_version"), reportedByAPI),
					newJob.AddStateValue(exportAddr, tfjsonpath.New("id")),
					sameContent.AddStateValue(exportAddr, tfjsonpath.New("content_version")),
				},
			},
		},
	})
}

// With a server that does not report the content version (the real API's
// schema does not have it), content_version is read from the bundle's
// manifest: once at create, once at import, and kept on refresh.
func TestAccStaticExport_contentVersionFromManifest(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t, apiservertest.WithoutContentVersion())
	c := env.client(t)
	var jobID string
	captureID := knownvalue.StringFunc(func(v string) error { jobID = v; return nil })
	fromManifest := knownvalue.StringFunc(func(v string) error {
		b, err := c.GenerateBundle(context.Background(), jobID)
		if err != nil {
			return err
		}
		if b.Version != "" {
			return fmt.Errorf("the server reported version %q; this test needs one that does not", b.Version)
		}
		m, err := bundle.FetchManifest(context.Background(), &http.Client{Timeout: time.Minute}, b.BundleURL)
		if err != nil {
			return err
		}
		if v != m.Version {
			return fmt.Errorf("content_version %q, the bundle's manifest has %q", v, m.Version)
		}
		return nil
	})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.factories,
		Steps: []resource.TestStep{
			{
				Config: env.config(exportConfig(env.Domain, "a")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("id"), captureID),
					statecheck.ExpectKnownValue(exportAddr, tfjsonpath.New("content_version"), fromManifest),
				},
			},
			{
				ResourceName:            exportAddr,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"domain", "version", "triggers", "timeouts"},
			},
		},
	})
}

func TestAccStaticExport_domainMustBeAHostname(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t)
	for _, domain := range []string{"https://docs.acme.test", "docs.acme.test/", "docs.acme.test/docs", "docs.acme.test:443"} {
		t.Run(domain, func(t *testing.T) {
			t.Parallel()
			env.expectError(t, env.config(exportConfig(domain, "a")), `(?s)Invalid Domain.*domain`, true)
		})
	}
}

// The reason is given once: the API's rule says what a domain must be,
// and nothing repeats it after a semicolon.
func TestAccStaticExport_invalidDomainSaysItOnce(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t)
	env.expectError(t, env.config(exportConfig("https://docs.acme.test", "a")),
		`(?s)Invalid Domain.*domain\s+"https://docs.acme.test"\s+must\s+be\s+a\s+hostname\s+without\s+a\s+scheme\.\n`, true)
}

// A timeout that is not a positive duration fails the plan, before any
// export starts, and Terraform shows the timeouts line of the resource.
func TestAccStaticExport_timeoutMustBePositive(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t)
	for name, value := range map[string]string{"negative": "-5m", "zero": "0s", "not a duration": "soon"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			env.expectError(t, env.config(fmt.Sprintf(`
resource "docsadmin_static_export" "docs" {
  domain   = %q
  timeouts = { create = %q }
}
`, env.Domain, value)), `(?s)Invalid Timeout.*\d+:\s+timeouts = \{ create = "`+regexp.QuoteMeta(value)+`" \}.*timeouts\.create`, true)
		})
	}
}

func TestAccStaticExport_createTimeout(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t)
	env.expectError(t, env.config(fmt.Sprintf(`
resource "docsadmin_static_export" "docs" {
  domain   = %q
  timeouts = { create = "1ms" }
}
`, env.Domain)), `Timed Out Waiting for Static Export`, false)
}

func positive(v int64) error {
	if v <= 0 {
		return fmt.Errorf("want a positive number, got %d", v)
	}
	return nil
}
