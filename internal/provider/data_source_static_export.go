package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
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
	_ datasource.DataSource                     = &staticExportDataSource{}
	_ datasource.DataSourceWithConfigure        = &staticExportDataSource{}
	_ datasource.DataSourceWithConfigValidators = &staticExportDataSource{}
)

// NewStaticExportDataSource returns the docsadmin_static_export data source.
func NewStaticExportDataSource() datasource.DataSource { return &staticExportDataSource{} }

type staticExportDataSource struct{ data *providerData }

func (d *staticExportDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_static_export"
}

func (d *staticExportDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A static export job started elsewhere, for example by a CI pipeline. With `wait = true` the read " +
			"polls until the job is `completed` or `failed`, so its `job_id` can feed `docsadmin_static_export_rollout.job_id`.",
		Attributes: map[string]schema.Attribute{
			"job_id": schema.StringAttribute{
				MarkdownDescription: "The job ID (`jobId`), as `job_id` of the rollout resource and of the resources' identity. " +
					"Exactly one of `job_id` and `id` is set.",
				Optional: true,
				Computed: true,
			},
			"id": schema.StringAttribute{
				MarkdownDescription: "The job ID; the same as `job_id`, which replaces it as an argument.",
				Optional:            true,
				Computed:            true,
				DeprecationMessage: "Set job_id instead of id: job_id is what the rollout resource and the resources' " +
					"identity call the job. id stays readable and equals job_id.",
			},
			"wait": schema.BoolAttribute{
				MarkdownDescription: "Poll until the job is `completed` or `failed` before returning. Bounded by `timeouts.read` " +
					"(default 30m). A failed job is a result (see `error`), not an error.",
				Optional: true,
			},
			"status":     schema.StringAttribute{MarkdownDescription: "`queued`, `running`, `completed` or `failed`.", Computed: true},
			"progress":   schema.Float64Attribute{MarkdownDescription: "Completion percentage, 0 to 100.", Computed: true},
			"page_count": schema.Int64Attribute{MarkdownDescription: "Number of pages exported so far.", Computed: true},
			"error":      schema.StringAttribute{MarkdownDescription: "The server's explanation of a failed job; null otherwise.", Computed: true},
			"content_version": schema.StringAttribute{
				MarkdownDescription: "Content version of a completed job (the `version` of its bundle's `manifest.json`); " +
					"null until the job completes, or when the server does not report it.",
				Computed: true,
			},
			"warning_count": schema.Int64Attribute{
				MarkdownDescription: "How many warnings the export reported to the docs author (unsupported `docs.json` " +
					"settings, skipped redirects, remote content replaced, OpenAPI files that do not parse); 0 when none.",
				Computed: true,
			},
			"warnings": schema.ListAttribute{
				MarkdownDescription: "The first warning messages (the server keeps at most 20; `warning_count` counts all).",
				ElementType:         types.StringType,
				Computed:            true,
			},
			"created_at": schema.StringAttribute{MarkdownDescription: "When the job was created (RFC 3339).", Computed: true},
			"updated_at": schema.StringAttribute{MarkdownDescription: "When the job last changed (RFC 3339).", Computed: true},
			"timeouts":   tfvalue.DataSourceTimeouts(ctx),
		},
	}
}

// ConfigValidators asks for exactly one of job_id and the deprecated id.
func (d *staticExportDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{datasourcevalidator.ExactlyOneOf(path.MatchRoot("job_id"), path.MatchRoot("id"))}
}

func (d *staticExportDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = providerdata.Configured(req.ProviderData, &resp.Diagnostics)
}

func (d *staticExportDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m staticExportDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	idAttr := path.Root("job_id")
	if m.JobID.IsNull() {
		idAttr, m.JobID = path.Root("id"), m.ID
	}
	m.ID = m.JobID
	id := m.JobID.ValueString()
	var job api.ExportJob
	var err error
	if m.Wait.ValueBool() {
		// Waiting is asked for explicitly: a data source that always
		// blocked on a running export would stall every plan.
		timeout, diags := m.Timeouts.Read(ctx, DefaultExportCreateTimeout)
		resp.Diagnostics.Append(diags...)
		if resp.Diagnostics.HasError() {
			return
		}
		waitCtx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		last := ""
		job, err = d.data.Client.WaitExport(waitCtx, id, func(j api.ExportJob) {
			if j.Status != last {
				tflog.Info(ctx, "static export status", map[string]any{"id": id, "status": j.Status, "progress": j.Progress})
			}
			last = j.Status
		})
		var failed *client.JobFailedError
		if errors.As(err, &failed) {
			err = nil // an outcome to branch on, reported in error
		}
		if errors.Is(err, context.DeadlineExceeded) {
			resp.Diagnostics.AddError("Timed Out Waiting for Static Export",
				fmt.Sprintf("Static export job %s was still %q after %s (timeouts.read).", id, last, timeout))
			return
		}
	} else {
		job, err = d.data.Client.GetExport(ctx, id)
	}
	if errors.Is(err, client.ErrNotFound) {
		resp.Diagnostics.AddAttributeError(idAttr, "Static Export Not Found",
			fmt.Sprintf("No static export job %q exists (jobs are kept for a limited time): %s", id, err))
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to Read Static Export", err.Error())
		return
	}
	m.Status = types.StringValue(job.Status)
	m.Progress = types.Float64Value(job.Progress)
	m.PageCount = types.Int64Value(int64(job.PageCount))
	m.Error = nullIfEmpty(job.Error)
	m.ContentVersion = nullIfEmpty(job.Version)
	m.WarningCount, m.Warnings = warningsValues(job)
	m.CreatedAt = tfvalue.RFC3339(job.CreatedAt)
	m.UpdatedAt = tfvalue.RFC3339(job.UpdatedAt)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// nullIfEmpty maps an optional field the server left out to null.
func nullIfEmpty(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

type staticExportDataModel struct {
	JobID          types.String   `tfsdk:"job_id"`
	ID             types.String   `tfsdk:"id"`
	Wait           types.Bool     `tfsdk:"wait"`
	Status         types.String   `tfsdk:"status"`
	Progress       types.Float64  `tfsdk:"progress"`
	PageCount      types.Int64    `tfsdk:"page_count"`
	Error          types.String   `tfsdk:"error"`
	ContentVersion types.String   `tfsdk:"content_version"`
	WarningCount   types.Int64    `tfsdk:"warning_count"`
	Warnings       types.List     `tfsdk:"warnings"`
	CreatedAt      types.String   `tfsdk:"created_at"`
	UpdatedAt      types.String   `tfsdk:"updated_at"`
	Timeouts       timeouts.Value `tfsdk:"timeouts"`
}
