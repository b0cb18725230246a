package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Resource identities (Terraform 1.12 and later, OpenTofu 1.12 and later)
// name the remote object in a structured way that Terraform stores beside
// the state, and that import blocks take instead of an ID string:
//
//	import {
//	  to       = docsadmin_static_export_rollout.docs
//	  identity = { namespace = "docs", release = "docs" }
//	}
//
// Create, Read and Update all set the identity: OpenTofu before 1.12 and
// Terraform refuse a response that drops an identity the prior state had.

// exportIdentity is the identity of a static export: its job ID.
type exportIdentity struct {
	JobID types.String `tfsdk:"job_id"`
}

func (r *staticExportResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{Attributes: map[string]identityschema.Attribute{
		"job_id": identityschema.StringAttribute{
			Description:       "The job ID (`jobId`), as in the resource's `id`.",
			RequiredForImport: true,
		},
	}}
}

// rolloutIdentity is the identity of a rollout: the Helm release.
type rolloutIdentity struct {
	Namespace types.String `tfsdk:"namespace"`
	Release   types.String `tfsdk:"release"`
}

func (r *staticExportRolloutResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{Attributes: map[string]identityschema.Attribute{
		"namespace": identityschema.StringAttribute{
			Description:       "Namespace of the Helm release.",
			RequiredForImport: true,
		},
		"release": identityschema.StringAttribute{
			Description:       "Name of the Helm release.",
			RequiredForImport: true,
		},
	}}
}

// setIdentity writes id into a response's identity. The framework
// gives every Create, Read and Update response of a resource with an
// identity schema one; nil is tolerated for unit tests that build
// responses by hand.
func setIdentity(ctx context.Context, dst *tfsdk.ResourceIdentity, id any, diags *diag.Diagnostics) {
	if dst != nil {
		diags.Append(dst.Set(ctx, id)...)
	}
}
