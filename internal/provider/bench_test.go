package provider

import (
	"context"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
)

// BenchmarkBundleRefreshAndPlan measures what one bundle costs the
// provider in a refreshing plan: ReadResource then PlanResourceChange,
// through the protocol server, against the reference server. Terraform's
// own share (and process start) is what scripts/bench.sh adds.
func BenchmarkBundleRefreshAndPlan(b *testing.B) {
	ctx := context.Background()
	env := apiservertest.Start(b)
	srv, err := providerserver.NewProtocol6WithError(NewWithClock("bench", env.Clock)())()
	if err != nil {
		b.Fatal(err)
	}
	schemas, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		b.Fatal(err)
	}
	providerType := schemas.Provider.ValueType()
	cfg := dynamic(b, providerType, map[string]tftypes.Value{
		"base_url": tftypes.NewValue(tftypes.String, env.URL),
		"api_key":  tftypes.NewValue(tftypes.String, env.Key),
	})
	if resp, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: cfg}); err != nil || len(resp.Diagnostics) > 0 {
		b.Fatalf("configure: %v %+v", err, resp)
	}

	job := env.StartExportAndWait(b, api.StartExportRequest{Domain: env.Domain})
	bundle, err := (&accEnv{Env: env}).client(b).GenerateBundle(ctx, job.JobID)
	if err != nil {
		b.Fatal(err)
	}
	typ := schemas.ResourceSchemas["docsadmin_static_export_bundle"].ValueType()
	state := dynamic(b, typ, map[string]tftypes.Value{
		"id":                tftypes.NewValue(tftypes.String, job.JobID),
		"job_id":            tftypes.NewValue(tftypes.String, job.JobID),
		"renew_before":      tftypes.NewValue(tftypes.String, "15m"),
		"bundle_url":        tftypes.NewValue(tftypes.String, bundle.BundleURL),
		"expires_at":        tftypes.NewValue(tftypes.String, bundle.ExpiresAt.Format(time.RFC3339)),
		"size_bytes":        tftypes.NewValue(tftypes.Number, bundle.SizeBytes),
		"ready_for_renewal": tftypes.NewValue(tftypes.Bool, false),
	})
	config := dynamic(b, typ, map[string]tftypes.Value{
		"job_id":       tftypes.NewValue(tftypes.String, job.JobID),
		"renew_before": tftypes.NewValue(tftypes.String, "15m"),
	})

	b.ResetTimer()
	for b.Loop() {
		read, err := srv.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: "docsadmin_static_export_bundle", CurrentState: state})
		if err != nil || len(read.Diagnostics) > 0 {
			b.Fatalf("read: %v %+v", err, read.Diagnostics)
		}
		plan, err := srv.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: "docsadmin_static_export_bundle",
			PriorState: read.NewState, ProposedNewState: read.NewState, Config: config})
		if err != nil || len(plan.Diagnostics) > 0 || len(plan.RequiresReplace) > 0 {
			b.Fatalf("plan: %v %+v", err, plan)
		}
	}
}

// dynamic encodes an object of typ whose unset attributes are null.
func dynamic(b *testing.B, typ tftypes.Type, vals map[string]tftypes.Value) *tfprotov6.DynamicValue {
	b.Helper()
	obj := typ.(tftypes.Object)
	full := map[string]tftypes.Value{}
	for name, t := range obj.AttributeTypes {
		if v, ok := vals[name]; ok {
			full[name] = v
		} else {
			full[name] = tftypes.NewValue(t, nil)
		}
	}
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, full))
	if err != nil {
		b.Fatal(err)
	}
	return &dv
}
