package provider

import (
	"context"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/kubeblock"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/tfvalue"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// ModifyPlan keeps revision, status and values_digest from state when the
// apply would leave the release as it is, and marks them unknown when the
// values change or the release drifted. Drift that no argument shows (say
// `--set staticExport.enabled=false`) thus still plans a correction. With
// job_id it also decides renewal by the server's clock, as the bundle
// resource does: a due link plans expires_at unknown, an in-place update.
func (r *staticExportRolloutResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy only forgets
	}
	var plan, config staticExportRolloutModel
	var state *staticExportRolloutModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if !req.State.Raw.IsNull() {
		state = new(staticExportRolloutModel)
		resp.Diagnostics.Append(req.State.Get(ctx, state)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	if plan.source() == sourceJob {
		r.planJobLink(ctx, &plan, config, state, &resp.Diagnostics)
		if lifetime, ok := linkLifetime(ctx, req.Private); ok && state != nil {
			warnRenewBefore(types.StringValue(renewBefore(plan)), lifetime, &resp.Diagnostics)
		}
	} else if config.ExpiresAt.IsNull() {
		plan.ExpiresAt = types.StringNull() // computed only for job_id
	}
	if state != nil && kubeblock.WriteOnlyCredentials(ctx, config.Kubernetes) {
		readAtPlan(ctx, config, state)
	}
	if state != nil {
		planDrift(ctx, &plan, *state)
		r.planRevision(ctx, &plan, *state, req.Private, &resp.Diagnostics)
	} else {
		plan.Drift = noDrift()
	}
	if !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
	}
}

// planRevision decides whether the update makes a new revision.
func (r *staticExportRolloutResource) planRevision(ctx context.Context, plan *staticExportRolloutModel, state staticExportRolloutModel,
	private privateState, diags *diag.Diagnostics) {
	applied, known, d := appliedDigest(ctx, private)
	diags.Append(d...)
	drift := known && applied != state.ValuesDigest.ValueString()
	if drift {
		tflog.Info(ctx, "release values changed outside Terraform; planning a correction",
			map[string]any{"id": state.ID.ValueString(), "revision": state.Revision.ValueInt64()})
		if plan.source() == sourceJob {
			// The link the provider wrote may be gone, and state does not
			// hold it: the correction fetches a new one.
			plan.ExpiresAt = types.StringUnknown()
		}
	}
	changes := !plan.BundleURL.Equal(state.BundleURL) || !plan.BundleURLWOVer.Equal(state.BundleURLWOVer) ||
		!plan.JobID.Equal(state.JobID) || !plan.Version.Equal(state.Version) ||
		!tfvalue.SameExpiry(plan.ExpiresAt, state.ExpiresAt) || !plan.Chart.Equal(state.Chart) ||
		!plan.KubeconfigPath.Equal(state.KubeconfigPath) || !plan.KubeContext.Equal(state.KubeContext) ||
		!plan.ChartRepo.Equal(state.ChartRepo) || !plan.ChartVersion.Equal(state.ChartVersion) ||
		!plan.Kubernetes.Equal(state.Kubernetes)
	if changes || drift || hasDrift(state) || state.Status.ValueString() != "deployed" {
		plan.Revision, plan.Status, plan.ValuesDigest = types.Int64Unknown(), types.StringUnknown(), types.StringUnknown()
	} else {
		plan.Revision, plan.Status, plan.ValuesDigest = state.Revision, state.Status, state.ValuesDigest
	}
}

// planJobLink plans expires_at and version for job_id. The same job keeps
// both until its link is due; a new job (or a first apply) leaves the
// expiry unknown and checks the job now, so a failed or unknown job is an
// error at plan time whenever its ID is known then.
func (r *staticExportRolloutResource) planJobLink(ctx context.Context, plan *staticExportRolloutModel, config staticExportRolloutModel,
	state *staticExportRolloutModel, diags *diag.Diagnostics) {
	if state != nil && state.source() == sourceJob && !plan.JobID.IsUnknown() && plan.JobID.Equal(state.JobID) {
		if config.Version.IsNull() {
			plan.Version = state.Version
		}
		plan.ExpiresAt = state.ExpiresAt
		if r.data == nil || plan.RenewBefore.IsUnknown() {
			return // the provider is not configured yet; the next plan decides
		}
		due, err := renewalDue(linkNow(ctx, r.data), state.ExpiresAt, renewBefore(*plan))
		if err != nil {
			diags.AddAttributeError(path.Root("renew_before"), "Unable to Decide Bundle Renewal", err.Error())
			return
		}
		if due {
			tflog.Info(ctx, "the release's bundle link is within its renewal window; planning a new link",
				map[string]any{"job_id": plan.JobID.ValueString(), "expires_at": state.ExpiresAt.ValueString()})
			plan.ExpiresAt = types.StringUnknown()
			completedJob(ctx, r.data.Client, plan.JobID.ValueString(), diags)
		}
		return
	}
	plan.ExpiresAt = types.StringUnknown()
	if config.Version.IsNull() {
		plan.Version = types.StringUnknown()
	}
	if plan.JobID.IsUnknown() || r.data == nil {
		return
	}
	job, ok := completedJob(ctx, r.data.Client, plan.JobID.ValueString(), diags)
	if ok && config.Version.IsNull() && job.Version != "" {
		plan.Version = types.StringValue(job.Version)
	}
}

// renewBefore is the configured renewal window, or the default.
func renewBefore(m staticExportRolloutModel) string {
	if m.RenewBefore.IsNull() {
		return DefaultRenewBefore
	}
	return m.RenewBefore.ValueString()
}

// readAtPlan does refresh's job for a rollout whose cluster credentials
// are write-only, which refresh does not get: it reads the release with
// the configuration's credentials into state's computed values, so that
// planRevision sees a change made outside Terraform. A release that is
// gone is left to the apply (which installs it with install = true, and
// says it is missing otherwise); a cluster that cannot be reached, or
// unknown credentials, skip the check.
func readAtPlan(ctx context.Context, config staticExportRolloutModel, state *staticExportRolloutModel) {
	reach := *state
	reach.Kubernetes = config.Kubernetes
	var quiet diag.Diagnostics
	roller, ok := newRoller(ctx, reach, &quiet)
	if !ok {
		return
	}
	cur, err := roller.Current(ctx, state.Release.ValueString())
	if err != nil {
		tflog.Warn(ctx, "cannot read the release at plan time", map[string]any{"id": state.ID.ValueString(), "error": err.Error()})
		return
	}
	state.Revision = types.Int64Value(int64(cur.Revision))
	state.Status = types.StringValue(cur.Status)
	state.ValuesDigest = types.StringValue(cur.ValuesDigest)
	readDrift(ctx, roller, state)
}
