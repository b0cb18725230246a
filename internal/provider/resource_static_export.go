package provider

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/float64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/client"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/providerdata"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/tfvalue"
)

var (
	_ resource.Resource                = &staticExportResource{}
	_ resource.ResourceWithConfigure   = &staticExportResource{}
	_ resource.ResourceWithImportState = &staticExportResource{}
	_ resource.ResourceWithIdentity    = &staticExportResource{}
)

// DefaultExportCreateTimeout bounds how long Create waits for an export.
const DefaultExportCreateTimeout = 30 * time.Minute

// manifestTimeout bounds reading a bundle's manifest, needed only with a
// server that does not report the content version.
const manifestTimeout = 30 * time.Second

// NewStaticExportResource returns the docsadmin_static_export resource.
func NewStaticExportResource() resource.Resource { return &staticExportResource{} }

type staticExportResource struct{ data *providerData }

func (r *staticExportResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_static_export"
}

func (r *staticExportResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A static export job: the site of `domain` pre-rendered to HTML, CSS and JavaScript. " +
			"Creating the resource starts the job and waits until it completes. Every argument forces a new job; " +
			"destroying only forgets the job, since the API cannot delete one.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The job ID (`jobId`).",
				Computed:            true,
				PlanModifiers:       keep,
			},
			"domain": schema.StringAttribute{
				MarkdownDescription: "Hostname of the deployment to export, such as `docs.example.com`: no scheme, path or slash.",
				Required:            true,
				Validators:          []validator.String{tfvalue.HostnameValidator{}},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplaceIf(replaceStringUnlessImported, replaceDesc, replaceDesc)},
			},
			"version": schema.StringAttribute{
				MarkdownDescription: "Version label of the export, recorded in the bundle's manifest as `label`. The server's default is the latest published version. " +
					"It names the docs version to export; it is not the content version (see `content_version`).",
				Optional:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplaceIf(replaceStringUnlessImported, replaceDesc, replaceDesc)},
			},
			"paths": schema.ListAttribute{
				MarkdownDescription: "Page paths to export, such as `guides/getting-started`. All published pages when omitted.",
				ElementType:         types.StringType,
				Optional:            true,
				PlanModifiers:       []planmodifier.List{listplanmodifier.RequiresReplaceIf(replaceListUnlessImported, replaceDesc, replaceDesc)},
			},
			"triggers": schema.MapAttribute{
				MarkdownDescription: "Arbitrary values; any change exports again, for example a content commit SHA.",
				ElementType:         types.StringType,
				Optional:            true,
				PlanModifiers:       []planmodifier.Map{mapplanmodifier.RequiresReplaceIf(replaceMapUnlessImported, replaceDesc, replaceDesc)},
			},
			"status": schema.StringAttribute{
				MarkdownDescription: "Job status: `queued`, `running`, `completed` or `failed`.",
				Computed:            true,
				PlanModifiers:       keep,
			},
			"progress": schema.Float64Attribute{
				MarkdownDescription: "Completion percentage, 0 to 100.",
				Computed:            true,
				PlanModifiers:       []planmodifier.Float64{float64planmodifier.UseStateForUnknown()},
			},
			"page_count": schema.Int64Attribute{
				MarkdownDescription: "Number of pages exported.",
				Computed:            true,
				PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
			"content_version": schema.StringAttribute{
				MarkdownDescription: "Content version of the completed export: the `version` of its bundle's `manifest.json`, a hash " +
					"of the bundle's file list that changes exactly when the content does. This is the value for " +
					"`docsadmin_static_export_rollout.version` (the chart's `staticExport.version`), so pods roll for new " +
					"content and not for a renewed link. With a server that does not report it, it is read once from the bundle's manifest.",
				Computed:      true,
				PlanModifiers: keep,
			},
			"created_at": schema.StringAttribute{
				MarkdownDescription: "When the job was created (RFC 3339).",
				Computed:            true,
				PlanModifiers:       keep,
			},
			"updated_at": schema.StringAttribute{
				MarkdownDescription: "When the job last changed (RFC 3339).",
				Computed:            true,
				PlanModifiers:       keep,
			},
			"timeouts": tfvalue.ResourceTimeouts(ctx, timeouts.Opts{Create: true}),
		},
	}
}

const replaceDesc = "Changing this value starts a new export job, except on the first apply after an import, " +
	"where the configured value is adopted."

// importedPrior reports whether prior state came from `terraform import`:
// the API does not return a job's domain, so only an imported job has none.
func importedPrior(ctx context.Context, st tfsdk.State) bool {
	var domain types.String
	st.GetAttribute(ctx, path.Root("domain"), &domain)
	return domain.IsNull()
}

// The replace-unless-imported functions force a new job when an argument
// changes, but on the first plan after an import adopt the configuration
// instead: the API cannot tell which domain or paths a job was started
// with, and exporting again just to learn it would defeat importing.
func replaceStringUnlessImported(ctx context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = !importedPrior(ctx, req.State)
}

func replaceListUnlessImported(ctx context.Context, req planmodifier.ListRequest, resp *listplanmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = !importedPrior(ctx, req.State)
}

func replaceMapUnlessImported(ctx context.Context, req planmodifier.MapRequest, resp *mapplanmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = !importedPrior(ctx, req.State)
}

func (r *staticExportResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = providerdata.Configured(req.ProviderData, &resp.Diagnostics)
}

func (r *staticExportResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan staticExportModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := plan.Timeouts.Create(ctx, DefaultExportCreateTimeout)
	resp.Diagnostics.Append(diags...)
	var paths []string
	resp.Diagnostics.Append(plan.Paths.ElementsAs(ctx, &paths, false)...)
	if resp.Diagnostics.HasError() {
		return
	}

	job, err := r.data.Client.StartExport(ctx, api.StartExportRequest{
		Domain: plan.Domain.ValueString(), Version: plan.Version.ValueString(), Paths: paths})
	if err != nil {
		resp.Diagnostics.AddError("Unable to Start Static Export", err.Error())
		return
	}
	// Record the job before waiting: if the wait fails or times out,
	// Terraform keeps a tainted resource that names the real job.
	plan.fill(job)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	setIdentity(ctx, resp.Identity, exportIdentity{JobID: plan.ID}, &resp.Diagnostics)
	tflog.Info(ctx, "static export started", map[string]any{"job_id": job.JobID, "domain": plan.Domain.ValueString()})

	waitCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	last := job
	job, err = r.data.Client.WaitExport(waitCtx, job.JobID, func(j api.ExportJob) {
		if j.Status != last.Status || j.Progress != last.Progress {
			tflog.Info(ctx, "static export progress", map[string]any{"job_id": j.JobID, "status": j.Status,
				"progress": j.Progress, "page_count": j.PageCount})
		}
		last = j
	})
	if job.JobID != "" {
		plan.fill(job)
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		addExportWarnings(&resp.Diagnostics, job)
	}
	if err == nil {
		r.manifestFallback(ctx, &plan, job, &resp.Diagnostics)
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	}
	var failed *client.JobFailedError
	switch {
	case errors.As(err, &failed):
		resp.Diagnostics.AddError("Static Export Failed", "The server reports: "+failed.Message+
			"\n\nThe failed job "+failed.JobID+" is kept as tainted and is replaced on the next apply.")
	case errors.Is(err, context.DeadlineExceeded):
		resp.Diagnostics.AddError("Timed Out Waiting for Static Export",
			"Job "+last.JobID+" did not complete within "+timeout.String()+" (timeouts.create): "+err.Error())
	case err != nil:
		resp.Diagnostics.AddError("Unable to Wait for Static Export", err.Error())
	}
}

func (r *staticExportResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state staticExportModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// Set first: the framework wants an identity even from a Read that
	// removes the resource, and a state written before identities (or
	// by an older CLI) has none yet.
	setIdentity(ctx, resp.Identity, exportIdentity{JobID: state.ID}, &resp.Diagnostics)
	job, err := r.data.Client.GetExport(ctx, state.ID.ValueString())
	if errors.Is(err, client.ErrNotFound) {
		tflog.Warn(ctx, "static export job no longer exists; removing it from state", map[string]any{"job_id": state.ID.ValueString()})
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to Read Static Export", err.Error())
		return
	}
	prior := state.ContentVersion
	state.fill(job)
	if state.ContentVersion.IsNull() && !prior.IsNull() && !prior.IsUnknown() {
		// The server does not report it; the content of a completed job
		// never changes, so what Create read from the manifest stands.
		state.ContentVersion = prior
	}
	r.manifestFallback(ctx, &state, job, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// manifestFallback fills content_version of a completed job the server
// reported without it (the real service's schema does not list it) from
// the bundle's manifest, through client.ContentVersion. A failure is a
// warning, not an error: the job is fine, only content_version stays null.
func (r *staticExportResource) manifestFallback(ctx context.Context, m *staticExportModel, job api.ExportJob, diags *diag.Diagnostics) {
	if job.Status != api.ExportCompleted || !m.ContentVersion.IsNull() {
		return
	}
	v, err := r.data.Client.ContentVersion(ctx, job, &http.Client{Timeout: manifestTimeout})
	if err != nil {
		diags.AddAttributeWarning(path.Root("content_version"), "Content Version Unknown",
			"content_version of job "+job.JobID+" is null: "+err.Error())
		return
	}
	m.ContentVersion = types.StringValue(v)
	tflog.Debug(ctx, "content version read from the bundle's manifest", map[string]any{"job_id": job.JobID})
}

// Update is reached only when nothing forces a new job: a timeouts change,
// or the first apply after an import adopting the configured arguments.
func (r *staticExportResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan staticExportModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	setIdentity(ctx, resp.Identity, exportIdentity{JobID: plan.ID}, &resp.Diagnostics)
}

// Delete only forgets: the API keeps jobs until its retention expires.
func (r *staticExportResource) Delete(ctx context.Context, req resource.DeleteRequest, _ *resource.DeleteResponse) {
	var id types.String
	req.State.GetAttribute(ctx, path.Root("id"), &id)
	tflog.Info(ctx, "forgetting static export job; the API has no delete", map[string]any{"job_id": id.ValueString()})
}

func (r *staticExportResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	// An ID string (terraform import, an import block's id) or the
	// identity's job_id (an import block's identity, Terraform 1.12+).
	resource.ImportStatePassthroughWithIdentity(ctx, path.Root("id"), path.Root("job_id"), req, resp)
}

type staticExportModel struct {
	ID        types.String  `tfsdk:"id"`
	Domain    types.String  `tfsdk:"domain"`
	Version   types.String  `tfsdk:"version"`
	Paths     types.List    `tfsdk:"paths"`
	Triggers  types.Map     `tfsdk:"triggers"`
	Status    types.String  `tfsdk:"status"`
	Progress  types.Float64 `tfsdk:"progress"`
	PageCount types.Int64   `tfsdk:"page_count"`
	// ContentVersion is null rather than unknown until the job completes:
	// state written before the wait ends must hold known values.
	ContentVersion types.String   `tfsdk:"content_version"`
	CreatedAt      types.String   `tfsdk:"created_at"`
	UpdatedAt      types.String   `tfsdk:"updated_at"`
	Timeouts       timeouts.Value `tfsdk:"timeouts"`
}

func (m *staticExportModel) fill(j api.ExportJob) {
	m.ID = types.StringValue(j.JobID)
	m.Status = types.StringValue(j.Status)
	m.Progress = types.Float64Value(j.Progress)
	m.PageCount = types.Int64Value(int64(j.PageCount))
	m.ContentVersion = types.StringNull()
	if j.Version != "" {
		m.ContentVersion = types.StringValue(j.Version)
	}
	m.CreatedAt = tfvalue.RFC3339(j.CreatedAt)
	m.UpdatedAt = tfvalue.RFC3339(j.UpdatedAt)
}
