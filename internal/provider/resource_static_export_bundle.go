package provider

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/client"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/providerdata"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/tfvalue"
)

var (
	_ resource.Resource                = &staticExportBundleResource{}
	_ resource.ResourceWithConfigure   = &staticExportBundleResource{}
	_ resource.ResourceWithModifyPlan  = &staticExportBundleResource{}
	_ resource.ResourceWithImportState = &staticExportBundleResource{}
)

// DefaultRenewBefore is how long before expiry a bundle link is renewed.
const DefaultRenewBefore = "15m"

// NewStaticExportBundleResource returns the docsadmin_static_export_bundle
// resource.
func NewStaticExportBundleResource() resource.Resource { return &staticExportBundleResource{} }

type staticExportBundleResource struct{ data *providerData }

func (r *staticExportBundleResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_static_export_bundle"
}

func (r *staticExportBundleResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		DeprecationMessage: "docsadmin_static_export_bundle stores the presigned link in state, where anyone who can read " +
			"the state can download the bundle. To feed a release, set job_id on docsadmin_static_export_rollout (the " +
			"link is fetched at apply and never stored); for a link in a configuration, use the ephemeral resource " +
			"docsadmin_static_export_bundle with a write-only argument such as bundle_url_wo.",
		MarkdownDescription: "A presigned download link for the bundle of a completed static export. " +
			"The link expires; once a plan runs within `renew_before` of `expires_at`, the plan shows an in-place " +
			"update that generates a fresh link for the same job. The export itself is never redone.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The export job ID, as `job_id`.",
				Computed:            true,
				PlanModifiers:       keep,
			},
			"job_id": schema.StringAttribute{
				MarkdownDescription: "ID of a completed static export job, usually `docsadmin_static_export.<name>.id`.",
				Required:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"renew_before": schema.StringAttribute{
				MarkdownDescription: "How long before `expires_at` a plan renews the link, as a duration such as `15m` or `2h`. " +
					"Defaults to `" + DefaultRenewBefore + "`.",
				Optional:   true,
				Computed:   true,
				Default:    stringdefault.StaticString(DefaultRenewBefore),
				Validators: []validator.String{tfvalue.DurationValidator{Positive: true}},
			},
			"bundle_url": schema.StringAttribute{
				MarkdownDescription: "Presigned link to the bundle archive. It is a credential: anyone holding it can download the bundle until `expires_at`.",
				Computed:            true,
				Sensitive:           true,
				PlanModifiers:       keep,
			},
			"expires_at": schema.StringAttribute{
				MarkdownDescription: "When `bundle_url` stops working (RFC 3339).",
				Computed:            true,
				PlanModifiers:       keep,
			},
			"size_bytes": schema.Int64Attribute{
				MarkdownDescription: "Size of the bundle archive in bytes.",
				Computed:            true,
				PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
			"ready_for_renewal": schema.BoolAttribute{
				MarkdownDescription: "Whether the link is within `renew_before` of expiring: `true` in a plan that renews the " +
					"link and in the state that apply writes, until a refresh finds the new link fresh. Passing time alone does " +
					"not change it on refresh (that would show as a change outside of Terraform); the plan decides renewal.",
				Computed: true,
			},
		},
	}
}

func (r *staticExportBundleResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = providerdata.Configured(req.ProviderData, &resp.Diagnostics)
}

// linkNow is the time a link's expiry is measured against: the server's,
// which signs the link and refuses it once expired, as the Date of its
// latest answer shows it (client.ServerNow). The provider's own clock may
// be behind the server's, and a link it thinks fresh already answers 403.
func linkNow(ctx context.Context, d *providerData) time.Time {
	if skew := d.Client.Skew(); skew != 0 {
		tflog.Debug(ctx, "deciding bundle link renewal by the server's clock", map[string]any{"skew_ms": skew.Milliseconds()})
	}
	return d.Client.ServerNow()
}

// renewalDue reports whether a link expiring at expiresAt must be renewed
// at now. A link with no known expiry (just imported) is always due.
func renewalDue(now time.Time, expiresAt types.String, renewBefore string) (bool, error) {
	before, err := time.ParseDuration(renewBefore)
	if err != nil {
		return false, err
	}
	if expiresAt.IsNull() || expiresAt.ValueString() == "" {
		return true, nil
	}
	exp, err := time.Parse(time.RFC3339, expiresAt.ValueString())
	if err != nil {
		return false, err
	}
	return !now.Before(exp.Add(-before)), nil
}

// ModifyPlan decides renewal at plan time, with the injected clock, so that
// `terraform plan` shows it as an in-place update of the link: Terraform
// cannot know a link expired unless the plan says so. It reads and writes
// single attributes rather than the whole model: this runs for every
// bundle on every plan, and the framework's struct reflection was most of
// its cost.
func (r *staticExportBundleResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() || r.data == nil {
		return // create and destroy need no decision
	}
	var stateJob, planJob, expiresAt, renewBefore types.String
	var ready types.Bool
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("job_id"), &stateJob)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("expires_at"), &expiresAt)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("job_id"), &planJob)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("renew_before"), &renewBefore)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("ready_for_renewal"), &ready)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if renewBefore.IsUnknown() || planJob.IsUnknown() || !planJob.Equal(stateJob) {
		return // not decidable yet, or a replacement that generates a new link anyway
	}
	if lifetime, ok := linkLifetime(ctx, req.Private); ok {
		warnRenewBefore(renewBefore, lifetime, &resp.Diagnostics)
	}
	due, err := renewalDue(linkNow(ctx, r.data), expiresAt, renewBefore.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("renew_before"), "Unable to Decide Bundle Renewal", err.Error())
		return
	}
	set := func(name string, v any) {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root(name), v)...)
	}
	switch {
	case due:
		tflog.Info(ctx, "bundle link is within its renewal window; planning a new link",
			map[string]any{"job_id": stateJob.ValueString(), "expires_at": expiresAt.ValueString()})
		set("ready_for_renewal", types.BoolValue(true))
		set("bundle_url", types.StringUnknown())
		set("expires_at", types.StringUnknown())
		set("size_bytes", types.Int64Unknown())
	case ready.IsUnknown():
		// Another argument changed; the link stays and is not due.
		set("ready_for_renewal", types.BoolValue(false))
	default:
		// Leave the prior value: after a renewal the state says true until
		// the next refresh, and flipping it here would make every
		// -refresh=false plan show a change.
	}
}

func (r *staticExportBundleResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan staticExportBundleModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	lifetime, ok := r.generate(ctx, &plan, &resp.Diagnostics)
	if !ok {
		return
	}
	due, err := renewalDue(linkNow(ctx, r.data), plan.ExpiresAt, plan.RenewBefore.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("renew_before"), "Unable to Decide Bundle Renewal", err.Error())
		return
	}
	plan.ReadyForRenewal = types.BoolValue(due)
	warnRenewBefore(plan.RenewBefore, lifetime, &resp.Diagnostics)
	resp.Diagnostics.Append(setLinkLifetime(ctx, resp.Private, lifetime)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// generate asks the server for a fresh link, records it in m, and returns
// the lifetime the server granted it.
func (r *staticExportBundleResource) generate(ctx context.Context, m *staticExportBundleModel, diags *diag.Diagnostics) (time.Duration, bool) {
	b, err := r.data.Client.GenerateBundle(ctx, m.JobID.ValueString())
	if err != nil {
		detail := err.Error()
		var apiErr *client.APIError
		if errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusConflict {
			detail += "\n\nThe export job has not completed. Reference the job through docsadmin_static_export, whose creation waits for completion."
		}
		diags.AddError("Unable to Generate Bundle Link", detail)
		return 0, false
	}
	m.fill(b)
	tflog.Info(ctx, "generated bundle link", map[string]any{"job_id": b.JobID, "expires_at": m.ExpiresAt.ValueString(),
		"size_bytes": b.SizeBytes})
	return r.data.Client.LinkLifetime(b), true
}

func (r *staticExportBundleResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	// Single attributes, not the model: Read runs for every bundle on
	// every refresh (see ModifyPlan). resp.State starts as the prior state.
	var jobID, expiresAt, renewBefore types.String
	var ready types.Bool
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("job_id"), &jobID)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("expires_at"), &expiresAt)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("renew_before"), &renewBefore)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("ready_for_renewal"), &ready)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// The link only works while its job exists; a job past retention
	// leaves a dead link, so the bundle leaves state with it.
	_, err := r.data.Client.GetExport(ctx, jobID.ValueString())
	if errors.Is(err, client.ErrNotFound) {
		tflog.Warn(ctx, "static export job of bundle no longer exists; removing the bundle from state",
			map[string]any{"job_id": jobID.ValueString()})
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to Read Static Export Bundle", err.Error())
		return
	}
	// ready_for_renewal only settles here, from the true that the apply of
	// a renewal wrote back to false once the new link is fresh. Time alone
	// never turns it true on refresh: Terraform would report that as a
	// change made outside of Terraform, while it is the plan's own
	// decision, which ModifyPlan shows as the update that renews the link.
	if !ready.ValueBool() {
		return
	}
	due, err := renewalDue(linkNow(ctx, r.data), expiresAt, renewBefore.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("renew_before"), "Unable to Decide Bundle Renewal", err.Error())
		return
	}
	if !due {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("ready_for_renewal"), false)...)
	}
}

// Update renews the link when the plan left it unknown (ModifyPlan found it
// due); otherwise only renew_before changed and the link stays.
func (r *staticExportBundleResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan staticExportBundleModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if plan.BundleURL.IsUnknown() {
		lifetime, ok := r.generate(ctx, &plan, &resp.Diagnostics)
		if !ok {
			return
		}
		resp.Diagnostics.Append(setLinkLifetime(ctx, resp.Private, lifetime)...)
	}
	if plan.ReadyForRenewal.IsUnknown() {
		due, err := renewalDue(linkNow(ctx, r.data), plan.ExpiresAt, plan.RenewBefore.ValueString())
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("renew_before"), "Unable to Decide Bundle Renewal", err.Error())
			return
		}
		plan.ReadyForRenewal = types.BoolValue(due)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete only forgets: a presigned link cannot be revoked, it expires.
func (r *staticExportBundleResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {
}

// ImportState takes a job ID. The imported bundle has no link yet, so the
// next plan shows it as due for renewal and apply generates one.
func (r *staticExportBundleResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("job_id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("renew_before"), DefaultRenewBefore)...)
}

type staticExportBundleModel struct {
	ID              types.String `tfsdk:"id"`
	JobID           types.String `tfsdk:"job_id"`
	RenewBefore     types.String `tfsdk:"renew_before"`
	BundleURL       types.String `tfsdk:"bundle_url"`
	ExpiresAt       types.String `tfsdk:"expires_at"`
	SizeBytes       types.Int64  `tfsdk:"size_bytes"`
	ReadyForRenewal types.Bool   `tfsdk:"ready_for_renewal"`
}

func (m *staticExportBundleModel) fill(b api.Bundle) {
	m.ID = m.JobID
	m.BundleURL = types.StringValue(b.BundleURL)
	m.ExpiresAt = tfvalue.RFC3339(b.ExpiresAt)
	m.SizeBytes = types.Int64Value(b.SizeBytes)
}
