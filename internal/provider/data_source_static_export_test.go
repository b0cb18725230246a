package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

func TestAccStaticExportDataSource_readsJob(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t)
	const dataAddr = "data.docsadmin_static_export.job"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.factories,
		Steps: []resource.TestStep{{
			Config: env.config(exportConfig(env.Domain, "a") + `
data "docsadmin_static_export" "job" {
  id = docsadmin_static_export.docs.id
}
`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(dataAddr, tfjsonpath.New("status"), knownvalue.StringExact("completed")),
				statecheck.ExpectKnownValue(dataAddr, tfjsonpath.New("page_count"), knownvalue.Int64Func(positive)),
				statecheck.CompareValuePairs(dataAddr, tfjsonpath.New("created_at"), exportAddr, tfjsonpath.New("created_at"), compare.ValuesSame()),
				statecheck.CompareValuePairs(dataAddr, tfjsonpath.New("page_count"), exportAddr, tfjsonpath.New("page_count"), compare.ValuesSame()),
			},
		}},
	})
}

// wait = true reads a job started outside Terraform once it has finished:
// a completed one with its content version, a failed one with the server's
// error, as results rather than errors.
func TestAccStaticExportDataSource_waitsForTheOutcome(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t)
	done := env.StartExport(t, api.StartExportRequest{Domain: env.Domain})
	failed := env.StartExport(t, api.StartExportRequest{Domain: env.FailDomain})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.factories,
		Steps: []resource.TestStep{{
			Config: env.config(fmt.Sprintf(`
data "docsadmin_static_export" "done" {
  job_id = %q
  wait = true
}

data "docsadmin_static_export" "failed" {
  job_id = %q
  wait = true
}
`, done.JobID, failed.JobID)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.docsadmin_static_export.done", tfjsonpath.New("status"), knownvalue.StringExact("completed")),
				statecheck.ExpectKnownValue("data.docsadmin_static_export.done", tfjsonpath.New("content_version"),
					knownvalue.StringFunc(func(v string) error {
						if want := env.WaitExport(t, done.JobID).Version; v != want || v == "" {
							return fmt.Errorf("content_version %q, server %q", v, want)
						}
						return nil
					})),
				statecheck.ExpectKnownValue("data.docsadmin_static_export.done", tfjsonpath.New("error"), knownvalue.Null()),
				statecheck.ExpectKnownValue("data.docsadmin_static_export.failed", tfjsonpath.New("status"), knownvalue.StringExact("failed")),
				statecheck.ExpectKnownValue("data.docsadmin_static_export.failed", tfjsonpath.New("error"),
					knownvalue.StringRegexp(regexp.MustCompile(`\S`))),
				statecheck.ExpectKnownValue("data.docsadmin_static_export.failed", tfjsonpath.New("content_version"), knownvalue.Null()),
			},
		}},
	})
}

// A job that never finishes ends the wait at timeouts.read with an error
// that names the job and its last status.
func TestAccStaticExportDataSource_waitTimesOut(t *testing.T) {
	t.Parallel()
	var running string
	env := newAccEnv(t, holdRunning(&running))
	running = env.StartExportAndWait(t, api.StartExportRequest{Domain: env.Domain}).JobID
	env.expectError(t, env.config(fmt.Sprintf(`
data "docsadmin_static_export" "job" {
  job_id   = %q
  wait     = true
  timeouts = { read = "2s" }
}
`, running)), `(?s)Timed Out Waiting for Static Export.*`+running+`.*"running".*timeouts.read`, false)
}

// job_id names the job as the rollout and the identity do; the deprecated
// id still works and reads the same; exactly one of them is set.
func TestAccStaticExportDataSource_jobID(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t)
	job := env.StartExportAndWait(t, api.StartExportRequest{Domain: env.Domain})
	const byJobID, byID = "data.docsadmin_static_export.by_job_id", "data.docsadmin_static_export.by_id"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.factories,
		Steps: []resource.TestStep{
			{
				Config: env.config(fmt.Sprintf(`
data "docsadmin_static_export" "both" {
  job_id = %[1]q
  id     = %[1]q
}
`, job.JobID)),
				ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Combination.*job_id`),
			},
			{
				Config:      env.config(`data "docsadmin_static_export" "neither" {}`),
				ExpectError: regexp.MustCompile(`(?s)Missing Attribute Configuration.*job_id`),
			},
			{
				Config: env.config(fmt.Sprintf(`
data "docsadmin_static_export" "by_job_id" {
  job_id = %[1]q
}

data "docsadmin_static_export" "by_id" {
  id = %[1]q
}
`, job.JobID)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(byJobID, tfjsonpath.New("status"), knownvalue.StringExact("completed")),
					statecheck.ExpectKnownValue(byJobID, tfjsonpath.New("id"), knownvalue.StringExact(job.JobID)),
					statecheck.ExpectKnownValue(byID, tfjsonpath.New("job_id"), knownvalue.StringExact(job.JobID)),
					statecheck.ExpectKnownValue(byID, tfjsonpath.New("status"), knownvalue.StringExact("completed")),
				},
			},
		},
	})
}
