package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
)

// Drift of the release's objects: refresh compares the objects of the
// deployed revision with the cluster (rollout.Roller.Drift) and writes
// what differs into the computed drift list, one line per object and
// field. The plan always wants that list empty, so any line shows in the
// diff, naming object and field, as an in-place update, and the apply
// makes a new revision, which puts the objects back.

// driftAttributes are the schema of drift and drift_ignore.
func driftAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"drift": schema.ListAttribute{
			MarkdownDescription: "How the release's objects differ from what the release says, read on refresh: one line per " +
				"object and field, such as `Deployment/docs-docsadmin-self-hosted: spec.replicas is 0, the release says 1` or " +
				"`Secret/docs-docsadmin-self-hosted-bundle is missing (the release has it)` (Secret data is never shown). " +
				"Empty when they match. A plan that finds any shows them going away in an in-place update, whose apply " +
				"makes a new revision so that Helm puts the objects back.",
			ElementType: types.StringType,
			Computed:    true,
		},
		"drift_ignore": schema.ListAttribute{
			MarkdownDescription: "Fields another controller owns, left out of `drift`: `Kind:field` or `Kind/name:field`, such as " +
				"`Deployment:spec.replicas` under a HorizontalPodAutoscaler.",
			ElementType: types.StringType,
			Optional:    true,
			Validators:  []validator.List{ignoreRulesValidator{}},
		},
	}
}

// noDrift is the drift list of a release whose objects match it.
func noDrift() types.List { return types.ListValueMust(types.StringType, []attr.Value{}) }

// hasDrift reports whether m's drift lists anything.
func hasDrift(m staticExportRolloutModel) bool {
	return !m.Drift.IsNull() && !m.Drift.IsUnknown() && len(m.Drift.Elements()) > 0
}

// readDrift writes the release's object drift into m. A check that fails
// (say the credentials may not read Deployments) is logged and leaves the
// previous value: drift is a report, and refresh must not fail for it.
func readDrift(ctx context.Context, roller *rollout.Roller, m *staticExportRolloutModel) {
	var ignore []string
	if !m.DriftIgnore.IsNull() && !m.DriftIgnore.IsUnknown() {
		if d := m.DriftIgnore.ElementsAs(ctx, &ignore, false); d.HasError() {
			return
		}
	}
	found, err := roller.Drift(ctx, m.Release.ValueString(), ignore)
	if err != nil {
		tflog.Warn(ctx, "cannot compare the release's objects with the cluster", map[string]any{"id": m.ID.ValueString(), "error": err.Error()})
		return
	}
	lines := make([]attr.Value, len(found))
	for i, d := range found {
		lines[i] = types.StringValue(d.String())
	}
	m.Drift = types.ListValueMust(types.StringType, lines)
	if len(found) > 0 {
		tflog.Info(ctx, "release objects differ from the release; planning a correction", map[string]any{"id": m.ID.ValueString(), "drift": len(found)})
	}
}

// driftNow reports whether the release's objects differ from it at apply
// time; the plan may have seen it in a refresh (state's drift) or, with
// write-only credentials, at plan time, so it is looked at again here.
func driftNow(ctx context.Context, roller *rollout.Roller, m staticExportRolloutModel) bool {
	probe := m
	probe.Drift = types.ListNull(types.StringType)
	readDrift(ctx, roller, &probe)
	return hasDrift(probe)
}

// planDrift plans the drift list: empty when state lists drift (the
// correction the apply makes), else as it is, so a state written before
// the attribute existed (null) plans no change.
func planDrift(_ context.Context, plan *staticExportRolloutModel, state staticExportRolloutModel) {
	if hasDrift(state) {
		plan.Drift = noDrift()
		return
	}
	plan.Drift = state.Drift
}

// ignoreRulesValidator checks drift_ignore's rules.
type ignoreRulesValidator struct{}

func (ignoreRulesValidator) Description(context.Context) string {
	return "each rule is Kind:field or Kind/name:field"
}

func (v ignoreRulesValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (ignoreRulesValidator) ValidateList(_ context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	for i, e := range req.ConfigValue.Elements() {
		s, ok := e.(types.String)
		if !ok || s.IsUnknown() || s.IsNull() {
			continue
		}
		if err := rollout.CheckIgnoreRule(s.ValueString()); err != nil {
			resp.Diagnostics.Append(diag.NewAttributeErrorDiagnostic(req.Path.AtListIndex(i), "Invalid Drift Ignore Rule", err.Error()))
		}
	}
}
