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
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/kubeblock"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/providerdata"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/tfvalue"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
)

var (
	_ resource.Resource                   = &staticExportRolloutResource{}
	_ resource.ResourceWithModifyPlan     = &staticExportRolloutResource{}
	_ resource.ResourceWithImportState    = &staticExportRolloutResource{}
	_ resource.ResourceWithConfigure      = &staticExportRolloutResource{}
	_ resource.ResourceWithValidateConfig = &staticExportRolloutResource{}
	_ resource.ResourceWithIdentity       = &staticExportRolloutResource{}
)

// DefaultRolloutTimeout bounds one create or update of a release.
const DefaultRolloutTimeout = 10 * time.Minute

// appliedDigestKey names the private state entry holding the values digest
// this resource last wrote. The digest in state is what the cluster has;
// when the two differ someone changed the staticExport table by hand (for
// example set enabled=false, which no argument shows).
const appliedDigestKey = "applied_digest"

// writeOnlyCredsKey names the private state flag set when the kubernetes
// block passed its credentials write-only (see kubeblock.WriteOnlyCredentials).
const writeOnlyCredsKey = "kube_write_only"

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

func (r *staticExportRolloutResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = providerdata.Configured(req.ProviderData, &resp.Diagnostics)
}

func (r *staticExportRolloutResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan, config staticExportRolloutModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	timeout, diags := plan.Timeouts.Create(ctx, DefaultRolloutTimeout)
	resp.Diagnostics.Append(diags...)
	if !resp.Diagnostics.HasError() && r.apply(ctx, &plan, config, nil, timeout, resp.Private, &resp.Diagnostics) {
		save(ctx, &plan, &resp.State, resp.Identity, resp.Private, &resp.Diagnostics)
		resp.Diagnostics.Append(setFlag(ctx, resp.Private, writeOnlyCredsKey, kubeblock.WriteOnlyCredentials(ctx, config.Kubernetes))...)
	}
}

func (r *staticExportRolloutResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, config, prior staticExportRolloutModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	timeout, diags := plan.Timeouts.Update(ctx, DefaultRolloutTimeout)
	resp.Diagnostics.Append(diags...)
	if !resp.Diagnostics.HasError() && r.apply(ctx, &plan, config, &prior, timeout, resp.Private, &resp.Diagnostics) {
		save(ctx, &plan, &resp.State, resp.Identity, resp.Private, &resp.Diagnostics)
		resp.Diagnostics.Append(setFlag(ctx, resp.Private, writeOnlyCredsKey, kubeblock.WriteOnlyCredentials(ctx, config.Kubernetes))...)
	}
}

// save writes the applied state and remembers its digest privately, the
// reference that Read's digest is compared with to spot drift. Write-only
// values never reach state: the framework nulls them, and so does save.
func save(ctx context.Context, m *staticExportRolloutModel, st *tfsdk.State, id *tfsdk.ResourceIdentity,
	private privateState, diags *diag.Diagnostics) {
	m.BundleURLWO = types.StringNull()
	diags.Append(st.Set(ctx, m)...)
	setIdentity(ctx, id, m.identity(), diags)
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
	// Set first: the framework wants an identity even from a Read that
	// removes the resource (see staticExportResource.Read).
	setIdentity(ctx, resp.Identity, state.identity(), &resp.Diagnostics)
	_, known, diags := appliedDigest(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	if woCreds, d := flag(ctx, req.Private, writeOnlyCredsKey); woCreds || d.HasError() {
		// State holds no credentials to reach the cluster with; ModifyPlan,
		// which has the configuration, reads the release instead.
		resp.Diagnostics.Append(d...)
		tflog.Debug(ctx, "write-only cluster credentials: the release is read at plan time", map[string]any{"id": state.ID.ValueString()})
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
	if !tfvalue.SameExpiry(state.ExpiresAt, tfvalue.RFC3339(cur.ExpiresAt)) {
		state.ExpiresAt = tfvalue.RFC3339(cur.ExpiresAt)
	}
	state.Revision = types.Int64Value(int64(cur.Revision))
	state.Status = types.StringValue(cur.Status)
	state.ValuesDigest = types.StringValue(cur.ValuesDigest)
	readDrift(ctx, roller, &state)
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
// out of state from the import on. An import block may give the identity
// (namespace and release) instead; job_id then comes from the
// configuration on the first apply. The cluster comes from KUBECONFIG
// (Terraform does not pass the configuration to an import); the next apply
// adopts kubeconfig_path and kube_context without a new revision.
func (r *staticExportRolloutResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	var parts []string
	if req.ID == "" && req.Identity != nil {
		var id rolloutIdentity
		resp.Diagnostics.Append(req.Identity.Get(ctx, &id)...)
		if resp.Diagnostics.HasError() {
			return
		}
		parts = []string{id.Namespace.ValueString(), id.Release.ValueString()}
		for i, p := range []path.Path{path.Root("namespace"), path.Root("release")} {
			if parts[i] == "" {
				resp.Diagnostics.AddAttributeError(p, "Invalid Import Identity", "The identity needs a namespace and a release.")
			}
		}
		if resp.Diagnostics.HasError() {
			return
		}
	} else {
		parts = strings.Split(req.ID, "/")
		if len(parts) < 2 || len(parts) > 3 || slices.Contains(parts, "") {
			resp.Diagnostics.AddError("Invalid Import ID",
				fmt.Sprintf("Expected <namespace>/<release> or <namespace>/<release>/<job_id>, got %q.", req.ID))
			return
		}
	}
	attrs := map[string]any{"id": parts[0] + "/" + parts[1], "namespace": parts[0], "release": parts[1],
		"install": false, "atomic": true, "wait": false,
		"plain_http": false, "create_namespace": false, "recover_pending": false}
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
	ChartRepo      types.String   `tfsdk:"chart_repository"`
	ChartVersion   types.String   `tfsdk:"chart_version"`
	PlainHTTP      types.Bool     `tfsdk:"plain_http"`
	CreateNS       types.Bool     `tfsdk:"create_namespace"`
	RecoverPending types.Bool     `tfsdk:"recover_pending"`
	Kubernetes     types.Object   `tfsdk:"kubernetes"`
	Revision       types.Int64    `tfsdk:"revision"`
	Status         types.String   `tfsdk:"status"`
	ValuesDigest   types.String   `tfsdk:"values_digest"`
	Drift          types.List     `tfsdk:"drift"`
	DriftIgnore    types.List     `tfsdk:"drift_ignore"`
	Timeouts       timeouts.Value `tfsdk:"timeouts"`
}

// identity is the rollout's resource identity.
func (m staticExportRolloutModel) identity() rolloutIdentity {
	return rolloutIdentity{Namespace: m.Namespace, Release: m.Release}
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
