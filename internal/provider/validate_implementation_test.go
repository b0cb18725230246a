package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// TestValidateImplementation: the schema of the provider and of every
// resource, data source, ephemeral resource, action and list resource it
// registers passes the framework's own checks (names, defaults and plan
// modifiers on computed attributes, write-only rules, ...), which
// otherwise surface only when Terraform first asks for the schema. The
// lists are the provider's own, so a new type is checked without a line
// here.
func TestValidateImplementation(t *testing.T) {
	ctx := context.Background()
	p := New("test")()
	var pm provider.MetadataResponse
	p.Metadata(ctx, provider.MetadataRequest{}, &pm)
	var ps provider.SchemaResponse
	p.Schema(ctx, provider.SchemaRequest{}, &ps)
	checkSchema(t, "provider", ps.Diagnostics, ps.Schema.ValidateImplementation)
	named := 0

	for _, f := range p.Resources(ctx) {
		r := f()
		var m resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: pm.TypeName}, &m)
		var s resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &s)
		checkSchema(t, "resource "+m.TypeName, s.Diagnostics, s.Schema.ValidateImplementation)
		if ri, ok := r.(resource.ResourceWithIdentity); ok {
			var is resource.IdentitySchemaResponse
			ri.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &is)
			checkSchema(t, "identity of "+m.TypeName, is.Diagnostics, is.IdentitySchema.ValidateImplementation)
		}
		named++
	}
	for _, f := range p.(provider.ProviderWithEphemeralResources).EphemeralResources(ctx) {
		r := f()
		var m ephemeral.MetadataResponse
		r.Metadata(ctx, ephemeral.MetadataRequest{ProviderTypeName: pm.TypeName}, &m)
		var s ephemeral.SchemaResponse
		r.Schema(ctx, ephemeral.SchemaRequest{}, &s)
		checkSchema(t, "ephemeral resource "+m.TypeName, s.Diagnostics, s.Schema.ValidateImplementation)
		named++
	}
	for _, f := range p.DataSources(ctx) {
		d := f()
		var m datasource.MetadataResponse
		d.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: pm.TypeName}, &m)
		var s datasource.SchemaResponse
		d.Schema(ctx, datasource.SchemaRequest{}, &s)
		checkSchema(t, "data source "+m.TypeName, s.Diagnostics, s.Schema.ValidateImplementation)
		named++
	}
	for _, f := range p.(provider.ProviderWithActions).Actions(ctx) {
		a := f()
		var m action.MetadataResponse
		a.Metadata(ctx, action.MetadataRequest{ProviderTypeName: pm.TypeName}, &m)
		var s action.SchemaResponse
		a.Schema(ctx, action.SchemaRequest{}, &s)
		checkSchema(t, "action "+m.TypeName, s.Diagnostics, s.Schema.ValidateImplementation)
		named++
	}
	for _, f := range p.(provider.ProviderWithListResources).ListResources(ctx) {
		l := f()
		var m resource.MetadataResponse
		l.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: pm.TypeName}, &m)
		var s list.ListResourceSchemaResponse
		l.ListResourceConfigSchema(ctx, list.ListResourceSchemaRequest{}, &s)
		checkSchema(t, "list resource "+m.TypeName, s.Diagnostics, s.Schema.ValidateImplementation)
		named++
	}
	// Three resources, an ephemeral resource, two data sources, three
	// actions and a list resource: a type that drops out of the lists
	// should not pass unnoticed.
	if named != 10 {
		t.Errorf("checked %d types, want 10: update the count when a type is added or removed", named)
	}
}

// checkSchema reports the diagnostics of getting a schema and of validating it.
func checkSchema(t *testing.T, what string, got diag.Diagnostics, validate func(context.Context) diag.Diagnostics) {
	t.Helper()
	for _, d := range append(got, validate(context.Background())...) {
		if d.Severity() == diag.SeverityError {
			t.Errorf("%s: %s: %s", what, d.Summary(), d.Detail())
		}
	}
}
