package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/client"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/providerdata"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/tfvalue"
)

var (
	_ action.Action              = &documentationUpdateAction{}
	_ action.ActionWithConfigure = &documentationUpdateAction{}
)

// DefaultDocumentationUpdateTimeout bounds the wait for an update that
// does not set timeout.
const DefaultDocumentationUpdateTimeout = 20 * time.Minute

// NewDocumentationUpdateAction returns the docsadmin_documentation_update
// action.
func NewDocumentationUpdateAction() action.Action { return &documentationUpdateAction{} }

// documentationUpdateAction triggers a documentation update: a deployment
// of the project from its branch, done once, with nothing to keep or
// destroy, so an action rather than a resource.
type documentationUpdateAction struct{ data *providerdata.Data }

func (a *documentationUpdateAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_documentation_update"
}

func (a *documentationUpdateAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Triggers a documentation update: the platform redeploys the project's documentation from " +
			"its deployment branch. By default the action waits until the update ends and reports its status changes " +
			"and log lines as progress; an update that ends in `failure` fails the action with the platform's summary. " +
			"Needs Terraform 1.14 or later (`terraform apply -invoke`, or `action_trigger` in a resource's `lifecycle`).",
		Attributes: map[string]schema.Attribute{
			"project_id": schema.StringAttribute{
				MarkdownDescription: "Project to update. Defaults to the provider's `project_id`.",
				Optional:            true,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"wait": schema.BoolAttribute{
				MarkdownDescription: "Poll until the update is `success` or `failure`. Defaults to `true`; with `false` " +
					"the action returns once the update is queued, and prints its status id.",
				Optional: true,
			},
			"timeout": tfvalue.ActionTimeoutAttribute("With `wait`: how long to wait", DefaultDocumentationUpdateTimeout),
		},
	}
}

func (a *documentationUpdateAction) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.data = providerdata.Configured(req.ProviderData, &resp.Diagnostics)
}

func (a *documentationUpdateAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m documentationUpdateActionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || a.data == nil {
		return
	}
	project, ok := projectOrDefault(m.ProjectID, a.data, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout := tfvalue.ActionTimeout(m.Timeout, DefaultDocumentationUpdateTimeout)

	id, err := a.data.Client.TriggerUpdate(ctx, project)
	if errors.Is(err, client.ErrNotFound) {
		projectNotFound(&resp.Diagnostics, project, err)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to Trigger Documentation Update", err.Error())
		return
	}
	tfvalue.Progress(ctx, resp.SendProgress, "documentation update %s queued for project %s", id, project)
	if !m.Wait.IsNull() && !m.Wait.ValueBool() {
		return
	}

	waitCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	last, logged := api.UpdateQueued, 0
	st, err := a.data.Client.WaitUpdate(waitCtx, id, func(s api.UpdateStatus) {
		// The status when it moved, then each new log line once; the
		// last line of an ended update is its summary, which the
		// closing line or the error carries.
		terminal := api.UpdateTerminal(s.Status)
		if s.Status != last && !terminal {
			tfvalue.Progress(ctx, resp.SendProgress, "documentation update %s is %s", id, s.Status)
		}
		for _, line := range s.Logs[min(logged, len(s.Logs)):] {
			if !terminal || line != s.Summary {
				tfvalue.Progress(ctx, resp.SendProgress, "documentation update %s: %s", id, line)
			}
		}
		logged = max(logged, len(s.Logs))
		last = s.Status
	})
	var failed *client.UpdateFailedError
	switch {
	case errors.As(err, &failed):
		resp.Diagnostics.AddError("Documentation Update Failed",
			fmt.Sprintf("Documentation update %s of project %s failed: %s\n\nIts log:\n  %s",
				id, project, failed.Summary, strings.Join(failed.Logs, "\n  ")))
	case errors.Is(err, context.DeadlineExceeded):
		resp.Diagnostics.AddError("Timed Out Waiting for Documentation Update",
			fmt.Sprintf("Documentation update %s of project %s was still %q after %s (timeout). It goes on; "+
				"its status is at GET /v1/project/update-status/%s.", id, project, last, timeout, id))
	case err != nil:
		resp.Diagnostics.AddError("Unable to Wait for Documentation Update", err.Error())
	default:
		tfvalue.Progress(ctx, resp.SendProgress, "documentation update %s succeeded: %s (commit %s)", id, st.Summary, shortSHA(st.Commit.SHA))
	}
}

// shortSHA is the first seven digits of a commit hash, as git shows it.
func shortSHA(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}

type documentationUpdateActionModel struct {
	ProjectID types.String `tfsdk:"project_id"`
	Wait      types.Bool   `tfsdk:"wait"`
	Timeout   types.String `tfsdk:"timeout"`
}
