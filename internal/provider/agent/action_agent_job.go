package agent

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/cli"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/client"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/providerdata"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/tfvalue"
)

var (
	_ action.Action              = &agentJobAction{}
	_ action.ActionWithConfigure = &agentJobAction{}
)

// NewAgentJobAction returns the docsadmin_agent_job action.
func NewAgentJobAction() action.Action { return &agentJobAction{} }

// agentJobAction starts an agent job: something done, not something kept,
// so it is an action (Terraform 1.14) rather than a resource whose
// destroy could not undo anything.
type agentJobAction struct{ data *providerdata.Data }

func (a *agentJobAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_agent_job"
}

func (a *agentJobAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Starts an agent job: the agent edits the project's documentation from `prompt` and, when " +
			"files change, opens a pull request. With `wait = true` the action polls until the job ends and reports " +
			"each status change, and the pull request link, as progress. Needs Terraform 1.14 or later " +
			"(`terraform apply -invoke`, or `action_trigger` in a resource's `lifecycle`).",
		Attributes: map[string]schema.Attribute{
			"project_id": schema.StringAttribute{
				MarkdownDescription: "Project of the job. Defaults to the provider's `project_id`.",
				Optional:            true,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"prompt": schema.StringAttribute{
				MarkdownDescription: "What the agent should do, such as `Document the export API`.",
				Required:            true,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"wait": schema.BoolAttribute{
				MarkdownDescription: "Poll until the job is `completed`, `archived` or `failed`; a failed job fails the action. " +
					"Defaults to `false`: the action returns once the job is created.",
				Optional: true,
			},
			"timeout": tfvalue.ActionTimeoutAttribute("With `wait`: how long to wait", DefaultAgentJobReadTimeout),
		},
	}
}

func (a *agentJobAction) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.data = providerdata.Configured(req.ProviderData, &resp.Diagnostics)
}

func (a *agentJobAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m agentJobActionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || a.data == nil {
		return
	}
	project, ok := projectOrDefault(m.ProjectID, a.data, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout := tfvalue.ActionTimeout(m.Timeout, DefaultAgentJobReadTimeout)

	job, err := a.data.Client.CreateAgentJob(ctx, project, m.Prompt.ValueString())
	if errors.Is(err, client.ErrNotFound) {
		projectNotFound(&resp.Diagnostics, project, err)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to Create Agent Job", err.Error())
		return
	}
	tfvalue.Progress(ctx, resp.SendProgress, "agent job %s created in project %s (%s)", job.ID, project, job.Status)
	if !m.Wait.ValueBool() {
		return
	}

	waitCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	last := job.Status
	job, err = a.data.Client.WaitAgentJob(waitCtx, project, job.ID, func(j api.AgentJob) {
		if j.Status != last {
			tfvalue.Progress(ctx, resp.SendProgress, "agent job %s is %s", j.ID, j.Status)
		}
		last = j.Status
	})
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		resp.Diagnostics.AddError("Timed Out Waiting for Agent Job",
			fmt.Sprintf("Agent job %s in project %s was still %q after %s (timeout). It keeps running; read it with "+
				"the docsadmin_agent_job data source.", job.ID, project, last, timeout))
	case err != nil:
		resp.Diagnostics.AddError("Unable to Wait for Agent Job", err.Error())
	case job.Status == api.AgentFailed:
		resp.Diagnostics.AddError("Agent Job Failed", fmt.Sprintf("Agent job %s in project %s failed.", job.ID, project))
	case job.PRLink != nil:
		tfvalue.Progress(ctx, resp.SendProgress, "agent job %s %s: pull request %s", job.ID, job.Status, *job.PRLink)
	default:
		tfvalue.Progress(ctx, resp.SendProgress, "agent job %s %s without changes: no pull request", job.ID, job.Status)
	}
}

// projectOrDefault is the configured project, else the provider's; with
// neither it adds an error on project_id.
func projectOrDefault(v types.String, pd *providerdata.Data, diags *diag.Diagnostics) (string, bool) {
	if s := v.ValueString(); s != "" {
		return s, true
	}
	if pd.ProjectID != "" {
		return pd.ProjectID, true
	}
	diags.AddAttributeError(path.Root("project_id"), "Missing Project ID",
		"Set project_id here, or project_id in the provider block, or the "+cli.EnvProjectID+" environment variable.")
	return "", false
}

type agentJobActionModel struct {
	ProjectID types.String `tfsdk:"project_id"`
	Prompt    types.String `tfsdk:"prompt"`
	Wait      types.Bool   `tfsdk:"wait"`
	Timeout   types.String `tfsdk:"timeout"`
}

// projectNotFound is the attribute error of an action whose project_id
// names no project the key can see.
func projectNotFound(diags *diag.Diagnostics, project string, err error) {
	diags.AddAttributeError(path.Root("project_id"), "Project Not Found",
		fmt.Sprintf("No project %q exists (or the key cannot see it): %s", project, err))
}
