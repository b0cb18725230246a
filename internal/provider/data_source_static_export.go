package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/client"
)

var (
	_ datasource.DataSource              = &staticExportDataSource{}
	_ datasource.DataSourceWithConfigure = &staticExportDataSource{}
)

// NewStaticExportDataSource returns the docsadmin_static_export data source.
func NewStaticExportDataSource() datasource.DataSource { return &staticExportDataSource{} }

type staticExportDataSource struct{ data *providerData }

func (d *staticExportDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_static_export"
}

func (d *staticExportDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The current state of a static export job started elsewhere, for example by a CI pipeline.",
		Attributes: map[string]schema.Attribute{
			"id":         schema.StringAttribute{MarkdownDescription: "The job ID (`jobId`).", Required: true},
			"status":     schema.StringAttribute{MarkdownDescription: "`queued`, `running`, `completed` or `failed`.", Computed: true},
			"progress":   schema.Float64Attribute{MarkdownDescription: "Completion percentage, 0 to 100.", Computed: true},
			"page_count": schema.Int64Attribute{MarkdownDescription: "Number of pages exported so far.", Computed: true},
			"created_at": schema.StringAttribute{MarkdownDescription: "When the job was created (RFC 3339).", Computed: true},
			"updated_at": schema.StringAttribute{MarkdownDescription: "When the job last changed (RFC 3339).", Computed: true},
		},
	}
}

func (d *staticExportDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configured(req.ProviderData, &resp.Diagnostics)
}

func (d *staticExportDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m staticExportDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// No waiting here: a data source that blocked on a running export would
	// stall every plan; the resource is the place that waits.
	job, err := d.data.client.GetExport(ctx, m.ID.ValueString())
	if errors.Is(err, client.ErrNotFound) {
		resp.Diagnostics.AddAttributeError(path.Root("id"), "Static Export Not Found",
			fmt.Sprintf("No static export job %q exists (jobs are kept for a limited time): %s", m.ID.ValueString(), err))
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to Read Static Export", err.Error())
		return
	}
	m.Status = types.StringValue(job.Status)
	m.Progress = types.Float64Value(job.Progress)
	m.PageCount = types.Int64Value(int64(job.PageCount))
	m.CreatedAt = rfc3339(job.CreatedAt)
	m.UpdatedAt = rfc3339(job.UpdatedAt)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

type staticExportDataModel struct {
	ID        types.String  `tfsdk:"id"`
	Status    types.String  `tfsdk:"status"`
	Progress  types.Float64 `tfsdk:"progress"`
	PageCount types.Int64   `tfsdk:"page_count"`
	CreatedAt types.String  `tfsdk:"created_at"`
	UpdatedAt types.String  `tfsdk:"updated_at"`
}
