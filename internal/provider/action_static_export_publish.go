package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/client"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/providerdata"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/tfvalue"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
)

var (
	_ action.Action              = &publishAction{}
	_ action.ActionWithConfigure = &publishAction{}
)

// DefaultPublishTimeout bounds a whole publish: the export, then the upgrade.
const DefaultPublishTimeout = 30 * time.Minute

// NewStaticExportPublishAction returns the docsadmin_static_export_publish
// action.
func NewStaticExportPublishAction() action.Action { return &publishAction{} }

// publishAction is the "publish now" of a release pipeline: export, fetch
// a link, upgrade the release, in one step that leaves nothing in state.
// The resources do the same declaratively; the action is for pipelines
// that run on demand (terraform apply -invoke) or after another change
// (action_trigger).
type publishAction struct{ data *providerData }

func (a *publishAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_static_export_publish"
}

func (a *publishAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Publishes the documentation of `domain` to a self-hosted Helm release now: starts a static " +
			"export and waits for it, asks for a bundle link, and upgrades the release to serve it (the same upgrade as " +
			"`docsadmin_static_export_rollout`, keeping every other value), reporting each step as progress. Nothing is " +
			"stored in state, the link included. Needs Terraform 1.14 or later (`terraform apply -invoke`, or " +
			"`action_trigger` in a resource's `lifecycle`). The cluster comes from `kubeconfig_path` and `kube_context`.",
		Attributes: map[string]schema.Attribute{
			"domain": schema.StringAttribute{
				MarkdownDescription: "Hostname of the deployment to export, such as `docs.example.com`.",
				Required:            true,
				Validators:          []validator.String{tfvalue.HostnameValidator{}},
			},
			"export_version": schema.StringAttribute{
				MarkdownDescription: "Docs version label to export, as `docsadmin_static_export.version`. Defaults to the latest published.",
				Optional:            true,
			},
			"paths": schema.ListAttribute{
				MarkdownDescription: "Page paths to export. All published pages when omitted.",
				ElementType:         types.StringType,
				Optional:            true,
			},
			"release": schema.StringAttribute{
				MarkdownDescription: "Name of the Helm release to upgrade; it must exist.",
				Required:            true,
				Validators:          releaseValidators(),
			},
			"namespace": schema.StringAttribute{
				MarkdownDescription: "Namespace of the release.",
				Required:            true,
				Validators:          namespaceValidators(),
			},
			"kubeconfig_path": schema.StringAttribute{
				MarkdownDescription: "Path of a kubeconfig file. Defaults to `KUBECONFIG`, then `~/.kube/config`.",
				Optional:            true,
			},
			"kube_context": schema.StringAttribute{
				MarkdownDescription: "Kubeconfig context to use. Defaults to the current context.",
				Optional:            true,
			},
			"atomic": schema.BoolAttribute{
				MarkdownDescription: "Wait for the release's resources and roll a failed upgrade back. Defaults to `true`.",
				Optional:            true,
			},
			"timeout": tfvalue.ActionTimeoutAttribute("Time limit of the whole publish", DefaultPublishTimeout),
		},
	}
}

func (a *publishAction) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.data = providerdata.Configured(req.ProviderData, &resp.Diagnostics)
}

func (a *publishAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m publishModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	var paths []string
	resp.Diagnostics.Append(m.Paths.ElementsAs(ctx, &paths, false)...)
	if resp.Diagnostics.HasError() || a.data == nil {
		return
	}
	timeout := tfvalue.ActionTimeout(m.Timeout, DefaultPublishTimeout)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	send := resp.SendProgress
	release, ns := m.Release.ValueString(), m.Namespace.ValueString()

	// Connect to the cluster first: a wrong kubeconfig should fail in a
	// second, not after a long export.
	roller, err := rollout.New(rollout.Config{Kubeconfig: m.KubeconfigPath.ValueString(),
		Context: m.KubeContext.ValueString(), Namespace: ns}, rolloutLogger(ctx))
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("kubeconfig_path"), "Unable to Configure Kubernetes Client", err.Error())
		return
	}
	if _, err := roller.Current(ctx, release); err != nil {
		addPublishReleaseError(&resp.Diagnostics, release, ns, err)
		return
	}

	job, err := a.data.Client.StartExport(ctx, api.StartExportRequest{
		Domain: m.Domain.ValueString(), Version: m.ExportVersion.ValueString(), Paths: paths})
	if err != nil {
		resp.Diagnostics.AddError("Unable to Start Static Export", err.Error())
		return
	}
	tfvalue.Progress(ctx, send, "static export %s of %s started", job.JobID, m.Domain.ValueString())
	last := job
	job, err = a.data.Client.WaitExport(ctx, job.JobID, func(j api.ExportJob) {
		if j.Status != last.Status || j.Progress != last.Progress {
			tfvalue.Progress(ctx, send, "static export %s %s, %.0f%%", j.JobID, j.Status, j.Progress)
		}
		last = j
	})
	var failed *client.JobFailedError
	switch {
	case errors.As(err, &failed):
		resp.Diagnostics.AddError("Static Export Failed", "The server reports: "+failed.Message+". The release was not changed.")
		return
	case errors.Is(err, context.DeadlineExceeded):
		resp.Diagnostics.AddError("Timed Out Publishing",
			fmt.Sprintf("Static export %s did not complete within %s (timeout); the release was not changed.", last.JobID, timeout))
		return
	case err != nil:
		resp.Diagnostics.AddError("Unable to Wait for Static Export", err.Error())
		return
	}
	tfvalue.Progress(ctx, send, "static export %s completed: %d pages", job.JobID, job.PageCount)

	b, err := a.data.Client.GenerateBundle(ctx, job.JobID)
	if err != nil {
		resp.Diagnostics.AddError("Unable to Generate Bundle Link", err.Error())
		return
	}
	version, err := client.BundleVersion(ctx, b, &http.Client{Timeout: manifestTimeout})
	if err != nil {
		resp.Diagnostics.AddError("Content Version Unknown", fmt.Sprintf("Static export %s: %s", job.JobID, err))
		return
	}
	tfvalue.Progress(ctx, send, "bundle link for %s expires at %s; content version %s", job.JobID,
		b.ExpiresAt.UTC().Format(time.RFC3339), version)

	res, err := roller.Apply(ctx, rollout.Request{Release: release, OnFailure: rollout.Atomic(m.atomic()), Timeout: timeout,
		BundleURL: b.BundleURL, Version: version, ExpiresAt: b.ExpiresAt})
	if err != nil {
		addPublishReleaseError(&resp.Diagnostics, release, ns, err)
		return
	}
	if res.Changed {
		tfvalue.Progress(ctx, send, "release %s/%s upgraded to revision %d (%s), serving content version %s", ns, release,
			res.Revision, res.Status, version)
	} else {
		tfvalue.Progress(ctx, send, "release %s/%s already serves content version %s with this link (revision %d)", ns, release,
			version, res.Revision)
	}
}

func (m publishModel) atomic() bool { return m.Atomic.IsNull() || m.Atomic.ValueBool() }

// addPublishReleaseError explains a failed read or upgrade of the release.
func addPublishReleaseError(diags *diag.Diagnostics, release, ns string, err error) {
	if errors.Is(err, rollout.ErrReleaseNotFound) {
		diags.AddAttributeError(path.Root("release"), "Helm Release Not Found", fmt.Sprintf("Release %q does not exist in "+
			"namespace %q of the configured cluster; the action upgrades an existing release (install it with "+
			"docsadmin_static_export_rollout and install = true): %s", release, ns, err))
		return
	}
	diags.AddError("Unable to Upgrade Release", fmt.Sprintf("Release %q in namespace %q: %s", release, ns, err))
}

type publishModel struct {
	Domain         types.String `tfsdk:"domain"`
	ExportVersion  types.String `tfsdk:"export_version"`
	Paths          types.List   `tfsdk:"paths"`
	Release        types.String `tfsdk:"release"`
	Namespace      types.String `tfsdk:"namespace"`
	KubeconfigPath types.String `tfsdk:"kubeconfig_path"`
	KubeContext    types.String `tfsdk:"kube_context"`
	Atomic         types.Bool   `tfsdk:"atomic"`
	Timeout        types.String `tfsdk:"timeout"`
}
