package rolloutcmd

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/client"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
)

// Watch-loop pacing: failures back off from minBackoff to maxBackoff; while
// healthy the loop wakes at least every recheck (Runner.Recheck) to undo
// drift.
const (
	minBackoff = 5 * time.Second
	maxBackoff = 5 * time.Minute
	recheck    = time.Minute
	// defaultDownloadTimeout bounds reading a bundle's manifest when the
	// API does not send the version. Only the archive's head is read, so
	// this is generous.
	defaultDownloadTimeout = 30 * time.Second
)

// link is a bundle link with the content version it serves.
type link struct {
	jobID, url, version string
	expiresAt           time.Time
}

// Run performs one rollout, or loops with --watch until ctx ends.
func (r *Runner) Run(ctx context.Context) int {
	if r.Sleep == nil {
		r.Sleep = clock.Sleep
	}
	if r.Recheck == 0 {
		r.Recheck = recheck
	}
	if r.Opts.Watch {
		return r.watch(ctx)
	}
	return r.report(r.once(ctx))
}

// once is a single run, as from cron: it creates a revision only when the
// release lacks this content or its link expires within --renew-before.
func (r *Runner) once(ctx context.Context) error {
	state, err := r.current(ctx)
	if err != nil {
		return err
	}
	if state != nil && r.Opts.Chart != "" && !r.sameChart(state) {
		// A chart named on the command line that the release does not run
		// yet: upgrade whatever the link and content say.
		state = nil
	}
	// The cheap path: an explicit version already rolled out with a link
	// that stays valid. No API call at all.
	if r.Opts.JobID != "" && r.Opts.Version != "" && r.reusable(state, r.Opts.Version) {
		return nil
	}
	jobID := r.Opts.JobID
	if jobID == "" {
		if jobID, err = r.export(ctx); err != nil {
			return err
		}
	} else if err := r.waitJob(ctx, jobID); err != nil {
		return err
	}
	l, err := r.bundle(ctx, jobID)
	if err != nil {
		return err
	}
	if r.reusable(state, l.version) {
		return nil
	}
	return r.apply(ctx, l)
}

// watch keeps the release on a live link: it renews the link of the same
// job renew-before ahead of its expiry, re-exports every --reexport-every,
// re-checks the release every Recheck to undo drift, and backs off on
// errors. After --max-retries failures in a row (or at once, in a fleet,
// for a release that needs a person) it stops retrying and marks the
// release as needing attention until a retry is requested or the release
// changes. Outside a fleet, a usage problem or a release that needs a
// person ends it; SIGTERM ends it cleanly.
func (r *Runner) watch(ctx context.Context) int {
	var (
		cur        *link
		jobID      = r.Opts.JobID
		lastExport time.Time
		backoff    = minBackoff
		failures   int
	)
	for {
		err := r.withSlot(ctx, func() error {
			if jobID == "" || (r.Opts.ReexportEvery > 0 && !r.Clock.Now().Before(lastExport.Add(r.Opts.ReexportEvery))) {
				// Read the release before the first export: a release this
				// process may not touch (RBAC, a missing namespace) fails
				// here, without a render it could never roll out.
				if cur == nil {
					if _, err := r.current(ctx); err != nil {
						return err
					}
				}
				id, err := r.export(ctx)
				if err != nil {
					return err
				}
				jobID, lastExport, cur = id, r.Clock.Now(), nil
			}
			if cur == nil || !r.Clock.Now().Add(r.Opts.RenewBefore).Before(cur.expiresAt) {
				l, err := r.bundle(ctx, jobID)
				if err != nil {
					return err
				}
				cur = &l
			}
			state, err := r.current(ctx)
			if err != nil {
				return err
			}
			if state != nil && state.Enabled && state.BundleURL == cur.url && state.Version == cur.version && state.Status == "deployed" {
				return r.drift(ctx, *cur)
			}
			return r.apply(ctx, *cur)
		})
		if ctx.Err() != nil {
			if err != nil {
				// Interrupted mid-upgrade: say what became of the release
				// (rolled back) before stopping.
				r.report(err)
			}
			fmt.Fprintln(r.Out, "stopped")
			return ExitOK
		}
		wait := r.Recheck
		var pending *rollout.PendingError
		switch {
		case errors.As(err, &pending) && pending.RecoverableIn > 0:
			// --recover-pending will take it over once it is stale.
			r.report(err)
			wait = pending.RecoverableIn
		case err != nil:
			code := r.report(err)
			r.Metrics.failed(r.Opts.Namespace, r.Opts.Release)
			r.event(ctx, reasonFailed, "renewal failed: "+err.Error(), true)
			failures++
			if (code == ExitUsage || code == ExitNeedsPerson) && !r.fleet {
				return code
			}
			if code == ExitNeedsPerson || (r.Opts.MaxRetries > 0 && failures > r.Opts.MaxRetries) {
				if !r.awaitPerson(ctx, err, failures) {
					fmt.Fprintln(r.Out, "stopped")
					return ExitOK
				}
				failures, backoff, cur = 0, minBackoff, nil
				continue
			}
			wait, backoff = backoff, min(2*backoff, maxBackoff)
		default:
			failures, backoff = 0, minBackoff
			r.Metrics.renewed(r.Opts.Namespace, r.Opts.Release, cur.expiresAt, r.Clock.Now())
			if d := cur.expiresAt.Add(-r.Opts.RenewBefore).Sub(r.Clock.Now()); d < wait {
				wait = d
			}
			if r.Opts.ReexportEvery > 0 {
				if d := lastExport.Add(r.Opts.ReexportEvery).Sub(r.Clock.Now()); d < wait {
					wait = d
				}
			}
		}
		wait = max(wait, time.Second)
		r.Log.Debug("next check", "in", wait.Round(time.Second))
		if r.Sleep(ctx, wait) != nil {
			fmt.Fprintln(r.Out, "stopped")
			return ExitOK
		}
	}
}

// withSlot runs work once one of the fleet's slots is free (at once
// outside a fleet), so at most --parallel releases work at a time while
// the others sleep without holding one.
func (r *Runner) withSlot(ctx context.Context, work func() error) error {
	if r.slots == nil {
		return work()
	}
	select {
	case r.slots <- struct{}{}:
	case <-ctx.Done():
		return nil
	}
	defer func() { <-r.slots }()
	return work()
}

// current reads the release; a missing one is fine when --install is set.
func (r *Runner) current(ctx context.Context) (*rollout.State, error) {
	state, err := r.Roller.Current(ctx, r.Opts.Release)
	if errors.Is(err, rollout.ErrReleaseNotFound) && r.Opts.Install {
		return nil, nil
	}
	return state, err
}

// sameChart reports whether the release already runs the chart --chart
// (with --repo and --chart-version) names, by name and version as Helm
// records them. A chart that cannot be loaded counts as different: the
// upgrade that follows reports why.
func (r *Runner) sameChart(state *rollout.State) bool {
	id, err := rollout.ChartID(r.Opts.Request)
	if err != nil || id != state.Chart {
		if err == nil {
			fmt.Fprintf(r.Out, "release %s runs chart %s; upgrading to %s\n", r.Opts.Release, state.Chart, id)
		}
		return false
	}
	return true
}

// reusable reports (and says) that the release already serves version with
// a link valid beyond --renew-before.
func (r *Runner) reusable(state *rollout.State, version string) bool {
	if state == nil || state.Version != version || !state.LinkValid(r.Clock.Now(), r.Opts.RenewBefore) {
		return false
	}
	fmt.Fprintf(r.Out, "release %s revision %d already carries version %s with a link valid until %s; nothing to do\n",
		r.Opts.Release, state.Revision, version, state.ExpiresAt.Format(time.RFC3339))
	return true
}

// bundle gets a fresh link for a completed job and the content version it
// serves: --version, else the content version client.BundleVersion finds
// (the API's answer, else the archive's manifest). A version it cannot
// find fails the run: the job id is not a content version.
func (r *Runner) bundle(ctx context.Context, jobID string) (link, error) {
	b, err := r.API.GenerateBundle(ctx, jobID)
	if err != nil {
		return link{}, err
	}
	version := r.Opts.Version
	if version == "" {
		if version, err = client.BundleVersion(ctx, b, r.downloadClient()); err != nil {
			return link{}, fmt.Errorf("%w; give --version to roll it out anyway", err)
		}
	}
	return link{jobID: jobID, url: b.BundleURL, version: version, expiresAt: b.ExpiresAt}, nil
}

func (r *Runner) apply(ctx context.Context, l link) error {
	return r.applyRepair(ctx, l, false)
}

// applyRepair is apply; repair forces a revision even with unchanged
// values, so that Helm puts drifted objects back.
func (r *Runner) applyRepair(ctx context.Context, l link, repair bool) error {
	if r.Opts.DryRun {
		fmt.Fprintf(r.Out, "dry run: would upgrade release %s to version %s with a link (job %s) valid until %s\n",
			r.Opts.Release, l.version, l.jobID, l.expiresAt.Format(time.RFC3339))
		return nil
	}
	req := r.Opts.Request
	req.BundleURL, req.Version, req.ExpiresAt, req.Repair = l.url, l.version, l.expiresAt, repair
	res, err := r.Roller.Apply(ctx, req)
	if err != nil {
		return err
	}
	verb := "upgraded"
	if res.Installed {
		verb = "installed"
	}
	if res.Changed || res.Installed {
		r.event(ctx, reasonUpgraded, fmt.Sprintf("%s to revision %d: version %s, link valid until %s",
			verb, res.Revision, l.version, l.expiresAt.Format(time.RFC3339)), false)
	}
	fmt.Fprintf(r.Out, "%s release %s: revision %d (%s), version %s, link valid until %s\n",
		verb, r.Opts.Release, res.Revision, res.Status, l.version, l.expiresAt.Format(time.RFC3339))
	return nil
}

func (r *Runner) export(ctx context.Context) (string, error) {
	job, err := r.API.StartExport(ctx, api.StartExportRequest{Domain: r.Opts.Domain})
	if err != nil {
		return "", err
	}
	fmt.Fprintf(r.Out, "started export %s of %s\n", job.JobID, r.Opts.Domain)
	return job.JobID, r.waitJob(ctx, job.JobID)
}

func (r *Runner) waitJob(ctx context.Context, id string) error {
	bar := newProgress(r.Out, r.TTY, id)
	defer bar.done()
	job, err := r.API.WaitExport(ctx, id, bar.update)
	bar.done()
	printWarnings(r.Out, id, job.Warnings)
	return err
}

// report prints err for a person and maps it to an exit code.
func (r *Runner) report(err error) int {
	if err == nil {
		return ExitOK
	}
	var (
		failed  *client.JobFailedError
		pending *rollout.PendingError
	)
	code := ExitFailed
	switch {
	case errors.As(err, &failed):
		code = ExitExportFailed
	case errors.As(err, &pending), errors.Is(err, rollout.ErrReleaseNotFound):
		code = ExitNeedsPerson
	}
	r.Log.Error("rollout failed", "error", err.Error())
	fmt.Fprintf(r.Out, "rollout failed: %v\n", err)
	return code
}

// downloadClient is Runner.Download or, by default, a client whose timeout
// bounds the whole exchange: a stalled bundle server must not hang a cron
// run (http.DefaultClient has no timeout at all).
func (r *Runner) downloadClient() *http.Client {
	if r.Download != nil {
		return r.Download
	}
	return &http.Client{Timeout: defaultDownloadTimeout}
}
