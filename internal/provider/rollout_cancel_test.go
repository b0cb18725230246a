package provider

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// cancelBound is how long the resource may take to return once its
// context is cancelled: the rollback runs without waiting, so a few
// seconds on a loaded machine; the wait it interrupts would never end.
const cancelBound = 30 * time.Second

// Terraform's Ctrl-C cancels the context of the resource's Update. On a
// cluster without nodes an atomic upgrade waits forever; cancelled during
// that wait, Update returns within seconds with an error, keeps the prior
// state, and the release is deployed with the previous revision's values,
// never pending. TestAccStaticExportRollout_interruptedApply... does this
// with real terraform and SIGINT; this calls Update as the framework does,
// to pin what the resource returns (state untouched, the diagnostic).
func TestStaticExportRollout_cancelledUpdateLeavesPreviousRevision(t *testing.T) {
	e := newParallelRolloutEnv(t)
	prev, err := e.roller.Apply(t.Context(), rollout.Request{Release: rolloutRelease, Chart: e.chart, Install: true,
		OnFailure: rollout.KeepFailed, BundleURL: "https://bundles.example.com/b.tar.gz?signature=old", Version: "v1"})
	if err != nil {
		t.Fatal(err)
	}

	ctx := t.Context()
	r := &staticExportRolloutResource{}
	var sr resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &sr)
	sch := sr.Schema
	model := func(version, link string) staticExportRolloutModel {
		null := types.StringNull()
		return staticExportRolloutModel{
			ID: types.StringValue(e.ns + "/" + rolloutRelease), Release: types.StringValue(rolloutRelease),
			Namespace: types.StringValue(e.ns), KubeconfigPath: types.StringValue(e.cluster.Kubeconfig),
			KubeContext: null, BundleURL: types.StringValue(link), Version: types.StringValue(version), ExpiresAt: null,
			Chart: null, JobID: null, RenewBefore: null, BundleURLWO: null, BundleURLWOVer: null,
			Install: types.BoolValue(false), Atomic: types.BoolValue(true), Wait: types.BoolValue(false),
			ChartRepo: null, ChartVersion: null, PlainHTTP: types.BoolValue(false), CreateNS: types.BoolValue(false),
			RecoverPending: types.BoolValue(false),
			Kubernetes:     types.ObjectNull(sch.Blocks["kubernetes"].Type().(types.ObjectType).AttrTypes),
			Revision:       types.Int64Value(int64(prev.Revision)), Status: types.StringValue("deployed"),
			ValuesDigest: types.StringValue(prev.ValuesDigest),
			Drift:        types.ListNull(types.StringType), DriftIgnore: types.ListNull(types.StringType),
			Timeouts: timeouts.Value{Object: types.ObjectNull(sch.Attributes["timeouts"].GetType().(timeouts.Type).AttrTypes)},
		}
	}
	empty := tftypes.NewValue(sch.Type().TerraformType(ctx), nil)
	state := tfsdk.State{Schema: sch, Raw: empty}
	plan := tfsdk.Plan{Schema: sch, Raw: empty}
	config := tfsdk.Config{Schema: sch}
	old := model("v1", "https://bundles.example.com/b.tar.gz?signature=old")
	want := model("v2", "https://bundles.example.com/b.tar.gz?signature=new")
	want.Revision, want.Status, want.ValuesDigest = types.Int64Unknown(), types.StringUnknown(), types.StringUnknown()
	diags := state.Set(ctx, &old)
	diags.Append(plan.Set(ctx, &want)...)
	if diags.HasError() {
		t.Fatal(diags)
	}
	config.Raw = plan.Raw

	req := resource.UpdateRequest{Plan: plan, Config: config, State: state}
	resp := resource.UpdateResponse{State: tfsdk.State{Schema: sch, Raw: state.Raw.Copy()}}
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.Update(cctx, req, &resp)
	}()
	testutil.Eventually(t, time.Minute, "the upgrade to wait on its pending revision", func() bool {
		s, err := e.roller.Current(ctx, rolloutRelease)
		return err == nil && s.Revision == prev.Revision+1 && s.Status == "pending-upgrade"
	})
	began := time.Now()
	cancel()
	select {
	case <-done:
	case <-time.After(cancelBound):
		t.Fatalf("Update still running %s after its context was cancelled", cancelBound)
	}
	t.Logf("Update returned %s after the cancel", time.Since(began).Round(time.Millisecond))

	if !resp.Diagnostics.HasError() || !strings.Contains(resp.Diagnostics[0].Summary(), "Cancelled") {
		t.Fatalf("diagnostics: %v", resp.Diagnostics)
	}
	for _, d := range resp.Diagnostics {
		if strings.Contains(d.Detail(), "signature=new") {
			t.Errorf("a diagnostic holds the new link: %s", d.Detail())
		}
	}
	if !resp.State.Raw.Equal(state.Raw) {
		t.Error("a cancelled update changed state")
	}
	s := e.current(t)
	if s.Status != "deployed" || s.Version != "v1" || s.BundleURL != "https://bundles.example.com/b.tar.gz?signature=old" {
		t.Errorf("release is at revision %d, %s, version %q; want deployed with the previous revision's values",
			s.Revision, s.Status, s.Version)
	}
}
