package provider

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

var _ resource.ResourceWithModifyPlan = &staticExportResource{}

// ModifyPlan checks, on the first plan after an import, that the
// configuration describes the job that was imported. That plan adopts the
// configured domain, version and paths instead of exporting again
// (replaceStringUnlessImported), so a configuration that names another
// domain would otherwise be written into state over a job that exported
// something else.
func (r *staticExportResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() || r.data == nil || !importedPrior(ctx, req.State) {
		return
	}
	var plan staticExportModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || plan.Domain.IsUnknown() || plan.Version.IsUnknown() || plan.Paths.IsUnknown() {
		return // an unknown value is checked by the plan that knows it
	}
	var paths []string
	resp.Diagnostics.Append(plan.Paths.ElementsAs(ctx, &paths, false)...)
	if resp.Diagnostics.HasError() {
		return
	}
	r.checkImported(ctx, plan.ID.ValueString(), api.StartExportRequest{Domain: plan.Domain.ValueString(),
		Version: plan.Version.ValueString(), Paths: paths}, !plan.Paths.IsNull(), &resp.Diagnostics)
}

// checkImported compares what the imported job exported, as its bundle's
// manifest records it (the job's status does not say), with the
// configuration, and reports each contradiction on its attribute. A job
// that has no bundle (not completed) or whose manifest cannot be read is
// not checked, with a warning: the import itself is sound.
func (r *staticExportResource) checkImported(ctx context.Context, jobID string, cfg api.StartExportRequest, pathsSet bool, diags *diag.Diagnostics) {
	m, err := r.data.Client.BundleManifest(ctx, jobID, &http.Client{Timeout: manifestTimeout})
	if err != nil {
		diags.AddWarning("Imported Static Export Not Checked", "The configuration could not be compared with job "+jobID+
			", so its domain, version and paths are adopted as they are: "+err.Error())
		return
	}
	tflog.Debug(ctx, "checking the configuration against the imported job", map[string]any{"job_id": jobID})
	contradicts := func(attr, detail string) {
		diags.AddAttributeError(path.Root(attr), "Configuration Contradicts the Imported Job",
			"Job "+jobID+" "+detail+". Correct the configuration, or remove the resource from state and let Terraform export anew.")
	}
	if want, _ := api.CheckDomain(cfg.Domain); want != m.Domain {
		contradicts("domain", fmt.Sprintf("exported domain %q, the configuration says %q", m.Domain, cfg.Domain))
	}
	if cfg.Version != "" && cfg.Version != m.Label {
		contradicts("version", fmt.Sprintf("exported version %q, the configuration says %q", m.Label, cfg.Version))
	}
	if !pathsSet {
		return
	}
	files := make(map[string]bool, len(m.Files))
	for _, f := range m.Files {
		files[f.Path] = true
	}
	pages := map[string]bool{}
	var missing []string
	for _, p := range cfg.Paths {
		key := pageKey(p)
		pages[key] = true
		if !files[key+".html"] {
			missing = append(missing, p)
		}
	}
	switch {
	case len(missing) > 0:
		contradicts("paths", fmt.Sprintf("did not export %s, which the configuration lists", strings.Join(missing, ", ")))
	case len(pages) != m.PageCount:
		contradicts("paths", fmt.Sprintf("exported %d pages, the configuration lists %d", m.PageCount, len(pages)))
	}
}

// pageKey is a page path as the exporter names its file (without
// ".html"): no leading or trailing slash, no source extension.
func pageKey(p string) string {
	p = strings.Trim(p, "/")
	for _, ext := range []string{".mdx", ".md"} {
		p = strings.TrimSuffix(p, ext)
	}
	return p
}
