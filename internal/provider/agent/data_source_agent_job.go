package agent

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/client"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/providerdata"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/tfvalue"
)

var (
	_ datasource.DataSource              = &agentJobDataSource{}
	_ datasource.DataSourceWithConfigure = &agentJobDataSource{}
)

// DefaultAgentJobReadTimeout bounds how long a read with wait = true polls.
const DefaultAgentJobReadTimeout = 20 * time.Minute

// NewAgentJobDataSource returns the docsadmin_agent_job data source.
func NewAgentJobDataSource() datasource.DataSource { return &agentJobDataSource{} }

type agentJobDataSource struct{ data *providerdata.Data }

func (d *agentJobDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_agent_job"
}

// agentSourceAttrTypes is the object type of the computed source attribute.
var agentSourceAttrTypes = map[string]attr.Type{"repository": types.StringType, "ref": types.StringType}

func (d *agentJobDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "An agent job: the agent editing documentation from a prompt and, when files change, " +
			"opening a pull request. With `wait = true` the read polls until the job is `completed`, `archived` or `failed`.",
		Attributes: map[string]schema.Attribute{
			"project_id": schema.StringAttribute{
				MarkdownDescription: "Project of the job. Defaults to the provider's `project_id`.",
				Optional:            true,
				Computed:            true,
			},
			"id": schema.StringAttribute{
				MarkdownDescription: "ID of the agent job.",
				Required:            true,
			},
			"wait": schema.BoolAttribute{
				MarkdownDescription: "Poll until the job is `completed`, `archived` or `failed` before returning. " +
					"Bounded by `timeouts.read` (default 20m).",
				Optional: true,
			},
			"status": schema.StringAttribute{
				MarkdownDescription: "`active`, `completed`, `archived` or `failed`.",
				Computed:            true,
			},
			"source": schema.SingleNestedAttribute{
				MarkdownDescription: "Repository and branch the agent works on.",
				Computed:            true,
				Attributes: map[string]schema.Attribute{
					"repository": schema.StringAttribute{MarkdownDescription: "URL of the repository.", Computed: true},
					"ref":        schema.StringAttribute{MarkdownDescription: "Branch, null until the agent picks one.", Computed: true},
				},
			},
			"model": schema.StringAttribute{
				MarkdownDescription: "AI model that runs the job.",
				Computed:            true,
			},
			"pr_link": schema.StringAttribute{
				MarkdownDescription: "Pull request the agent opened; null while active or when no file changed.",
				Computed:            true,
			},
			"created_at": schema.StringAttribute{
				MarkdownDescription: "When the job was created (RFC 3339).",
				Computed:            true,
			},
			"archived_at": schema.StringAttribute{
				MarkdownDescription: "When the job was archived (RFC 3339), or null.",
				Computed:            true,
			},
			"timeouts": tfvalue.DataSourceTimeouts(ctx),
		},
	}
}

func (d *agentJobDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = providerdata.Configured(req.ProviderData, &resp.Diagnostics)
}

func (d *agentJobDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m agentJobModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// The data source's own project wins over the provider's default, so
	// one configuration can read jobs of several projects.
	project, ok := projectOrDefault(m.ProjectID, d.data, &resp.Diagnostics)
	if !ok {
		return
	}
	id := m.ID.ValueString()

	var job api.AgentJob
	var err error
	if m.Wait.ValueBool() {
		timeout, diags := m.Timeouts.Read(ctx, DefaultAgentJobReadTimeout)
		resp.Diagnostics.Append(diags...)
		if resp.Diagnostics.HasError() {
			return
		}
		// Terminal statuses include failed: a failed agent run is an
		// outcome to branch on (pr_link is null), not a broken read.
		waitCtx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		last := ""
		job, err = d.data.Client.WaitAgentJob(waitCtx, project, id, func(j api.AgentJob) {
			if j.Status != last {
				tflog.Info(ctx, "agent job status", map[string]any{"id": id, "status": j.Status})
			}
			last = j.Status
		})
		if errors.Is(err, context.DeadlineExceeded) {
			resp.Diagnostics.AddError("Timed Out Waiting for Agent Job",
				fmt.Sprintf("Agent job %s in project %s was still %q after %s (timeouts.read).", id, project, last, timeout))
			return
		}
	} else {
		job, err = d.data.Client.GetAgentJob(ctx, project, id)
	}
	// A 404 is the user's input at fault (wrong id or project), so it
	// points at the attribute; anything else is the API's.
	if errors.Is(err, client.ErrNotFound) {
		resp.Diagnostics.AddAttributeError(path.Root("id"), "Agent Job Not Found",
			fmt.Sprintf("No agent job %q exists in project %q (or the key cannot see it): %s", id, project, err))
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to Read Agent Job", err.Error())
		return
	}

	m.ProjectID = types.StringValue(project)
	m.Status = types.StringValue(job.Status)
	src, diags := types.ObjectValue(agentSourceAttrTypes, map[string]attr.Value{
		"repository": types.StringValue(job.Source.Repository),
		"ref":        types.StringPointerValue(job.Source.Ref),
	})
	resp.Diagnostics.Append(diags...)
	m.Source = src
	m.Model = types.StringValue(job.Model)
	m.PRLink = types.StringPointerValue(job.PRLink)
	m.CreatedAt = tfvalue.RFC3339(job.CreatedAt)
	m.ArchivedAt = types.StringNull()
	if job.ArchivedAt != nil {
		m.ArchivedAt = tfvalue.RFC3339(*job.ArchivedAt)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

type agentJobModel struct {
	ProjectID  types.String   `tfsdk:"project_id"`
	ID         types.String   `tfsdk:"id"`
	Wait       types.Bool     `tfsdk:"wait"`
	Status     types.String   `tfsdk:"status"`
	Source     types.Object   `tfsdk:"source"`
	Model      types.String   `tfsdk:"model"`
	PRLink     types.String   `tfsdk:"pr_link"`
	CreatedAt  types.String   `tfsdk:"created_at"`
	ArchivedAt types.String   `tfsdk:"archived_at"`
	Timeouts   timeouts.Value `tfsdk:"timeouts"`
}
