package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

func documentationUpdateConfig(body string) string {
	return fmt.Sprintf(`
action "docsadmin_documentation_update" "deploy" {
  config {
    %s
  }
}
`, body)
}

// Invoked, the action triggers an update on the reference server and
// streams it: queued, each log line, in_progress, then the success with
// what was deployed; the update the output names is real and ended so.
func TestAccDocumentationUpdateAction_invokeWaitsAndReportsProgress(t *testing.T) {
	t.Parallel()
	c := requireCLI(t, featureActions)
	env := newAccEnv(t)
	out := env.applyOutput(t, c, env.config(documentationUpdateConfig(fmt.Sprintf("project_id = %q", env.ProjectID))), false,
		"-invoke=action.docsadmin_documentation_update.deploy")
	id := mustMatch(t, out, `documentation update (upd_[0-9a-f]+) queued for project `+env.ProjectID,
		`documentation update upd_\S+: update queued: \S+ branch main`,
		`documentation update upd_\S+ is in_progress\n.*documentation update upd_\S+: building \d+ pages`,
		`documentation update upd_\S+ succeeded: deployed \d+ pages to `+env.Domain+` \(commit [0-9a-f]{7}\)`)
	if n := strings.Count(out, "deployed "); n != 1 {
		t.Fatalf("the summary is shown %d times:\n%s", n, out)
	}
	st, err := env.client(t).GetUpdateStatus(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if st.Status != api.UpdateSuccess || !strings.Contains(out, st.Summary) || !strings.Contains(out, st.Commit.SHA[:7]) {
		t.Fatalf("update %s is %s (%s, commit %s); the output said:\n%s", id, st.Status, st.Summary, st.Commit.SHA, out)
	}
}

// With wait = false the action returns once the update is queued; the
// project comes from the provider block.
func TestAccDocumentationUpdateAction_invokeWithoutWaiting(t *testing.T) {
	t.Parallel()
	c := requireCLI(t, featureActions)
	env := newAccEnv(t)
	cfg := fmt.Sprintf(`
provider "docsadmin" {
  base_url   = %q
  api_key    = %q
  project_id = %q
}
`, env.URL, env.Key, env.ProjectID) + documentationUpdateConfig("wait = false")
	out := env.applyOutput(t, c, cfg, false, "-invoke=action.docsadmin_documentation_update.deploy")
	id := mustMatch(t, out, `documentation update (upd_[0-9a-f]+) queued for project `+env.ProjectID)
	if strings.Contains(out, "succeeded") || strings.Contains(out, "in_progress") {
		t.Fatalf("the action waited although wait = false:\n%s", out)
	}
	if _, err := env.client(t).GetUpdateStatus(t.Context(), id); err != nil {
		t.Fatal(err)
	}
}

// From a resource's action_trigger the update runs after the resource is
// created; an update that fails fails the apply with the server's
// summary and log.
func TestAccDocumentationUpdateAction_triggerAndFailure(t *testing.T) {
	t.Parallel()
	c := requireCLI(t, featureActions)
	env := newAccEnv(t)
	trigger := `
resource "terraform_data" "content" {
  input = "v1"
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.docsadmin_documentation_update.deploy]
    }
  }
}
`
	out := env.applyOutput(t, c, env.config(documentationUpdateConfig(fmt.Sprintf("project_id = %q", env.ProjectID))+trigger), false)
	mustMatch(t, out, `documentation update upd_\S+ queued for project `+env.ProjectID, `succeeded: deployed \d+ pages`)

	out = env.applyOutput(t, c, env.config(documentationUpdateConfig(fmt.Sprintf("project_id = %q", env.FailProjectID))+trigger), true)
	mustMatch(t, out, `(?s)Documentation Update Failed.*upd_\S+ of project `+env.FailProjectID+
		`.*has no deployment to update.*Its log:.*build failed`)
}

// Bad input is an error naming the attribute; a wait longer than the
// timeout is an error naming the update, which goes on.
func TestAccDocumentationUpdateAction_badInputAndTimeout(t *testing.T) {
	t.Parallel()
	c := requireCLI(t, featureActions)
	env := newAccEnv(t)
	for name, tc := range map[string]struct{ cfg, want string }{
		"no project":      {`wait = true`, `(?s)Missing Project ID.*project_id`},
		"bad timeout":     {`project_id = "` + env.ProjectID + `"` + "\n    timeout = \"soon\"", `(?s)timeout.*must be a duration`},
		"unknown project": {`project_id = "proj_absent"`, `(?s)Project Not Found.*proj_absent`},
		"timeout": {`project_id = "` + env.ProjectID + `"` + "\n    timeout = \"1s\"",
			`(?s)Timed Out Waiting for Documentation Update.*upd_[0-9a-f]+ of project ` + env.ProjectID + ` was still "(queued|in_progress)" after 1s`},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			out := env.applyOutput(t, c, env.config(documentationUpdateConfig(tc.cfg)), true,
				"-invoke=action.docsadmin_documentation_update.deploy")
			mustMatch(t, out, tc.want)
		})
	}
}

// On a CLI without actions the block is refused by name before the
// provider runs.
func TestAccDocumentationUpdateAction_olderCLIRefusesActions(t *testing.T) {
	t.Parallel()
	c := lacksCLI(t, featureActions)
	env := newAccEnv(t)
	cfg := env.config(documentationUpdateConfig(fmt.Sprintf("project_id = %q", env.ProjectID)))
	out, err := env.runCLI(t, c, writeConfig(t, cfg), "init", "-no-color")
	if err == nil {
		t.Fatalf("%s accepted an action block:\n%s", c, out)
	}
	mustMatch(t, out, `(?s)Unsupported block type.*Blocks of type "action" are not expected here`)
}
