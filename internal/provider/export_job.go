package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/client"
)

// jobIDPath is the attribute that names an export job in the rollout and
// the ephemeral bundle, where a job without a bundle is the user's input
// at fault.
var jobIDPath = path.Root("job_id")

// completedJob reads a job that must have completed to have a bundle, and
// turns every other outcome (unknown, failed, still running) into an
// error on job_id that says what to do.
func completedJob(ctx context.Context, c *client.Client, jobID string, diags *diag.Diagnostics) (api.ExportJob, bool) {
	job, err := c.GetExport(ctx, jobID)
	switch {
	case errors.Is(err, client.ErrNotFound):
		diags.AddAttributeError(jobIDPath, "Static Export Not Found", fmt.Sprintf("No static export job %q exists "+
			"(jobs are kept for a limited time; export again with docsadmin_static_export): %s", jobID, err))
	case err != nil:
		diags.AddError("Unable to Read Static Export", err.Error())
	case job.Status == api.ExportFailed:
		diags.AddAttributeError(jobIDPath, "Static Export Failed", fmt.Sprintf("Static export job %q failed, so it has "+
			"no bundle: %s. Start a new export.", jobID, job.Error))
	case job.Status != api.ExportCompleted:
		diags.AddAttributeError(jobIDPath, "Static Export Not Completed", fmt.Sprintf("Static export job %q is %s; only a "+
			"completed export has a bundle. Reference the job through docsadmin_static_export, whose creation waits for "+
			"completion, or the docsadmin_static_export data source with wait = true.", jobID, job.Status))
	default:
		return job, true
	}
	return job, false
}

// addBundleError explains a failed bundle request. A conflict means the job
// has no bundle (yet); completedJob tells which case it is.
func addBundleError(ctx context.Context, pd *providerData, jobID string, err error, diags *diag.Diagnostics) {
	var apiErr *client.APIError
	if errors.Is(err, client.ErrNotFound) || errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusConflict {
		var found diag.Diagnostics
		if _, ok := completedJob(ctx, pd.Client, jobID, &found); !ok {
			diags.Append(found...)
			return
		}
	}
	diags.AddError("Unable to Generate Bundle Link", err.Error())
}
