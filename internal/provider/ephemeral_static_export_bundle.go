package provider

import (
	"context"
	"net/http"

	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/client"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/providerdata"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/tfvalue"
)

var (
	_ ephemeral.EphemeralResource              = &staticExportBundleEphemeral{}
	_ ephemeral.EphemeralResourceWithConfigure = &staticExportBundleEphemeral{}
)

// NewStaticExportBundleEphemeralResource returns the ephemeral
// docsadmin_static_export_bundle: a link that exists only during one
// Terraform run and is never written to plan or state.
func NewStaticExportBundleEphemeralResource() ephemeral.EphemeralResource {
	return &staticExportBundleEphemeral{}
}

type staticExportBundleEphemeral struct{ data *providerData }

func (e *staticExportBundleEphemeral) Metadata(_ context.Context, req ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_static_export_bundle"
}

func (e *staticExportBundleEphemeral) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A fresh presigned download link for the bundle of a completed static export, opened for one " +
			"Terraform run and never stored in plan or state (Terraform 1.10 and later). Feed it to write-only arguments, " +
			"such as `bundle_url_wo` of `docsadmin_static_export_rollout`, or to another provider's configuration. " +
			"Each run opens a new link; the export is never redone.",
		Attributes: map[string]schema.Attribute{
			"job_id": schema.StringAttribute{
				MarkdownDescription: "ID of a completed static export job, usually `docsadmin_static_export.<name>.id`.",
				Required:            true,
			},
			"bundle_url": schema.StringAttribute{
				MarkdownDescription: "Presigned link to the bundle archive. It is a credential: anyone holding it can download the bundle until `expires_at`.",
				Computed:            true,
				Sensitive:           true,
			},
			"expires_at": schema.StringAttribute{
				MarkdownDescription: "When `bundle_url` stops working (RFC 3339).",
				Computed:            true,
			},
			"size_bytes": schema.Int64Attribute{
				MarkdownDescription: "Size of the bundle archive in bytes.",
				Computed:            true,
			},
			"version": schema.StringAttribute{
				MarkdownDescription: "Content version of the bundle (the `version` of its `manifest.json`); null, with a warning, " +
					"when the server does not report it and the manifest cannot be read.",
				Computed: true,
			},
		},
	}
}

func (e *staticExportBundleEphemeral) Configure(_ context.Context, req ephemeral.ConfigureRequest, resp *ephemeral.ConfigureResponse) {
	e.data = providerdata.Configured(req.ProviderData, &resp.Diagnostics)
}

// Open asks for a link. A job that is unknown, failed or still running is
// an error on job_id: there is nothing to download yet.
func (e *staticExportBundleEphemeral) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	var m staticExportBundleEphemeralModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if e.data == nil {
		resp.Diagnostics.AddError("Provider Not Configured", "The ephemeral bundle needs the provider's admin API settings (base_url, api_key).")
		return
	}
	jobID := m.JobID.ValueString()
	b, err := e.data.Client.GenerateBundle(ctx, jobID)
	if err != nil {
		addBundleError(ctx, e.data, jobID, err, &resp.Diagnostics)
		return
	}
	m.BundleURL = types.StringValue(b.BundleURL)
	m.ExpiresAt = tfvalue.RFC3339(b.ExpiresAt)
	m.SizeBytes = types.Int64Value(b.SizeBytes)
	m.Version = types.StringNull()
	if v, err := client.BundleVersion(ctx, b, &http.Client{Timeout: manifestTimeout}); err == nil {
		m.Version = types.StringValue(v)
	} else {
		resp.Diagnostics.AddAttributeWarning(path.Root("version"), "Content Version Unknown", "version is null: "+err.Error())
	}
	tflog.Info(ctx, "opened bundle link", map[string]any{"job_id": jobID, "expires_at": m.ExpiresAt.ValueString()})
	resp.Diagnostics.Append(resp.Result.Set(ctx, &m)...)
}

type staticExportBundleEphemeralModel struct {
	JobID     types.String `tfsdk:"job_id"`
	BundleURL types.String `tfsdk:"bundle_url"`
	ExpiresAt types.String `tfsdk:"expires_at"`
	SizeBytes types.Int64  `tfsdk:"size_bytes"`
	Version   types.String `tfsdk:"version"`
}
