package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
)

// The actions' tests drive the CLI directly: terraform-plugin-testing has
// no step for `terraform apply -invoke`, and the progress an action sends
// shows only in the CLI's output, which is what the tests check.

// applyOutput runs init and then apply with args in a fresh root module
// holding hcl, and returns apply's output; it fails the test when either
// fails, unless wantErr, when apply must fail.
func (e *accEnv) applyOutput(t *testing.T, c tfCLI, hcl string, wantErr bool, args ...string) string {
	t.Helper()
	dir := writeConfig(t, hcl)
	if out, err := e.runCLI(t, c, dir, "init", "-input=false", "-no-color"); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	out, err := e.runCLI(t, c, dir, append([]string{"apply", "-auto-approve", "-input=false", "-no-color"}, args...)...)
	if (err != nil) != wantErr {
		t.Fatalf("apply %s: error %v, want error %t\n%s", strings.Join(args, " "), err, wantErr, out)
	}
	return out
}

// mustMatch fails t unless out matches each pattern, and returns the first
// submatch of the first pattern.
func mustMatch(t *testing.T, out string, patterns ...string) string {
	t.Helper()
	var first string
	for i, p := range patterns {
		m := regexp.MustCompile(p).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("output does not match %s:\n%s", p, out)
		}
		if i == 0 && len(m) > 1 {
			first = m[1]
		}
	}
	return first
}

func agentJobActionConfig(project string, wait bool) string {
	return fmt.Sprintf(`
action "docsadmin_agent_job" "edit" {
  config {
    project_id = %q
    prompt     = "Document the export API"
    wait       = %t
  }
}
`, project, wait)
}

func TestAccAgentJobAction_invokeWaitsAndReportsThePullRequest(t *testing.T) {
	t.Parallel()
	c := requireCLI(t, featureActions)
	env := newAccEnv(t)
	out := env.applyOutput(t, c, env.config(agentJobActionConfig(env.ProjectID, true)), false,
		"-invoke=action.docsadmin_agent_job.edit")
	id := mustMatch(t, out, `agent job (\S+) created in project `+env.ProjectID,
		`agent job \S+ completed: pull request https?://\S+`)
	// The job the output names is real, and ended as the output says.
	job, err := env.client(t).GetAgentJob(t.Context(), env.ProjectID, id)
	if err != nil {
		t.Fatal(err)
	}
	if job.Status != api.AgentCompleted || job.PRLink == nil || !strings.Contains(out, *job.PRLink) {
		t.Fatalf("job %s is %s with pull request %v; the output said:\n%s", id, job.Status, job.PRLink, out)
	}
}

// Without wait the action returns once the job exists; the project comes
// from the provider block.
func TestAccAgentJobAction_invokeWithoutWaiting(t *testing.T) {
	t.Parallel()
	c := requireCLI(t, featureActions)
	env := newAccEnv(t)
	cfg := fmt.Sprintf(`
provider "docsadmin" {
  base_url   = %q
  api_key    = %q
  project_id = %q
}

action "docsadmin_agent_job" "edit" {
  config {
    prompt = "Document the export API"
  }
}
`, env.URL, env.Key, env.ProjectID)
	out := env.applyOutput(t, c, cfg, false, "-invoke=action.docsadmin_agent_job.edit")
	id := mustMatch(t, out, `agent job (\S+) created in project `+env.ProjectID+` \(active\)`)
	if strings.Contains(out, "pull request") {
		t.Fatalf("the action waited although wait is unset:\n%s", out)
	}
	if _, err := env.client(t).GetAgentJob(t.Context(), env.ProjectID, id); err != nil {
		t.Fatal(err)
	}
}

// A resource's action_trigger runs the action after the resource is
// created, and a failed agent run fails the apply.
func TestAccAgentJobAction_trigger(t *testing.T) {
	t.Parallel()
	c := requireCLI(t, featureActions)
	env := newAccEnv(t)
	trigger := `
resource "terraform_data" "content" {
  input = "v1"
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.docsadmin_agent_job.edit]
    }
  }
}
`
	out := env.applyOutput(t, c, env.config(agentJobActionConfig(env.ProjectID, true)+trigger), false)
	mustMatch(t, out, `agent job (\S+) created in project `+env.ProjectID, `pull request https?://`)

	out = env.applyOutput(t, c, env.config(agentJobActionConfig(env.FailProjectID, true)+trigger), true)
	mustMatch(t, out, `(?s)Agent Job Failed.*in project `+env.FailProjectID)
}

// Bad input is an attribute error before anything is created.
func TestAccAgentJobAction_badInput(t *testing.T) {
	t.Parallel()
	c := requireCLI(t, featureActions)
	env := newAccEnv(t)
	for name, tc := range map[string]struct{ cfg, want string }{
		"no project": {`prompt = "x"`, `(?s)Missing Project ID.*project_id`},
		"bad timeout": {`project_id = "` + env.ProjectID + `"
    prompt = "x"
    wait = true
    timeout = "soon"`, `(?s)timeout.*must be a duration`},
		"empty prompt": {`project_id = "` + env.ProjectID + `"
    prompt = ""`, `(?s)prompt.*at least 1`},
		"unknown project": {`project_id = "proj_absent"
    prompt = "x"`, `(?s)Project Not Found.*proj_absent`},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			out := env.applyOutput(t, c, env.config(`
action "docsadmin_agent_job" "edit" {
  config {
    `+tc.cfg+`
  }
}
`), true, "-invoke=action.docsadmin_agent_job.edit")
			mustMatch(t, out, tc.want)
		})
	}
}

// On a CLI without actions (Terraform before 1.14, OpenTofu) the action
// block is refused by name when the configuration is read, before the
// provider runs.
func TestAccAgentJobAction_olderCLIRefusesActions(t *testing.T) {
	t.Parallel()
	c := lacksCLI(t, featureActions)
	env := newAccEnv(t)
	out, err := env.runCLI(t, c, writeConfig(t, env.config(agentJobActionConfig(env.ProjectID, false))), "init", "-no-color")
	if err == nil {
		t.Fatalf("%s accepted an action block:\n%s", c, out)
	}
	mustMatch(t, out, `(?s)Unsupported block type.*Blocks of type "action" are not expected here`)
}

// publishConfig publishes the environment's domain to the test's release.
func (e *rolloutEnv) publishConfig(extra string) string {
	return e.config(fmt.Sprintf(`
action "docsadmin_static_export_publish" "now" {
  config {
    domain          = %q
    release         = %q
    namespace       = %q
    kubeconfig_path = %q
    atomic          = false
  }
}
%s`, e.Domain, rolloutRelease, e.ns, e.cluster.Kubeconfig, extra))
}

// installRelease installs the chart with a placeholder link, as the
// platform team would before any publish.
func (e *rolloutEnv) installRelease(t *testing.T) {
	t.Helper()
	if _, err := e.roller.Apply(t.Context(), rollout.Request{Release: rolloutRelease, Chart: e.chart, Install: true,
		OnFailure: rollout.KeepFailed, BundleURL: "https://bundles.example.com/placeholder.tar.gz", Version: "placeholder"}); err != nil {
		t.Fatal(err)
	}
}

func TestAccStaticExportPublishAction_invoke(t *testing.T) {
	c := requireCLI(t, featureActions)
	e := newParallelRolloutEnv(t)
	e.installRelease(t)
	out := e.applyOutput(t, c, e.publishConfig(""), false, "-invoke=action.docsadmin_static_export_publish.now")
	jobID := mustMatch(t, out, `static export (\S+) of `+regexp.QuoteMeta(e.Domain)+` started`,
		`static export \S+ completed: \d+ pages`,
		`bundle link for \S+ expires at \S+; content version \S+`,
		`release `+e.ns+`/`+rolloutRelease+` upgraded to revision 2 \(deployed\)`)
	job, err := e.client(t).GetExport(t.Context(), jobID)
	if err != nil {
		t.Fatal(err)
	}
	cur := e.current(t)
	if cur.Revision != 2 || cur.Version != job.Version || !cur.Enabled || cur.BundleURL == "" {
		t.Fatalf("release after publish: revision %d, version %q (export %q), enabled %t", cur.Revision, cur.Version,
			job.Version, cur.Enabled)
	}
	// The link is a secret: progress names the job, never the link.
	if strings.Contains(out, cur.BundleURL) {
		t.Fatalf("the output holds the bundle link:\n%s", out)
	}
}

// Triggered after a change of the content marker, the action publishes
// again: a new export and a new link, so a new revision.
func TestAccStaticExportPublishAction_trigger(t *testing.T) {
	c := requireCLI(t, featureActions)
	e := newParallelRolloutEnv(t)
	e.installRelease(t)
	marker := func(v string) string {
		return e.publishConfig(fmt.Sprintf(`
resource "terraform_data" "content" {
  input = %q
  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.docsadmin_static_export_publish.now]
    }
  }
}
`, v))
	}
	dir := writeConfig(t, marker("a"))
	for i, v := range []string{"a", "b"} {
		if err := writeFile(dir, marker(v)); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			if out, err := e.runCLI(t, c, dir, "init", "-input=false", "-no-color"); err != nil {
				t.Fatalf("init: %v\n%s", err, out)
			}
		}
		out, err := e.runCLI(t, c, dir, "apply", "-auto-approve", "-input=false", "-no-color")
		if err != nil {
			t.Fatalf("apply %s: %v\n%s", v, err, out)
		}
		mustMatch(t, out, fmt.Sprintf(`upgraded to revision %d`, i+2))
	}
	if got := e.current(t).Revision; got != 3 {
		t.Fatalf("revision %d after two publishes, want 3", got)
	}
}

func TestAccStaticExportPublishAction_missingReleaseIsAnAttributeError(t *testing.T) {
	c := requireCLI(t, featureActions)
	e := newParallelRolloutEnv(t)
	out := e.applyOutput(t, c, e.publishConfig(""), true, "-invoke=action.docsadmin_static_export_publish.now")
	mustMatch(t, out, `(?s)Helm Release Not Found.*install = true`)
	if strings.Contains(out, "static export") {
		t.Fatalf("the action exported although the release does not exist:\n%s", out)
	}
}
