package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/kubeblock"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/tfvalue"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

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
	validateChart(m, &resp.Diagnostics)
	kubeblock.Validate(ctx, m.Kubernetes, m.KubeconfigPath, m.KubeContext, &resp.Diagnostics)
}

// validateChart checks that the chart settings name one kind of chart
// source. A chart not known yet is taken to be whatever the others need.
func validateChart(m staticExportRolloutModel, diags *diag.Diagnostics) {
	oci := tfvalue.Known(m.Chart) && registryRef(m.Chart.ValueString())
	local := tfvalue.Known(m.Chart) && !oci
	if !m.ChartRepo.IsNull() {
		switch {
		case m.Chart.IsNull():
			diags.AddAttributeError(path.Root("chart"), "Missing Chart Name",
				"chart_repository needs chart, the name of the chart in that repository.")
		case oci:
			diags.AddAttributeError(path.Root("chart_repository"), "Conflicting Chart Sources",
				"An oci:// chart is a complete reference and takes no chart_repository; remove one of them.")
		}
	}
	if !m.ChartVersion.IsNull() && m.ChartRepo.IsNull() && (local || m.Chart.IsNull()) {
		diags.AddAttributeError(path.Root("chart_version"), "Chart Version Without Repository",
			"chart_version selects a chart from chart_repository or an oci:// chart; a chart directory or archive has "+
				"the version it has.")
	}
	if m.PlainHTTP.ValueBool() && (local || m.Chart.IsNull() || !m.ChartRepo.IsNull()) {
		diags.AddAttributeError(path.Root("plain_http"), "Plain HTTP Needs an OCI Chart",
			"plain_http only applies to an oci:// chart; a chart repository's URL says its own scheme.")
	}
	if m.CreateNS.ValueBool() && !m.Install.IsUnknown() && !m.Install.ValueBool() {
		diags.AddAttributeError(path.Root("create_namespace"), "Create Namespace Needs install",
			"create_namespace only applies when the release is installed: set install = true, or remove create_namespace.")
	}
}

// registryRef reports whether a chart is an OCI reference, as Helm's
// registry.IsOCI tells (the provider does not import Helm).
func registryRef(chart string) bool { return strings.HasPrefix(chart, "oci://") }
