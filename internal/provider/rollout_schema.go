package provider

import (
	"context"
	"maps"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/kubeblock"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/tfvalue"
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

func (r *staticExportRolloutResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Points a self-hosted Helm release at a static export bundle: a Helm upgrade that sets " +
			"`staticExport.enabled`, `bundleUrl`, `version` and `expiresAt` and keeps every other value. Refresh reads " +
			"the release back, so a change made with `helm upgrade` shows as drift and the next apply corrects it; so does a " +
			"change to the objects the chart made (an image edited, a Secret deleted, scaled to zero), listed in `drift`. " +
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
				Validators:          releaseValidators(),
			},
			"namespace": schema.StringAttribute{
				MarkdownDescription: "Namespace of the release, which also holds Helm's release records.",
				Required:            true,
				PlanModifiers:       replace,
				Validators:          namespaceValidators(),
			},
			"kubeconfig_path": schema.StringAttribute{
				MarkdownDescription: "Path of a kubeconfig file. Defaults to the `KUBECONFIG` environment variable, then " +
					"`~/.kube/config`; `~` is not expanded, use `pathexpand()`. Set per resource, so it can name a cluster created in the same run. " +
					"Conflicts with the `kubernetes` block.",
				Optional: true,
			},
			"kube_context": schema.StringAttribute{
				MarkdownDescription: "Kubeconfig context to use. Defaults to the current context.",
				Optional:            true,
			},
			"job_id": schema.StringAttribute{
				MarkdownDescription: "ID of a completed static export, usually `docsadmin_static_export.<name>.id`. The recommended source: " +
					"at apply the provider asks the API for a link to this job and writes it into the release; state keeps only the job ID, " +
					"`expires_at` and `version`, never the link. Once a plan runs within `renew_before` of `expires_at` it shows an " +
					"in-place update that puts a fresh link for the same job into the release. Conflicts with `bundle_url` and `bundle_url_wo`.",
				Optional: true,
			},
			"renew_before": schema.StringAttribute{
				MarkdownDescription: "With `job_id`: how long before `expires_at` a plan renews the link, as a duration such as `15m` or `2h`. " +
					"Defaults to `" + DefaultRenewBefore + "`.",
				Optional:   true,
				Validators: []validator.String{tfvalue.DurationValidator{Positive: true}},
			},
			"bundle_url_wo": schema.StringAttribute{
				MarkdownDescription: "Write-only presigned bundle link (Terraform 1.11 and later), for links that come from elsewhere, such as " +
					"the ephemeral `docsadmin_static_export_bundle`. Never stored in state or plan. Terraform cannot compare a " +
					"write-only value, so the release only takes a new one when `bundle_url_wo_version` changes.",
				Optional:   true,
				Sensitive:  true,
				WriteOnly:  true,
				Validators: []validator.String{tfvalue.URLValidator{}},
			},
			"bundle_url_wo_version": schema.StringAttribute{
				MarkdownDescription: "Any value that changes when `bundle_url_wo` should be written again, such as the export's `id`. " +
					"Required with `bundle_url_wo`.",
				Optional: true,
			},
			"bundle_url": schema.StringAttribute{
				MarkdownDescription: "Presigned bundle link, for Terraform before 1.11. It is stored in state (marked sensitive, " +
					"but in plain text in the state file): prefer `job_id`, or `bundle_url_wo`. The chart keeps it in a Secret, " +
					"so renewing the link does not restart pods.",
				Optional:   true,
				Sensitive:  true,
				Validators: []validator.String{tfvalue.URLValidator{}},
				DeprecationMessage: "bundle_url stores the presigned link in state. Set job_id to " +
					"docsadmin_static_export.<name>.id instead (the link is fetched at apply and never stored), or pass the " +
					"ephemeral docsadmin_static_export_bundle's link to bundle_url_wo.",
			},
			"version": schema.StringAttribute{
				MarkdownDescription: "The bundle's content version, stored as `staticExport.version` in the chart's Secret: serve-bundle " +
					"swaps new content in without a pod restart and, with the value set, refuses a bundle of any other content " +
					"version. A renewed link or a re-export of unchanged content leaves it as it is. With " +
					"`job_id` it defaults to the job's content version; otherwise it is required, usually " +
					"`docsadmin_static_export.<name>.content_version`.",
				Optional:   true,
				Computed:   true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"expires_at": schema.StringAttribute{
				MarkdownDescription: "When the link stops working (RFC 3339), stored as `staticExport.expiresAt`, which the `rollout` " +
					"command reads to decide when to renew. With `job_id` it is the expiry of the link the provider fetched, read back " +
					"from the release on refresh; otherwise set it with the link, usually `docsadmin_static_export_bundle.<name>.expires_at`.",
				Optional:   true,
				Computed:   true,
				Validators: []validator.String{tfvalue.RFC3339Validator{}},
			},
			"chart": schema.StringAttribute{
				MarkdownDescription: "Chart to run: a directory or archive, a chart name in `chart_repository`, or an " +
					"`oci://host/repository/name` reference. Required to install; on upgrade it replaces the release's chart " +
					"when its name or version differs. When omitted, upgrades keep the chart the release runs.",
				Optional: true,
			},
			"chart_repository": schema.StringAttribute{
				MarkdownDescription: "URL of a chart repository (one serving `index.yaml`) that holds the chart named by `chart`. " +
					"Repository and registry credentials come from Helm's own configuration (`helm registry login`, `HELM_*`).",
				Optional:   true,
				Validators: []validator.String{tfvalue.URLValidator{}},
			},
			"chart_version": schema.StringAttribute{
				MarkdownDescription: "Version or version constraint of a chart from `chart_repository` or an `oci://` registry. " +
					"Defaults to the newest.",
				Optional:   true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"plain_http": boolArgument("Reach the `oci://` registry of `chart` over plain HTTP instead of HTTPS, for a "+
				"registry on a trusted local network. Defaults to `false`.", false),
			"install":          boolArgument("Install the release from `chart` when it does not exist. When `false` (the default), a missing release is an error.", false),
			"create_namespace": boolArgument("With `install`: create `namespace` when it does not exist. Defaults to `false`.", false),
			"recover_pending": boolArgument("Take over a release stuck in `pending-install`, `pending-upgrade` or `pending-rollback` "+
				"when this provider (or the `rollout` command) created the pending revision and it is older than the timeout plus "+
				"two minutes, so no live run can own it: it is rolled back to the last deployed revision, then the apply proceeds. "+
				"Anything else stays an error naming the `helm rollback` command. Defaults to `false`.", false),
			"atomic": boolArgument("Wait for the release's resources and roll a failed upgrade back. Defaults to `true`.", true),
			"wait":   boolArgument("Wait for the release's resources to become ready even when `atomic` is `false`. Defaults to `false`.", false),
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
			"timeouts": tfvalue.ResourceTimeouts(ctx, timeouts.Opts{Create: true, Update: true}),
		},
		Blocks: map[string]schema.Block{"kubernetes": kubeblock.Block()},
	}
	maps.Copy(resp.Schema.Attributes, driftAttributes())
}

// boolArgument is an optional flag with a default.
func boolArgument(description string, def bool) schema.BoolAttribute {
	return schema.BoolAttribute{MarkdownDescription: description, Optional: true, Computed: true, Default: booldefault.StaticBool(def)}
}

// releaseValidators and namespaceValidators hold a release's address to
// Helm's rules wherever one is configured: the resource, the publish
// action and the list resource.
func releaseValidators() []validator.String {
	return []validator.String{stringvalidator.LengthAtMost(53),
		stringvalidator.RegexMatches(releaseNamePattern, "must be a valid Helm release name: lower-case letters, digits, '-' and '.'")}
}

func namespaceValidators() []validator.String {
	return []validator.String{stringvalidator.LengthAtMost(63),
		stringvalidator.RegexMatches(namespacePattern, "must be a Kubernetes namespace name (a DNS label)")}
}
