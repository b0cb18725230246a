package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/tfvalue"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
)

var _ list.ListResource = &rolloutListResource{}

// NewStaticExportRolloutListResource returns the list resource of
// docsadmin_static_export_rollout.
func NewStaticExportRolloutListResource() list.ListResource { return &rolloutListResource{} }

// rolloutListResource finds the Helm releases that serve static exports,
// so `terraform query -generate-config-out` can adopt a fleet of
// self-hosted releases at once. It needs no API client: everything it
// reports comes from the cluster.
type rolloutListResource struct{}

func (l *rolloutListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_static_export_rollout"
}

func (l *rolloutListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The Helm releases whose values carry a `staticExport` table, in one namespace or in every " +
			"namespace the credentials can read (Terraform 1.14 and later, `terraform query`). Each result has the " +
			"release's identity and, with `include_resource`, what it carries; the link itself is never returned. " +
			"`terraform query -generate-config-out` writes a resource and an import block for each; add `job_id` to each " +
			"resource to feed it from an export.",
		Attributes: map[string]schema.Attribute{
			"namespace": schema.StringAttribute{
				MarkdownDescription: "Namespace to look in. Every namespace when omitted.",
				Optional:            true,
				Validators:          namespaceValidators(),
			},
			"kubeconfig_path": schema.StringAttribute{
				MarkdownDescription: "Path of a kubeconfig file. Defaults to `KUBECONFIG`, then `~/.kube/config`. " +
					"Written into the generated configuration.",
				Optional: true,
			},
			"kube_context": schema.StringAttribute{
				MarkdownDescription: "Kubeconfig context to use. Defaults to the current context. Written into the generated configuration.",
				Optional:            true,
			},
		},
	}
}

func (l *rolloutListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg rolloutListModel
	if diags := req.Config.Get(ctx, &cfg); diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	states, err := rollout.List(ctx, rollout.Config{Kubeconfig: cfg.KubeconfigPath.ValueString(),
		Context: cfg.KubeContext.ValueString(), Namespace: cfg.Namespace.ValueString()},
		cfg.Namespace.IsNull(), rolloutLogger(ctx))
	if err != nil {
		var diags diag.Diagnostics
		diags.AddAttributeError(path.Root("kubeconfig_path"), "Unable to List Helm Releases", err.Error())
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	stream.Results = func(push func(list.ListResult) bool) {
		for i, s := range states {
			if req.Limit > 0 && int64(i) >= req.Limit {
				return
			}
			r := req.NewListResult(ctx)
			r.DisplayName = fmt.Sprintf("%s/%s (%s, revision %d, content version %q)", s.Namespace, s.Release, s.Chart,
				s.Revision, s.Version)
			r.Diagnostics.Append(r.Identity.Set(ctx, rolloutIdentity{
				Namespace: types.StringValue(s.Namespace), Release: types.StringValue(s.Release)})...)
			if req.IncludeResource {
				setListedRollout(ctx, r.Resource, s, cfg, &r.Diagnostics)
			}
			if !push(r) {
				return
			}
		}
	}
}

// setListedRollout writes a release into a result as a rollout resource
// would import it. The link is left out: it would land in the generated
// configuration, and job_id is the way to feed the release from then on.
func setListedRollout(ctx context.Context, res *tfsdk.Resource, s *rollout.State, cfg rolloutListModel, diags *diag.Diagnostics) {
	for name, v := range map[string]attr.Value{
		"id":              types.StringValue(s.Namespace + "/" + s.Release),
		"release":         types.StringValue(s.Release),
		"namespace":       types.StringValue(s.Namespace),
		"kubeconfig_path": cfg.KubeconfigPath,
		"kube_context":    cfg.KubeContext,
		"version":         types.StringValue(s.Version),
		"expires_at":      tfvalue.RFC3339(s.ExpiresAt),
		// The defaults an import sets too (ImportState).
		"install": types.BoolValue(false), "atomic": types.BoolValue(true), "wait": types.BoolValue(false),
		"plain_http": types.BoolValue(false), "create_namespace": types.BoolValue(false),
		"recover_pending": types.BoolValue(false),
		"revision":        types.Int64Value(int64(s.Revision)),
		"status":          types.StringValue(s.Status),
		"values_digest":   types.StringValue(s.ValuesDigest),
	} {
		diags.Append(res.SetAttribute(ctx, path.Root(name), v)...)
	}
}

type rolloutListModel struct {
	Namespace      types.String `tfsdk:"namespace"`
	KubeconfigPath types.String `tfsdk:"kubeconfig_path"`
	KubeContext    types.String `tfsdk:"kube_context"`
}
