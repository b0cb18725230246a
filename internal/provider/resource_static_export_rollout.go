package provider

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
)

var (
	_ resource.Resource                   = &staticExportRolloutResource{}
	_ resource.ResourceWithModifyPlan     = &staticExportRolloutResource{}
	_ resource.ResourceWithImportState    = &staticExportRolloutResource{}
	_ resource.ResourceWithConfigure      = &staticExportRolloutResource{}
	_ resource.ResourceWithValidateConfig = &staticExportRolloutResource{}
)

// DefaultRolloutTimeout bounds one create or update of a release.
const DefaultRolloutTimeout = 10 * time.Minute

// appliedDigestKey names the private state entry holding the values digest
// this resource last wrote. The digest in state is what the cluster has;
// when the two differ someone changed the staticExport table by hand (for
// example set enabled=false, which no argument shows).
const appliedDigestKey = "applied_digest"

// Helm's own limits: a release name is a DNS subdomain of at most 53
// characters (its Secrets append a suffix); a namespace is a DNS label.
var (
	releaseNamePattern = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
	namespacePattern   = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)
)

// NewStaticExportRolloutResource returns the docsadmin_static_export_rollout
// resource.
func NewStaticExportRolloutResource() resource.Resource { return &staticExportRolloutResource{} }

// staticExportRolloutResource takes the cluster per resource, so that a
// cluster created in the same run can be used; the provider's API client
// is only needed to fetch links for job_id.
type staticExportRolloutResource struct{ data *providerData }

func (r *staticExportRolloutResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_static_export_rollout"
}

func (r *staticExportRolloutResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Points a self-hosted Helm release at a static export bundle: a Helm upgrade that sets " +
			"`staticExport.enabled`, `bundleUrl`, `version` and `expiresAt` and keeps every other value. Refresh reads " +
			"the release back, so a change made with `helm upgrade` shows as drift and the next apply corrects it. " +
			"Destroying only forgets the release: it belongs to the platform and is never uninstalled.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "`<namespace>/<release>`.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"release": schema.StringAttribute{
				MarkdownDescription: "Name of the Helm release. Changing it (or `namespace`) forgets the old release, without uninstalling it.",
				Required:            true,
				PlanModifiers:       replace,
				Validators: []validator.String{stringvalidator.LengthAtMost(53),
					stringvalidator.RegexMatches(releaseNamePattern, "must be a valid Helm release name: lower-case letters, digits, '-' and '.'")},
			},
			"namespace": schema.StringAttribute{
				MarkdownDescription: "Namespace of the release, which also holds Helm's release records.",
				Required:            true,
				PlanModifiers:       replace,
				Validators: []validator.String{stringvalidator.LengthAtMost(63),
					stringvalidator.RegexMatches(namespacePattern, "must be a Kubernetes namespace name (a DNS label)")},
			},
			"kubeconfig_path": schema.StringAttribute{
				MarkdownDescription: "Path of a kubeconfig file. Defaults to the `KUBECONFIG` environment variable, then " +
					"`~/.kube/config`; `~` is not expanded, use `pathexpand()`. Set per resource, so it can name a cluster created in the same run.",
				Optional: true,
			},
			"kube_context": schema.StringAttribute{
				MarkdownDescription: "Kubeconfig context to use. Defaults to the current context.",
				Optional:            true,
			},
			"job_id": schema.StringAttribute{
				MarkdownDescription: "ID of a completed static export, usually `docsadmin_static_export.<name>.id`. The recommended source: " +
					"at apply the provider asks the API for a link to this job and writes it into the release; state keeps only the job ID, " +
					"`expires_at` and `version`, never the link. Once a plan runs within `renew_before` of `expires_at` it shows an " +
					"in-place update that puts a fresh link for the same job into the release. Conflicts with `bundle_url` and `bundle_url_wo`.",
				Optional: true,
			},
			"renew_before": schema.StringAttribute{
				MarkdownDescription: "With `job_id`: how long before `expires_at` a plan renews the link, as a duration such as `15m` or `2h`. " +
					"Defaults to `" + DefaultRenewBefore + "`.",
				Optional:   true,
				Validators: []validator.String{durationValidator{}},
			},
			"bundle_url_wo": schema.StringAttribute{
				MarkdownDescription: "Write-only presigned bundle link (Terraform 1.11 and later), for links that come from elsewhere, such as " +
					"the ephemeral `docsadmin_static_export_bundle`. Never stored in state or plan. Terraform cannot compare a " +
					"write-only value, so the release only takes a new one when `bundle_url_wo_version` changes.",
				Optional:   true,
				Sensitive:  true,
				WriteOnly:  true,
				Validators: []validator.String{urlValidator{}},
			},
			"bundle_url_wo_version": schema.StringAttribute{
				MarkdownDescription: "Any value that changes when `bundle_url_wo` should be written again, such as the export's `id`. " +
					"Required with `bundle_url_wo`.",
				Optional: true,
			},
			"bundle_url": schema.StringAttribute{
				MarkdownDescription: "Presigned bundle link, for Terraform before 1.11. It is stored in state (marked sensitive, " +
					"but in plain text in the state file): prefer `job_id`, or `bundle_url_wo`. The chart keeps it in a Secret, " +
					"so renewing the link does not restart pods.",
				Optional:   true,
				Sensitive:  true,
				Validators: []validator.String{urlValidator{}},
			},
			"version": schema.StringAttribute{
				MarkdownDescription: "The bundle's content version, stored as `staticExport.version`. It is the one value in the pod " +
					"template: changing it rolls the pods, so a renewed link or a re-export of unchanged content rolls none. With " +
					"`job_id` it defaults to the job's content version; otherwise it is required, usually " +
					"`docsadmin_static_export.<name>.content_version`.",
				Optional:   true,
				Computed:   true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"expires_at": schema.StringAttribute{
				MarkdownDescription: "When the link stops working (RFC 3339), stored as `staticExport.expiresAt`, which the `rollout` " +
					"command reads to decide when to renew. With `job_id` it is the expiry of the link the provider fetched, read back " +
					"from the release on refresh; otherwise set it with the link, usually `docsadmin_static_export_bundle.<name>.expires_at`.",
				Optional:   true,
				Computed:   true,
				Validators: []validator.String{rfc3339Validator{}},
			},
			"chart": schema.StringAttribute{
				MarkdownDescription: "Chart directory or archive. Required to install; on upgrade it replaces the release's chart " +
					"when its name or version differs. When omitted, upgrades keep the chart the release runs.",
				Optional: true,
			},
			"install": boolArgument("Install the release from `chart` when it does not exist. When `false` (the default), a missing release is an error.", false),
			"atomic":  boolArgument("Wait for the release's resources and roll a failed upgrade back. Defaults to `true`.", true),
			"wait":    boolArgument("Wait for the release's resources to become ready even when `atomic` is `false`. Defaults to `false`.", false),
			"revision": schema.Int64Attribute{
				MarkdownDescription: "Revision of the release that carries the values.",
				Computed:            true,
			},
			"status": schema.StringAttribute{
				MarkdownDescription: "Helm status of that revision, such as `deployed`.",
				Computed:            true,
			},
			"values_digest": schema.StringAttribute{
				MarkdownDescription: "SHA-256 of the release's staticExport values. A change made outside Terraform changes it.",
				Computed:            true,
			},
			"timeouts": timeouts.Attributes(ctx, timeouts.Opts{Create: true, Update: true}),
		},
	}
}

// boolArgument is an optional flag with a default.
func boolArgument(description string, def bool) schema.BoolAttribute {
	return schema.BoolAttribute{MarkdownDescription: description, Optional: true, Computed: true, Default: booldefault.StaticBool(def)}
}

func (r *staticExportRolloutResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configured(req.ProviderData, &resp.Diagnostics)
}

// ValidateConfig checks that exactly one link source is set, with what it
// needs; unknown values count as set, so the check holds before apply.
func (r *staticExportRolloutResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m staticExportRolloutModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var set []string
	for _, s := range []struct {
		name string
		v    types.String
	}{{"job_id", m.JobID}, {"bundle_url_wo", m.BundleURLWO}, {"bundle_url", m.BundleURL}} {
		if !s.v.IsNull() {
			set = append(set, s.name)
		}
	}
	switch {
	case len(set) == 0:
		resp.Diagnostics.AddAttributeError(path.Root("job_id"), "Missing Bundle Link Source",
			"Set job_id (recommended: the provider fetches the link itself and never stores it in state), "+
				"or bundle_url_wo with bundle_url_wo_version, or bundle_url.")
	case len(set) > 1:
		resp.Diagnostics.AddAttributeError(path.Root(set[1]), "Conflicting Bundle Link Sources",
			fmt.Sprintf("%s and %s are both set; set only one source of the bundle link.", set[0], set[1]))
	}
	if !m.BundleURLWO.IsNull() && m.BundleURLWOVer.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root("bundle_url_wo_version"), "Missing Write-Only Version",
			"bundle_url_wo needs bundle_url_wo_version: Terraform never stores a write-only value, so a change of "+
				"bundle_url_wo_version is what tells it to write the link again.")
	}
	if m.BundleURLWO.IsNull() && !m.BundleURLWOVer.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root("bundle_url_wo_version"), "Write-Only Version Without Link",
			"bundle_url_wo_version only applies together with bundle_url_wo.")
	}
	if m.JobID.IsNull() {
		if m.Version.IsNull() {
			resp.Diagnostics.AddAttributeError(path.Root("version"), "Missing Content Version",
				"Without job_id, set version to the bundle's content version, usually docsadmin_static_export.<name>.content_version.")
		}
		if !m.RenewBefore.IsNull() {
			resp.Diagnostics.AddAttributeError(path.Root("renew_before"), "Renewal Needs job_id",
				"renew_before only applies with job_id: the provider renews only links it fetches itself.")
		}
	} else if !m.ExpiresAt.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root("expires_at"), "Expiry Comes From the Link",
			"With job_id the provider fetches the link and records its expiry; remove expires_at.")
	}
}

func (r *staticExportRolloutResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan, config staticExportRolloutModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	timeout, diags := plan.Timeouts.Create(ctx, DefaultRolloutTimeout)
	resp.Diagnostics.Append(diags...)
	if !resp.Diagnostics.HasError() && r.apply(ctx, &plan, config, timeout, &resp.Diagnostics) {
		save(ctx, &plan, &resp.State, resp.Private, &resp.Diagnostics)
	}
}

func (r *staticExportRolloutResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, config staticExportRolloutModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	timeout, diags := plan.Timeouts.Update(ctx, DefaultRolloutTimeout)
	resp.Diagnostics.Append(diags...)
	if !resp.Diagnostics.HasError() && r.apply(ctx, &plan, config, timeout, &resp.Diagnostics) {
		save(ctx, &plan, &resp.State, resp.Private, &resp.Diagnostics)
	}
}

// save writes the applied state and remembers its digest privately, the
// reference that Read's digest is compared with to spot drift. Write-only
// values never reach state: the framework nulls them, and so does save.
func save(ctx context.Context, m *staticExportRolloutModel, st *tfsdk.State, private privateState, diags *diag.Diagnostics) {
	m.BundleURLWO = types.StringNull()
	diags.Append(st.Set(ctx, m)...)
	diags.Append(setAppliedDigest(ctx, private, m.ValuesDigest.ValueString())...)
}

// Read writes what the release carries into state, so a change made with
// helm shows in the next plan as an update back to the configuration. A
// release that is gone leaves state. The link itself goes into state only
// when it came from bundle_url: with job_id or bundle_url_wo, a changed or
// removed link shows through values_digest alone.
func (r *staticExportRolloutResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state staticExportRolloutModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	_, known, diags := appliedDigest(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	roller, ok := newRoller(ctx, state, &resp.Diagnostics)
	if !ok {
		return
	}
	cur, err := roller.Current(ctx, state.Release.ValueString())
	if errors.Is(err, rollout.ErrReleaseNotFound) {
		tflog.Warn(ctx, "release no longer exists; removing it from state", map[string]any{"id": state.ID.ValueString()})
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to Read Release", fmt.Sprintf("Release %q in namespace %q: %s",
			state.Release.ValueString(), state.Namespace.ValueString(), err))
		return
	}
	state.ID = types.StringValue(cur.Namespace + "/" + cur.Release)
	src := state.source()
	if src == sourceURL {
		state.BundleURL = types.StringValue(cur.BundleURL)
	}
	// With job_id, version is the job's content version, which the
	// configuration asks for; a hand-made change shows in the digest.
	if src != sourceJob || state.Version.IsNull() {
		state.Version = types.StringValue(cur.Version)
	}
	if !sameExpiry(state.ExpiresAt, rfc3339(cur.ExpiresAt)) {
		state.ExpiresAt = rfc3339(cur.ExpiresAt)
	}
	state.Revision = types.Int64Value(int64(cur.Revision))
	state.Status = types.StringValue(cur.Status)
	state.ValuesDigest = types.StringValue(cur.ValuesDigest)
	if !known {
		// Imported: adopt what the release carries, unless it serves no
		// bundle, which an apply must switch on.
		d := ""
		if cur.Enabled {
			d = cur.ValuesDigest
		}
		resp.Diagnostics.Append(setAppliedDigest(ctx, resp.Private, d)...)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Delete only forgets: the release belongs to whoever runs the platform,
// and uninstalling it would take the docs offline.
func (r *staticExportRolloutResource) Delete(ctx context.Context, req resource.DeleteRequest, _ *resource.DeleteResponse) {
	var id types.String
	req.State.GetAttribute(ctx, path.Root("id"), &id)
	tflog.Info(ctx, "forgetting release; it is not uninstalled", map[string]any{"id": id.ValueString()})
}

// ImportState takes `<namespace>/<release>`, or `<namespace>/<release>/<job_id>`
// for a release fed through job_id: naming the job keeps the release's link
// out of state from the import on. The cluster comes from KUBECONFIG
// (Terraform does not pass the configuration to an import); the next apply
// adopts kubeconfig_path and kube_context without a new revision.
func (r *staticExportRolloutResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	parts := strings.Split(req.ID, "/")
	if len(parts) < 2 || len(parts) > 3 || slices.Contains(parts, "") {
		resp.Diagnostics.AddError("Invalid Import ID",
			fmt.Sprintf("Expected <namespace>/<release> or <namespace>/<release>/<job_id>, got %q.", req.ID))
		return
	}
	attrs := map[string]any{"id": parts[0] + "/" + parts[1], "namespace": parts[0], "release": parts[1],
		"install": false, "atomic": true, "wait": false}
	if len(parts) == 3 {
		attrs["job_id"] = parts[2]
	}
	for name, v := range attrs {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(name), v)...)
	}
}

type staticExportRolloutModel struct {
	ID             types.String   `tfsdk:"id"`
	Release        types.String   `tfsdk:"release"`
	Namespace      types.String   `tfsdk:"namespace"`
	KubeconfigPath types.String   `tfsdk:"kubeconfig_path"`
	KubeContext    types.String   `tfsdk:"kube_context"`
	BundleURL      types.String   `tfsdk:"bundle_url"`
	Version        types.String   `tfsdk:"version"`
	ExpiresAt      types.String   `tfsdk:"expires_at"`
	Chart          types.String   `tfsdk:"chart"`
	JobID          types.String   `tfsdk:"job_id"`
	RenewBefore    types.String   `tfsdk:"renew_before"`
	BundleURLWO    types.String   `tfsdk:"bundle_url_wo"`
	BundleURLWOVer types.String   `tfsdk:"bundle_url_wo_version"`
	Install        types.Bool     `tfsdk:"install"`
	Atomic         types.Bool     `tfsdk:"atomic"`
	Wait           types.Bool     `tfsdk:"wait"`
	Revision       types.Int64    `tfsdk:"revision"`
	Status         types.String   `tfsdk:"status"`
	ValuesDigest   types.String   `tfsdk:"values_digest"`
	Timeouts       timeouts.Value `tfsdk:"timeouts"`
}

// linkSource is where the link a rollout writes comes from.
type linkSource int

const (
	sourceURL       linkSource = iota // bundle_url, stored in state
	sourceWriteOnly                   // bundle_url_wo, never stored
	sourceJob                         // fetched for job_id at apply, never stored
)

// source tells the link source of a configuration, plan or state. A state
// keeps bundle_url_wo_version but never bundle_url_wo, so the version is
// what marks the write-only source; an import without a job ID is sourceURL.
func (m staticExportRolloutModel) source() linkSource {
	switch {
	case !m.JobID.IsNull():
		return sourceJob
	case !m.BundleURLWOVer.IsNull() || !m.BundleURLWO.IsNull():
		return sourceWriteOnly
	}
	return sourceURL
}
