package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/client"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/kubeblock"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/tfvalue"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
)

// apply upgrades (or installs) the release to carry m's values and records
// the resulting revision in m. Apply creates no revision when the release
// already carries them, so an update that changed only, say, wait is free.
// config carries bundle_url_wo, which plan and state never hold; prior is
// the state an update starts from, nil on create.
func (r *staticExportRolloutResource) apply(ctx context.Context, m *staticExportRolloutModel, config staticExportRolloutModel,
	prior *staticExportRolloutModel, timeout time.Duration, private privateState, diags *diag.Diagnostics) bool {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// The configuration's kubernetes block holds the write-only
	// credentials, which the plan does not.
	reach := *m
	reach.Kubernetes = config.Kubernetes
	roller, ok := newRoller(ctx, reach, diags)
	if !ok {
		return false
	}
	link, ok := r.link(ctx, m, config, prior, roller, private, diags)
	if !ok {
		return false
	}
	var expiry time.Time
	if s := m.ExpiresAt.ValueString(); s != "" {
		expiry, _ = time.Parse(time.RFC3339, s) // the validator or rfc3339 made it
	}
	res, err := roller.Apply(ctx, rollout.Request{
		Release: m.Release.ValueString(), Chart: m.Chart.ValueString(), Install: m.Install.ValueBool(),
		ChartRepo: m.ChartRepo.ValueString(), ChartVersion: m.ChartVersion.ValueString(), ChartPlainHTTP: m.PlainHTTP.ValueBool(),
		CreateNamespace: m.CreateNS.ValueBool(), RecoverPending: m.RecoverPending.ValueBool(),
		OnFailure: rollout.Atomic(m.Atomic.ValueBool()), Wait: m.Wait.ValueBool(), Timeout: timeout,
		BundleURL: link, Version: m.Version.ValueString(), ExpiresAt: expiry,
		// Objects that differ from the release: a new revision makes Helm
		// put them back, even when the values are the same.
		Repair: prior != nil && driftNow(ctx, roller, *m),
	})
	if err != nil && errors.Is(ctx.Err(), context.Canceled) {
		// Terraform was interrupted (Ctrl-C): rollout has stopped Helm's
		// wait and rolled back without waiting, so state keeps the
		// previous revision, which is what the cluster runs again.
		diags.AddError("Release Upgrade Cancelled", fmt.Sprintf("Terraform cancelled the apply while release %q in "+
			"namespace %q was upgraded; the release was left as it was before: %s", m.Release.ValueString(),
			m.Namespace.ValueString(), err))
		return false
	}
	if err != nil {
		addApplyError(diags, *m, timeout, err)
		return false
	}
	m.ID = types.StringValue(m.Namespace.ValueString() + "/" + m.Release.ValueString())
	m.Revision = types.Int64Value(int64(res.Revision))
	m.Status = types.StringValue(res.Status)
	m.ValuesDigest = types.StringValue(res.ValuesDigest)
	if m.Drift.IsUnknown() {
		m.Drift = noDrift()
	}
	tflog.Info(ctx, "release carries the static export values", map[string]any{"id": m.ID.ValueString(),
		"revision": res.Revision, "changed": res.Changed, "installed": res.Installed, "version": m.Version.ValueString()})
	return true
}

// link returns the bundle link to write. With job_id, a plan that left
// expires_at unknown asks for a fresh link (and fills expires_at, and
// version when the configuration leaves it to the job); one that kept
// expires_at keeps the link the release already carries, which state does
// not hold. With bundle_url_wo, only a new bundle_url_wo_version writes
// the configured link: an update for another reason (a timeouts or chart
// change, a drift correction) keeps the release's link, so a write-only
// value that differs on every run (an ephemeral link) or is left out of
// the configuration between versions never replaces it unasked.
func (r *staticExportRolloutResource) link(ctx context.Context, m *staticExportRolloutModel, config staticExportRolloutModel,
	prior *staticExportRolloutModel, roller *rollout.Roller, private privateState, diags *diag.Diagnostics) (string, bool) {
	keep := false
	switch m.source() {
	case sourceURL:
		return m.BundleURL.ValueString(), true
	case sourceWriteOnly:
		keep = prior != nil && prior.source() == sourceWriteOnly && prior.BundleURLWOVer.Equal(m.BundleURLWOVer)
		if !keep {
			if config.BundleURLWO.IsNull() {
				diags.AddAttributeError(path.Root("bundle_url_wo"), "Missing Write-Only Link",
					"bundle_url_wo_version is new, so the release takes a new link, but bundle_url_wo is not set.")
				return "", false
			}
			return config.BundleURLWO.ValueString(), true
		}
	case sourceJob:
		keep = !m.ExpiresAt.IsUnknown()
	}
	if keep {
		cur, err := roller.Current(ctx, m.Release.ValueString())
		if err == nil && cur.BundleURL != "" {
			return cur.BundleURL, true
		}
		if err == nil && !config.BundleURLWO.IsNull() {
			// The link was removed by hand: the configured one restores it.
			return config.BundleURLWO.ValueString(), true
		}
		if err == nil {
			err = errors.New("it carries no bundle link")
		}
		again := "Run terraform apply again; its plan fetches a new link."
		if m.source() == sourceWriteOnly {
			again = "Change bundle_url_wo_version to write the configured link."
		}
		diags.AddError("Unable to Keep the Release's Bundle Link", fmt.Sprintf("Release %q in namespace %q changed since the "+
			"plan: %s. %s", m.Release.ValueString(), m.Namespace.ValueString(), err, again))
		return "", false
	}
	if r.data == nil {
		diags.AddError("Provider Not Configured", "job_id needs the provider's admin API settings (base_url, api_key) to fetch a bundle link.")
		return "", false
	}
	jobID := m.JobID.ValueString()
	b, err := r.data.Client.GenerateBundle(ctx, jobID)
	if err != nil {
		addBundleError(ctx, r.data, jobID, err, diags)
		return "", false
	}
	m.ExpiresAt = tfvalue.RFC3339(b.ExpiresAt)
	// Kept for the plans to come, which warn when renew_before is not
	// shorter than it (warnRenewBefore).
	diags.Append(setLinkLifetime(ctx, private, r.data.Client.LinkLifetime(b))...)
	if m.Version.IsUnknown() {
		v, err := client.BundleVersion(ctx, b, &http.Client{Timeout: manifestTimeout})
		if err != nil {
			diags.AddAttributeError(path.Root("version"), "Content Version Unknown", err.Error()+". Set version explicitly.")
			return "", false
		}
		m.Version = types.StringValue(v)
	}
	tflog.Info(ctx, "fetched bundle link for the release", map[string]any{"job_id": jobID, "expires_at": m.ExpiresAt.ValueString()})
	return b.BundleURL, true
}

// addApplyError turns a rollout error into a diagnostic that says what to
// do. The error text never holds the link: rollout redacts it.
func addApplyError(diags *diag.Diagnostics, m staticExportRolloutModel, timeout time.Duration, err error) {
	release, ns := m.Release.ValueString(), m.Namespace.ValueString()
	var pending *rollout.PendingError
	switch {
	case errors.As(err, &pending):
		diags.AddError("Helm Release Has a Pending Operation", err.Error())
	case errors.Is(err, rollout.ErrReleaseNotFound) && m.Install.ValueBool() && m.Chart.ValueString() == "":
		diags.AddAttributeError(path.Root("chart"), "Chart Required to Install Release",
			fmt.Sprintf("Release %q does not exist in namespace %q and install = true, but no chart is set: %s", release, ns, err))
	case errors.Is(err, rollout.ErrReleaseNotFound):
		diags.AddAttributeError(path.Root("release"), "Helm Release Not Found",
			fmt.Sprintf("Release %q does not exist in namespace %q of the configured cluster. Set install = true and chart "+
				"to install it, or check release, namespace, kubeconfig_path and kube_context: %s", release, ns, err))
	case errors.Is(err, context.DeadlineExceeded):
		diags.AddError("Timed Out Upgrading Release", fmt.Sprintf("Release %q in namespace %q was not done within %s "+
			"(timeouts): %s", release, ns, timeout, err))
	default:
		diags.AddError("Unable to Upgrade Release", fmt.Sprintf("Release %q in namespace %q: %s", release, ns, err))
	}
}

// newRoller connects to the resource's cluster. The Roller logs through
// tflog with ctx, so it is made per call rather than kept.
func newRoller(ctx context.Context, m staticExportRolloutModel, diags *diag.Diagnostics) (*rollout.Roller, bool) {
	cfg := rollout.Config{Kubeconfig: m.KubeconfigPath.ValueString(),
		Context: m.KubeContext.ValueString(), Namespace: m.Namespace.ValueString()}
	at := path.Root("kubeconfig_path")
	if !m.Kubernetes.IsNull() {
		at = path.Root("kubernetes")
		if cfg.REST = kubeblock.RESTConfig(ctx, m.Kubernetes, diags); cfg.REST == nil {
			return nil, false
		}
	}
	roller, err := rollout.New(cfg, rolloutLogger(ctx))
	if err != nil {
		diags.AddAttributeError(at, "Unable to Configure Kubernetes Client", err.Error())
		return nil, false
	}
	return roller, true
}

// privateState is the framework's private state as the digest helpers
// use it (its type lives in an internal package).
type privateState interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// appliedDigest returns the digest recorded by the last create or update,
// and whether there is one (there is none right after an import).
func appliedDigest(ctx context.Context, p privateState) (string, bool, diag.Diagnostics) {
	raw, diags := p.GetKey(ctx, appliedDigestKey)
	var d string
	known := raw != nil && json.Unmarshal(raw, &d) == nil
	return d, known, diags
}

// setAppliedDigest records d; private state values must be JSON.
func setAppliedDigest(ctx context.Context, p privateState, d string) diag.Diagnostics {
	raw, _ := json.Marshal(d) // a string always encodes
	return p.SetKey(ctx, appliedDigestKey, raw)
}

// flag reads a boolean private state entry; a missing one is false.
func flag(ctx context.Context, p privateState, key string) (bool, diag.Diagnostics) {
	raw, diags := p.GetKey(ctx, key)
	var b bool
	if raw != nil {
		_ = json.Unmarshal(raw, &b) // anything but true reads as false
	}
	return b, diags
}

// setFlag records a boolean private state entry.
func setFlag(ctx context.Context, p privateState, key string, b bool) diag.Diagnostics {
	raw, _ := json.Marshal(b) // a bool always encodes
	return p.SetKey(ctx, key, raw)
}
