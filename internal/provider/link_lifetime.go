package provider

import (
	"context"
	"encoding/json"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// linkLifetimeKey names the private state entry holding how long the
// server's links lived when the resource last fetched one, in seconds. A
// plan has no link in hand, so this is how it knows the lifetime.
const linkLifetimeKey = "link_lifetime"

// setLinkLifetime records d; private state values must be JSON.
func setLinkLifetime(ctx context.Context, p privateState, d time.Duration) diag.Diagnostics {
	raw, _ := json.Marshal(int64(d / time.Second)) // an integer always encodes
	return p.SetKey(ctx, linkLifetimeKey, raw)
}

// linkLifetime returns the recorded lifetime, and false when none is
// (an import, or a state from before it was recorded).
func linkLifetime(ctx context.Context, p privateState) (time.Duration, bool) {
	raw, _ := p.GetKey(ctx, linkLifetimeKey)
	var s int64
	if raw == nil || json.Unmarshal(raw, &s) != nil || s <= 0 {
		return 0, false
	}
	return time.Duration(s) * time.Second, true
}

// warnRenewBefore points out a renew_before at least as long as the
// lifetime the server grants links: every link is due as soon as it is
// made, so every plan renews it again.
func warnRenewBefore(renewBefore types.String, lifetime time.Duration, diags *diag.Diagnostics) {
	before, err := time.ParseDuration(renewBefore.ValueString())
	if renewBefore.IsUnknown() || err != nil || before < lifetime {
		return
	}
	diags.AddAttributeWarning(path.Root("renew_before"), "Bundle Link Renews on Every Plan",
		"The server grants links that live "+lifetime.String()+", and renew_before ("+renewBefore.ValueString()+
			") is not shorter, so every link is due for renewal as soon as it is made and every plan renews it. "+
			"Set renew_before well below "+lifetime.String()+", such as "+DefaultRenewBefore+".")
}
