package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

const agentAddr = "data.docsadmin_agent_job.edit"

// agentJobConfig reads job id of project, polling until it ends if wait.
func (e *accEnv) agentJobConfig(project, id string, wait bool) string {
	return e.config(fmt.Sprintf(`
data "docsadmin_agent_job" "edit" {
  project_id = %q
  id         = %q
  wait       = %t
}
`, project, id, wait))
}

func TestAccAgentJobDataSource_waitsForCompletion(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t)
	job, err := env.client(t).CreateAgentJob(context.Background(), env.ProjectID, "Document the export API")
	if err != nil {
		t.Fatal(err)
	}
	// The project comes from the provider block here, as most users set it.
	cfg := fmt.Sprintf(`
provider "docsadmin" {
  base_url   = %q
  api_key    = %q
  project_id = %q
}

data "docsadmin_agent_job" "edit" {
  id   = %q
  wait = true
}
`, env.URL, env.Key, env.ProjectID, job.ID)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.factories,
		Steps: []resource.TestStep{{
			Config: cfg,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(agentAddr, tfjsonpath.New("status"), knownvalue.StringExact("completed")),
				statecheck.ExpectKnownValue(agentAddr, tfjsonpath.New("project_id"), knownvalue.StringExact(env.ProjectID)),
				statecheck.ExpectKnownValue(agentAddr, tfjsonpath.New("pr_link"), knownvalue.StringRegexp(regexp.MustCompile(`^https?://`))),
				statecheck.ExpectKnownValue(agentAddr, tfjsonpath.New("source"), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"repository": knownvalue.StringRegexp(regexp.MustCompile(`^https?://`)),
				})),
				statecheck.ExpectKnownValue(agentAddr, tfjsonpath.New("archived_at"), knownvalue.Null()),
			},
		}},
	})
}

func TestAccAgentJobDataSource_readsWithoutWaiting(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t)
	job, err := env.client(t).CreateAgentJob(context.Background(), env.NoChangesProjectID, "Nothing to do")
	if err != nil {
		t.Fatal(err)
	}
	// Let the server finish the job, so the single read sees its outcome.
	env.Clock.Advance(time.Hour)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.factories,
		Steps: []resource.TestStep{{
			Config: env.agentJobConfig(env.NoChangesProjectID, job.ID, false),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(agentAddr, tfjsonpath.New("status"), knownvalue.StringExact("completed")),
				statecheck.ExpectKnownValue(agentAddr, tfjsonpath.New("pr_link"), knownvalue.Null()),
			},
		}},
	})
}

// A failed agent job is something to read, not an error of the read.
func TestAccAgentJobDataSource_failedJobIsAResult(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t)
	job, err := env.client(t).CreateAgentJob(context.Background(), env.FailProjectID, "Break things")
	if err != nil {
		t.Fatal(err)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.factories,
		Steps: []resource.TestStep{{
			Config: env.agentJobConfig(env.FailProjectID, job.ID, true),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(agentAddr, tfjsonpath.New("status"), knownvalue.StringExact("failed")),
				statecheck.ExpectKnownValue(agentAddr, tfjsonpath.New("pr_link"), knownvalue.Null()),
			},
		}},
	})
}

func TestAccAgentJobDataSource_notFoundNamesJobAndProject(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t)
	env.expectError(t, env.agentJobConfig(env.ProjectID, "job_nope", true), `(?s)Agent Job Not Found.*"job_nope".*"`+env.ProjectID+`"`, false)
}

func TestAccAgentJobDataSource_needsAProject(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t)
	env.expectError(t, env.config(`data "docsadmin_agent_job" "edit" { id = "job_1" }`), `(?s)Missing Project ID.*DOCSADMIN_PROJECT_ID`, false)
}

func TestAccAgentJobDataSource_waitIsBoundedByReadTimeout(t *testing.T) {
	t.Parallel()
	// The job outlives any terraform run: with the project's 2 s, a
	// loaded machine's terraform could start after the job had ended
	// and find it completed, with nothing left to wait for.
	env := newAccEnv(t, apiservertest.WithConfig(func(c *apiconfig.Config) {
		c.Organizations[0].Projects[0].Agent.Duration = apiconfig.Duration(time.Hour)
	}))
	job, err := env.client(t).CreateAgentJob(context.Background(), env.ProjectID, "Take your time")
	if err != nil {
		t.Fatal(err)
	}
	env.expectError(t, env.config(fmt.Sprintf(`
data "docsadmin_agent_job" "edit" {
  project_id = %q
  id         = %q
  wait       = true
  timeouts   = { read = "1ms" }
}
`, env.ProjectID, job.ID)), `(?s)Timed Out Waiting for Agent Job.*timeouts.read`, false)
}
