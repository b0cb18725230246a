package rolloutcmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
)

// Drift modes (--drift).
const (
	driftOff     = "off"
	driftWarn    = "warn"
	driftCorrect = "correct"
)

// reasonDrift is the Event reason for objects that differ from the release.
const reasonDrift = "StaticExportDrift"

// drifter is what a Roller on a cluster offers to compare the release's
// objects with the cluster.
type drifter interface {
	Drift(ctx context.Context, release string, ignore []string) ([]rollout.Drift, error)
}

// drift checks, once the release carries the right link, whether its
// objects still match it. warn says so (output, a warning log line, an
// Event, the metric); correct upgrades the release with the same values
// and link, which makes Helm put the objects back, and says what it put
// back. A failed check is an error like any other.
func (r *Runner) drift(ctx context.Context, l link) error {
	d, ok := r.Roller.(drifter)
	if r.Opts.Drift == "" || r.Opts.Drift == driftOff || !ok {
		return nil
	}
	found, err := d.Drift(ctx, r.Opts.Release, r.Opts.DriftIgnore)
	if err != nil {
		return fmt.Errorf("check drift: %w", err)
	}
	r.Metrics.drifted(r.Opts.Namespace, r.Opts.Release, len(found))
	if len(found) == 0 {
		r.warnedDrift = ""
		return nil
	}
	lines := make([]string, len(found))
	for i, f := range found {
		lines[i] = f.String()
	}
	what := strings.Join(lines, "; ")
	if r.Opts.Drift == driftWarn {
		// Said once per drift: each recheck that finds the same
		// differences keeps the metric up but adds no output line, log
		// warning or Event; a change in what differs is said again.
		if what == r.warnedDrift {
			r.Log.Debug("release objects still differ from the release", "drift", what)
			return nil
		}
		r.warnedDrift = what
		_, _ = fmt.Fprintf(r.Out, "drift (not corrected, --drift warn): %s\n", what)
		r.Log.Warn("release objects differ from the release", "drift", what)
		r.event(ctx, reasonDrift, "objects differ from the release: "+what, true)
		return nil
	}
	_, _ = fmt.Fprintf(r.Out, "correcting drift: %s\n", what)
	r.Log.Warn("correcting drift", "drift", what)
	r.event(ctx, reasonDrift, "correcting: "+what, true)
	if err := r.applyRepair(ctx, l, true); err != nil {
		return err
	}
	r.Metrics.drifted(r.Opts.Namespace, r.Opts.Release, 0)
	return nil
}
