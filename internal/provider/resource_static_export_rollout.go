package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
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
	_ resource.Resource                = &staticExportRolloutResource{}
	_ resource.ResourceWithModifyPlan  = &staticExportRolloutResource{}
	_ resource.ResourceWithImportState = &staticExportRolloutResource{}
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

// staticExportRolloutResource needs no provider data: the cluster is chosen
// per resource, so that a cluster created in the same run can be used.
type staticExportRolloutResource struct{}

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
			"bundle_url": schema.StringAttribute{
				MarkdownDescription: "Presigned bundle link, usually `docsadmin_static_export_bundle.<name>.bundle_url`. " +
					"The chart keeps it in a Secret, so renewing the link does not restart pods.",
				Required:   true,
				Sensitive:  true,
				Validators: []validator.String{urlValidator{}},
			},
			"version": schema.StringAttribute{
				MarkdownDescription: "The bundle's content version, stored as `staticExport.version`: usually " +
					"`docsadmin_static_export.<name>.content_version`. It is the one value in the pod template: changing it rolls the pods, " +
					"so a renewed link or a re-export of unchanged content rolls none.",
				Required:   true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"expires_at": schema.StringAttribute{
				MarkdownDescription: "When `bundle_url` stops working (RFC 3339), usually `docsadmin_static_export_bundle.<name>.expires_at`. " +
					"Stored as `staticExport.expiresAt`, which the `rollout` command reads to decide when to renew.",
				Optional:   true,
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

// ModifyPlan keeps revision, status and values_digest from state when the
// apply would leave the release as it is, and marks them unknown when the
// values change or the release drifted. Drift that no argument shows (say
// `--set staticExport.enabled=false`) thus still plans a correction.
func (r *staticExportRolloutResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	var state, plan staticExportRolloutModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	applied, known, diags := appliedDigest(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	changes := !plan.BundleURL.Equal(state.BundleURL) || !plan.Version.Equal(state.Version) ||
		!sameExpiry(plan.ExpiresAt, state.ExpiresAt) || !plan.Chart.Equal(state.Chart) ||
		!plan.KubeconfigPath.Equal(state.KubeconfigPath) || !plan.KubeContext.Equal(state.KubeContext)
	drift := known && applied != state.ValuesDigest.ValueString()
	if changes || drift || state.Status.ValueString() != "deployed" {
		if drift {
			tflog.Info(ctx, "release values changed outside Terraform; planning a correction",
				map[string]any{"id": state.ID.ValueString(), "revision": state.Revision.ValueInt64()})
		}
		plan.Revision, plan.Status, plan.ValuesDigest = types.Int64Unknown(), types.StringUnknown(), types.StringUnknown()
	} else {
		plan.Revision, plan.Status, plan.ValuesDigest = state.Revision, state.Status, state.ValuesDigest
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

func (r *staticExportRolloutResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan staticExportRolloutModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	timeout, diags := plan.Timeouts.Create(ctx, DefaultRolloutTimeout)
	resp.Diagnostics.Append(diags...)
	if !resp.Diagnostics.HasError() && apply(ctx, &plan, timeout, &resp.Diagnostics) {
		save(ctx, &plan, &resp.State, resp.Private, &resp.Diagnostics)
	}
}

func (r *staticExportRolloutResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan staticExportRolloutModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	timeout, diags := plan.Timeouts.Update(ctx, DefaultRolloutTimeout)
	resp.Diagnostics.Append(diags...)
	if !resp.Diagnostics.HasError() && apply(ctx, &plan, timeout, &resp.Diagnostics) {
		save(ctx, &plan, &resp.State, resp.Private, &resp.Diagnostics)
	}
}

// save writes the applied state and remembers its digest privately, the
// reference that Read's digest is compared with to spot drift.
func save(ctx context.Context, m *staticExportRolloutModel, st *tfsdk.State, private privateState, diags *diag.Diagnostics) {
	diags.Append(st.Set(ctx, m)...)
	diags.Append(setAppliedDigest(ctx, private, m.ValuesDigest.ValueString())...)
}

// apply upgrades (or installs) the release to carry m's values and records
// the resulting revision in m. Apply creates no revision when the release
// already carries them, so an update that changed only, say, wait is free.
func apply(ctx context.Context, m *staticExportRolloutModel, timeout time.Duration, diags *diag.Diagnostics) bool {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	roller, ok := newRoller(ctx, *m, diags)
	if !ok {
		return false
	}
	var expiry time.Time
	if s := m.ExpiresAt.ValueString(); s != "" {
		expiry, _ = time.Parse(time.RFC3339, s) // the validator already parsed it
	}
	res, err := roller.Apply(ctx, rollout.Request{
		Release: m.Release.ValueString(), Chart: m.Chart.ValueString(), Install: m.Install.ValueBool(),
		NonAtomic: !m.Atomic.ValueBool(), Wait: m.Wait.ValueBool(), Timeout: timeout,
		BundleURL: m.BundleURL.ValueString(), Version: m.Version.ValueString(), ExpiresAt: expiry,
	})
	if err != nil {
		addApplyError(diags, *m, timeout, err)
		return false
	}
	m.ID = types.StringValue(m.Namespace.ValueString() + "/" + m.Release.ValueString())
	m.Revision = types.Int64Value(int64(res.Revision))
	m.Status = types.StringValue(res.Status)
	m.ValuesDigest = types.StringValue(res.ValuesDigest)
	tflog.Info(ctx, "release carries the static export values", map[string]any{"id": m.ID.ValueString(),
		"revision": res.Revision, "changed": res.Changed, "installed": res.Installed, "version": m.Version.ValueString()})
	return true
}

// addApplyError turns a rollout error into a diagnostic that says what to
// do. The error text never holds the link: rollout redacts it.
func addApplyError(diags *diag.Diagnostics, m staticExportRolloutModel, timeout time.Duration, err error) {
	release, ns := m.Release.ValueString(), m.Namespace.ValueString()
	var pending *rollout.PendingError
	switch {
	case errors.As(err, &pending):
		diags.AddError("Helm Release Has a Pending Operation", err.Error())
	case errors.Is(err, rollout.ErrReleaseNotFound) && m.Install.ValueBool() && m.Chart.ValueString() == "":
		diags.AddAttributeError(path.Root("chart"), "Chart Required to Install Release",
			fmt.Sprintf("Release %q does not exist in namespace %q and install = true, but no chart is set: %s", release, ns, err))
	case errors.Is(err, rollout.ErrReleaseNotFound):
		diags.AddAttributeError(path.Root("release"), "Helm Release Not Found",
			fmt.Sprintf("Release %q does not exist in namespace %q of the configured cluster. Set install = true and chart "+
				"to install it, or check release, namespace, kubeconfig_path and kube_context: %s", release, ns, err))
	case errors.Is(err, context.DeadlineExceeded):
		diags.AddError("Timed Out Upgrading Release", fmt.Sprintf("Release %q in namespace %q was not done within %s "+
			"(timeouts): %s", release, ns, timeout, err))
	default:
		diags.AddError("Unable to Upgrade Release", fmt.Sprintf("Release %q in namespace %q: %s", release, ns, err))
	}
}

// Read writes what the release carries into state, so a change made with
// helm shows in the next plan as an update back to the configuration. A
// release that is gone leaves state.
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
	state.BundleURL = types.StringValue(cur.BundleURL)
	state.Version = types.StringValue(cur.Version)
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

// ImportState takes `<namespace>/<release>`. The cluster comes from
// KUBECONFIG (Terraform does not pass the configuration to an import); the
// next apply adopts kubeconfig_path and kube_context without a new revision.
func (r *staticExportRolloutResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	ns, release, ok := strings.Cut(req.ID, "/")
	if !ok || ns == "" || release == "" || strings.Contains(release, "/") {
		resp.Diagnostics.AddError("Invalid Import ID", fmt.Sprintf("Expected <namespace>/<release>, got %q.", req.ID))
		return
	}
	for name, v := range map[string]any{"id": req.ID, "namespace": ns, "release": release,
		"install": false, "atomic": true, "wait": false} {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(name), v)...)
	}
}

// newRoller connects to the resource's cluster. The Roller logs through
// tflog with ctx, so it is made per call rather than kept.
func newRoller(ctx context.Context, m staticExportRolloutModel, diags *diag.Diagnostics) (*rollout.Roller, bool) {
	roller, err := rollout.New(rollout.Config{Kubeconfig: m.KubeconfigPath.ValueString(),
		Context: m.KubeContext.ValueString(), Namespace: m.Namespace.ValueString()}, rolloutLogger(ctx))
	if err != nil {
		diags.AddAttributeError(path.Root("kubeconfig_path"), "Unable to Configure Kubernetes Client", err.Error())
		return nil, false
	}
	return roller, true
}

// privateState is the framework's private state as the digest helpers
// use it (its type lives in an internal package).
type privateState interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// appliedDigest returns the digest recorded by the last create or update,
// and whether there is one (there is none right after an import).
func appliedDigest(ctx context.Context, p privateState) (string, bool, diag.Diagnostics) {
	raw, diags := p.GetKey(ctx, appliedDigestKey)
	var d string
	known := raw != nil && json.Unmarshal(raw, &d) == nil
	return d, known, diags
}

// setAppliedDigest records d; private state values must be JSON.
func setAppliedDigest(ctx context.Context, p privateState, d string) diag.Diagnostics {
	raw, _ := json.Marshal(d) // a string always encodes
	return p.SetKey(ctx, appliedDigestKey, raw)
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
	Install        types.Bool     `tfsdk:"install"`
	Atomic         types.Bool     `tfsdk:"atomic"`
	Wait           types.Bool     `tfsdk:"wait"`
	Revision       types.Int64    `tfsdk:"revision"`
	Status         types.String   `tfsdk:"status"`
	ValuesDigest   types.String   `tfsdk:"values_digest"`
	Timeouts       timeouts.Value `tfsdk:"timeouts"`
}
