package rolloutcmd

import (
	"context"
	"fmt"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/redact"
)

// notifier is what a Roller on a real cluster offers beyond Roller: Events
// on the release, and the retry requests people leave on it. The Roller
// of fast tests may lack it; the loop then tells only the log, the output
// and the metrics, and waits for the release to change.
type notifier interface {
	RecordEvent(ctx context.Context, release, reason, msg string, warning bool) error
	RetryRequestedAt(ctx context.Context, release string) (time.Time, error)
}

// Event reasons, as `kubectl get events` shows them.
const (
	reasonUpgraded       = "StaticExportRolledOut"
	reasonFailed         = "StaticExportRolloutFailed"
	reasonNeedsAttention = "StaticExportNeedsAttention"
	reasonRetrying       = "StaticExportRetrying"
)

// event records an Event when the Roller can; a failure to record is
// logged, never fatal: the renewal matters more than its announcement.
func (r *Runner) event(ctx context.Context, reason, msg string, warning bool) {
	n, ok := r.Roller.(notifier)
	if !ok || r.Opts.DryRun {
		return
	}
	if err := n.RecordEvent(ctx, r.Opts.Release, reason, msg, warning); err != nil {
		r.Log.Warn("cannot record an event on the release", "reason", reason, "error", err.Error())
	}
}

// awaitPerson marks the release as needing attention (an error log line,
// an Event, the needs_attention metric and a line of output) and waits,
// without retrying, until someone requests a retry after this moment or
// the release changes (a new revision or status: someone upgraded, rolled
// back or fixed it). It returns false when ctx ends first.
func (r *Runner) awaitPerson(ctx context.Context, cause error, failures int) bool {
	// The annotation holds whole seconds (RFC 3339): a retry asked for in
	// the second the loop gave up counts.
	since := r.Clock.Now().Truncate(time.Second)
	before := r.revisionOf(ctx)
	msg := fmt.Sprintf("stopped retrying release %s after %d failed attempts: %s; "+
		"retry with `rollout --retry --release %s --namespace %s`, or change the release",
		r.Opts.Release, failures, redact.Text(cause.Error()), r.Opts.Release, r.Opts.Namespace)
	r.Log.Error("release needs attention", "attempts", failures, "error", redact.Text(cause.Error()))
	_, _ = fmt.Fprintf(r.Out, "needs attention: %s\n", msg)
	r.Metrics.needsAttention(r.Opts.Namespace, r.Opts.Release, true)
	r.event(ctx, reasonNeedsAttention, msg, true)
	for {
		if r.Sleep(ctx, r.Recheck) != nil {
			return false
		}
		why := ""
		if n, ok := r.Roller.(notifier); ok {
			if at, err := n.RetryRequestedAt(ctx, r.Opts.Release); err == nil && !at.IsZero() && !at.Before(since) {
				why = "a retry was requested at " + at.Format(time.RFC3339)
			}
		}
		if now := r.revisionOf(ctx); why == "" && now != before {
			why = fmt.Sprintf("the release changed (%s, was %s)", now, before)
		}
		if why != "" {
			_, _ = fmt.Fprintf(r.Out, "retrying: %s\n", why)
			r.Log.Info("retrying a release that needed attention", "because", why)
			r.Metrics.needsAttention(r.Opts.Namespace, r.Opts.Release, false)
			r.event(ctx, reasonRetrying, "retrying: "+why, false)
			return true
		}
	}
}

// revisionOf says which revision the release is at, and in what status,
// for noticing that someone acted on it.
func (r *Runner) revisionOf(ctx context.Context) string {
	s, err := r.Roller.Current(ctx, r.Opts.Release)
	if err != nil || s == nil {
		return "no release"
	}
	return fmt.Sprintf("revision %d %s", s.Revision, s.Status)
}
