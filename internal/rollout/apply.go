package rollout

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/hashicorp/go-hclog"
	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/release"
	"helm.sh/helm/v3/pkg/storage/driver"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/redact"
)

// maxHistory matches the helm CLI's --history-max default. Without a bound a
// five-minute cron that renews links would grow a Secret per renewal forever.
const maxHistory = 10

// Apply makes the release carry the request's static export values. It
// creates no revision when the last revision is deployed with exactly these
// values (and, if Chart is set, that chart's name and version), so it is
// safe to call on a schedule.
func (r *Roller) Apply(ctx context.Context, req Request) (Result, error) {
	if err := validate(req); err != nil {
		return Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	want := desiredValues(req)
	log := r.log.With("release", req.Release, "namespace", r.namespace,
		"bundle_url", redact.URL(req.BundleURL), "version", req.Version, "expires_at", want.ExpiresAt)

	last, history, err := r.revisions(ctx, req.Release)
	if errors.Is(err, ErrReleaseNotFound) && req.Install {
		return r.install(ctx, req, want, last, log)
	}
	if err != nil {
		return Result{}, err
	}
	if last.Info.Status.IsPending() {
		if err := r.pending(req, last, history, log); err != nil {
			return Result{}, err
		}
		if last, history, err = r.lastRevision(req.Release); err != nil {
			return Result{}, err
		}
	}

	var ch *chart.Chart
	if req.Chart != "" {
		if ch, err = loadChart(req); err != nil {
			return Result{}, err
		}
	}

	if !req.Repair && last.Info.Status == release.StatusDeployed && effectiveValues(last) == want &&
		(ch == nil || sameChart(ch, last.Chart)) {
		log.Debug("release already carries the values; no new revision", "revision", last.Version)
		return Result{
			Revision:     last.Version,
			Status:       last.Info.Status.String(),
			ValuesDigest: want.digest(),
		}, nil
	}

	// Values come from the deployed revision, as helm upgrade takes them:
	// after a failed revision the deployed one is what runs. The chart is
	// the same revision's unless the request names one.
	base := deployedOrLast(history, last)
	if ch == nil {
		ch = base.Chart
	}
	vals := want.mergeInto(base.Config)

	atomic := req.OnFailure == RollBack
	up := action.NewUpgrade(r.withContext(ctx))
	up.Namespace = r.namespace
	// Atomic mode is ours, not Helm's: Helm's rollback waits for readiness
	// with the upgrade's full timeout and cannot be interrupted, which left
	// releases in pending-rollback when a signal arrived. See failed.
	up.Wait = req.Wait || atomic
	up.Timeout = timeout(ctx, req.Timeout)
	up.MaxHistory = maxHistory
	up.Description = description(req, "upgrade")
	up.Labels = revisionLabels(last, req.Labels)
	log.Info("upgrading release", "from_revision", last.Version, "from_status", last.Info.Status.String(),
		"atomic", atomic, "wait", up.Wait, "timeout", up.Timeout.String())
	// Helm gets a context that never ends: once it has started changing
	// objects it must record how that went. An interrupt reaches it through
	// the wait (withContext), the only step that takes long.
	rel, err := up.RunWithContext(context.WithoutCancel(ctx), req.Release, ch, vals)
	if err != nil && (atomic || ctx.Err() != nil) {
		to := 0
		if base.Info.Status == release.StatusDeployed {
			to = base.Version
		}
		err = r.failed(ctx, req.Release, last.Version, to, err, log)
	}
	return outcome("upgrade", req.Release, rel, err, want, log)
}

// failed rolls a failed upgrade back to revision to, for an atomic upgrade
// whose wait timed out and for any upgrade interrupted by its context: the
// release must end deployed, never failed or pending. Helm's error (its
// reason) stays in the chain.
func (r *Roller) failed(ctx context.Context, name string, from, to int, cause error, log hclog.Logger) error {
	if ctx.Err() != nil {
		log.Warn("interrupted; rolling back without waiting", "to_revision", to)
	} else {
		log.Warn("upgrade failed; rolling back", "to_revision", to, "error", redact.Text(cause.Error()))
	}
	rev, err := r.recoverFailedUpgrade(name, from, to)
	if err != nil {
		return fmt.Errorf("%w; the rollback failed too: %w", cause, err)
	}
	if rev == 0 {
		return cause
	}
	log.Info("rolled back", "revision", rev, "to_revision", to)
	return fmt.Errorf("%w; rolled back to revision %d (now revision %d)", cause, to, rev)
}

// install creates the release from the request's chart with only the static
// export values set; everything else takes the chart's defaults.
func (r *Roller) install(ctx context.Context, req Request, want staticValues, prev *release.Release, log hclog.Logger) (Result, error) {
	if req.Chart == "" {
		return Result{}, fmt.Errorf("install release %q: the request names no chart to install: %w", req.Release, ErrReleaseNotFound)
	}
	ch, err := loadChart(req)
	if err != nil {
		return Result{}, err
	}
	in := action.NewInstall(r.withContext(ctx))
	in.ReleaseName = req.Release
	in.Namespace = r.namespace
	in.Atomic = req.OnFailure == RollBack
	in.Wait = req.Wait || in.Atomic
	in.Timeout = timeout(ctx, req.Timeout)
	// A release uninstalled with --keep-history still owns its name.
	in.Replace = prev != nil
	in.CreateNamespace = req.CreateNamespace
	in.Description = description(req, "install")
	in.Labels = revisionLabels(prev, req.Labels)
	log.Info("installing release", "chart", ch.Metadata.Name+"-"+ch.Metadata.Version, "atomic", in.Atomic)
	// As in Apply: an interrupt reaches Helm through the wait only. Helm's
	// atomic install uninstalls without waiting, so it stays quick.
	rel, err := in.RunWithContext(context.WithoutCancel(ctx), ch, want.mergeInto(nil))
	if err != nil && !in.Atomic && ctx.Err() != nil {
		// An interrupted install is not left failed either.
		uerr := bounded("the uninstall", func() error {
			_, err := action.NewUninstall(r.cfg).Run(req.Release)
			return err
		})
		if uerr != nil {
			err = fmt.Errorf("%w; the uninstall failed too: %w", err, redact.Error(uerr))
		}
	}
	return outcome("install", req.Release, rel, err, want, log)
}

// outcome logs and reports what an install or upgrade did. Helm's error is
// returned wrapped, with any URL in its text redacted.
func outcome(op, name string, rel *release.Release, err error, want staticValues, log hclog.Logger) (Result, error) {
	if err != nil {
		log.Error(op+" failed", "error", redact.Text(err.Error()))
		return Result{}, fmt.Errorf("%s release %q: %w", op, name, redact.Error(err))
	}
	log.Info(op+" done", "revision", rel.Version, "status", rel.Info.Status.String())
	return Result{
		Revision:     rel.Version,
		Status:       rel.Info.Status.String(),
		ValuesDigest: want.digest(),
		Changed:      true,
		Installed:    op == "install",
	}, nil
}

// Current reads the static export values of the release's last revision,
// which is what Terraform compares with its state to detect drift (for
// example a `helm upgrade` by hand that changed or removed them). A release
// that is missing or uninstalled is ErrReleaseNotFound.
func (r *Roller) Current(ctx context.Context, name string) (*State, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	last, err := r.newest(ctx, name)
	if err != nil {
		return nil, err
	}
	s := stateOf(last)
	s.Release, s.Namespace = name, r.namespace // as asked, even if a record says otherwise
	return s, nil
}

// revisions is lastRevision, reading the whole history only when the
// newest revision is not deployed: an upgrade builds on the deployed
// revision, which then is the newest, and only a pending or failed
// newest revision needs the others (recovery, the revision to build on).
func (r *Roller) revisions(ctx context.Context, name string) (*release.Release, []*release.Release, error) {
	last, err := r.newest(ctx, name)
	if err == nil && last.Info.Status == release.StatusDeployed {
		return last, []*release.Release{last}, nil
	}
	return r.lastRevision(name)
}

// lastRevision returns the highest revision and the whole history. When the
// release does not exist it returns ErrReleaseNotFound; when it was
// uninstalled with --keep-history it returns that revision as well, so that
// an install can replace it.
func (r *Roller) lastRevision(name string) (*release.Release, []*release.Release, error) {
	history, err := r.cfg.Releases.History(name)
	if err != nil && !errors.Is(err, driver.ErrReleaseNotFound) {
		return nil, nil, fmt.Errorf("read history of release %q: %w", name, redact.Error(err))
	}
	var last *release.Release
	for _, rel := range history {
		if last == nil || rel.Version > last.Version {
			last = rel
		}
	}
	if last == nil {
		return nil, nil, fmt.Errorf("release %q in namespace %q: %w", name, r.namespace, ErrReleaseNotFound)
	}
	if last.Info.Status == release.StatusUninstalled {
		return last, history, fmt.Errorf("release %q in namespace %q was uninstalled: %w", name, r.namespace, ErrReleaseNotFound)
	}
	return last, history, nil
}

// lastDeployedBefore returns the newest revision older than rev that was
// deployed at some point, the target a person should roll back to.
func lastDeployedBefore(history []*release.Release, rev int) int {
	best := 0
	for _, rel := range history {
		s := rel.Info.Status
		if rel.Version < rev && rel.Version > best && (s == release.StatusDeployed || s == release.StatusSuperseded) {
			best = rel.Version
		}
	}
	return best
}

// deployedOrLast mirrors how helm upgrade picks the revision to build on.
func deployedOrLast(history []*release.Release, last *release.Release) *release.Release {
	var deployed *release.Release
	for _, rel := range history {
		if rel.Info.Status == release.StatusDeployed && (deployed == nil || rel.Version > deployed.Version) {
			deployed = rel
		}
	}
	if deployed == nil {
		return last
	}
	return deployed
}

func sameChart(a, b *chart.Chart) bool {
	if a == nil || b == nil || a.Metadata == nil || b.Metadata == nil {
		return false
	}
	return a.Metadata.Name == b.Metadata.Name && a.Metadata.Version == b.Metadata.Version
}

// timeout bounds Helm's waits by the context deadline as well: Helm's waits
// and the atomic rollback take a duration, not a context.
func timeout(ctx context.Context, d time.Duration) time.Duration {
	if d <= 0 {
		d = DefaultTimeout
	}
	if dl, ok := ctx.Deadline(); ok {
		if left := time.Until(dl); left < d {
			d = max(left, time.Second)
		}
	}
	return d
}

// description is what `helm history` shows for the revision. It carries the
// content version, never the link.
func description(req Request, op string) string {
	return fmt.Sprintf("static export %s: version %s", op, req.Version)
}

func validate(req Request) error {
	if req.Release == "" {
		return errors.New("release name is empty")
	}
	if req.Version == "" {
		// The version tells one content from another: without it a
		// release could not say which content it serves, and the chart's
		// pin (serve-bundle refusing other content) would be empty.
		return errors.New("version is empty")
	}
	if req.Chart == "" && (req.ChartRepo != "" || req.ChartVersion != "") {
		return errors.New("a chart repository or version needs a chart name")
	}
	u, err := url.Parse(req.BundleURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		// The parse error would quote the link; say what is wrong instead.
		return fmt.Errorf("bundle url %s is not an absolute http(s) url", redact.URL(req.BundleURL))
	}
	return nil
}
