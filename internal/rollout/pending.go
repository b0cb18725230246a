package rollout

import (
	"fmt"
	"maps"
	"strconv"
	"time"

	"github.com/hashicorp/go-hclog"
	"helm.sh/helm/v3/pkg/release"
)

// RecoverGrace is added to the timeout before RecoverPending takes over a
// pending revision: a live run of this tool has finished or given up on its
// revision by then (its wait ends at the timeout, its rollback is bounded
// by cleanupTimeout), so only a dead one can have left it.
const RecoverGrace = 2 * time.Minute

// labelRevision marks the revisions this package creates. Its value is the
// revision's own number because Helm copies custom labels into every later
// upgrade: a `helm upgrade` by hand after ours inherits the label, but with
// our revision's number, so it is never mistaken for ours.
const labelRevision = "docsadmin.dev/rollout-revision"

// revisionLabels are the labels of the revision an install or upgrade
// creates on top of last (nil for a first install): the request's labels
// and ours. Helm merges them into last's on an upgrade.
func revisionLabels(last *release.Release, req map[string]string) map[string]string {
	next := 1
	if last != nil {
		next = last.Version + 1
	}
	out := maps.Clone(req)
	if out == nil {
		out = map[string]string{}
	}
	out[labelRevision] = strconv.Itoa(next)
	return out
}

// createdHere reports whether this package created rel: an install or
// upgrade labelled with its own number, or the rollback it started right
// after such a revision failed.
func createdHere(rel *release.Release, history []*release.Release) bool {
	if rel.Labels[labelRevision] == strconv.Itoa(rel.Version) {
		return true
	}
	if rel.Info.Status != release.StatusPendingRollback {
		return false
	}
	for _, prev := range history {
		if prev.Version == rel.Version-1 {
			return prev.Labels[labelRevision] == strconv.Itoa(prev.Version)
		}
	}
	return false
}

// pending handles a release whose last revision is pending. Without
// req.RecoverPending, and for a revision it may not take over, it returns
// the PendingError (with the reason it did not recover). Otherwise it marks
// the revision failed and rolls back to the last deployed revision, after
// which Apply proceeds as usual.
func (r *Roller) pending(req Request, last *release.Release, history []*release.Release, log hclog.Logger) error {
	pe := &PendingError{
		Release:    req.Release,
		Namespace:  r.namespace,
		Revision:   last.Version,
		Status:     last.Info.Status.String(),
		RollbackTo: lastDeployedBefore(history, last.Version),
	}
	if !req.RecoverPending {
		return pe
	}
	stale := req.Timeout
	if stale <= 0 {
		stale = DefaultTimeout
	}
	stale += RecoverGrace
	age := r.clock.Now().Sub(last.Info.LastDeployed.Time)
	switch {
	case pe.RollbackTo == 0:
		pe.NotRecovered = "no earlier revision was deployed"
	case !createdHere(last, history):
		pe.NotRecovered = "the revision was not created by this tool"
	case age < stale:
		pe.RecoverableIn = stale - age
		pe.NotRecovered = fmt.Sprintf("the revision is only %s old; it may still be in progress until it is %s old",
			age.Round(time.Second), stale)
	}
	if pe.NotRecovered != "" {
		return pe
	}
	log.Warn("recovering a stale pending revision", "revision", last.Version, "status", pe.Status,
		"age", age.Round(time.Second).String(), "to_revision", pe.RollbackTo)
	if _, err := r.recoverFailedUpgrade(req.Release, last.Version-1, pe.RollbackTo); err != nil {
		return fmt.Errorf("recover %w: %w", pe, err)
	}
	return nil
}
