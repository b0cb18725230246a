package rollout

import (
	"context"
	"errors"
	"fmt"
	"time"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/kube"
	"helm.sh/helm/v3/pkg/release"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/redact"
)

// cleanupTimeout bounds what runs after the caller's context has ended or
// the wait has failed: marking the revision failed and rolling back. The
// caller's context cannot bound it (it may be the cancelled one), yet an
// interrupted CLI must stop within seconds, so the rollback does not wait
// for readiness, only for the API to accept the previous objects.
const cleanupTimeout = 20 * time.Second

var (
	_ kube.Interface              = (*ctxKube)(nil)
	_ kube.InterfaceThreeWayMerge = (*ctxKube)(nil)
)

// ctxKube makes Helm's readiness waits end with a context. Helm's Wait takes
// only a duration and its upgrade goroutine keeps waiting after
// RunWithContext's context ends; with this wrapper the wait returns the
// context's error at once, so Helm records the revision failed and returns,
// and Apply rolls back. Everything else goes to the wrapped client.
type ctxKube struct {
	kube.Interface
	ctx context.Context
}

func (k *ctxKube) Wait(rl kube.ResourceList, d time.Duration) error {
	return k.wait(func() error { return k.Interface.Wait(rl, d) })
}

func (k *ctxKube) WaitWithJobs(rl kube.ResourceList, d time.Duration) error {
	return k.wait(func() error { return k.Interface.WaitWithJobs(rl, d) })
}

// wait runs Helm's wait on its own goroutine. When the context ends first
// that goroutine lives on until Helm's timeout, polling only; nothing reads
// its answer.
func (k *ctxKube) wait(f func() error) error {
	if err := k.ctx.Err(); err != nil {
		return fmt.Errorf("interrupted before waiting for resources: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		if errors.Is(err, context.DeadlineExceeded) {
			// Helm's own timeout says only "context deadline exceeded".
			return fmt.Errorf("resources not ready within the timeout: %w", err)
		}
		return err
	case <-k.ctx.Done():
		return fmt.Errorf("interrupted while waiting for resources: %w", k.ctx.Err())
	}
}

// UpdateThreeWayMerge is asserted by Helm's install when it adopts
// resources; forward it when the wrapped client has it.
func (k *ctxKube) UpdateThreeWayMerge(original, target kube.ResourceList, force bool) (*kube.Result, error) {
	if m, ok := k.Interface.(kube.InterfaceThreeWayMerge); ok {
		return m.UpdateThreeWayMerge(original, target, force)
	}
	return k.Update(original, target, force)
}

// withContext returns a copy of the Helm configuration whose waits end
// with ctx. The copy shares storage and clients with r.cfg.
func (r *Roller) withContext(ctx context.Context) *action.Configuration {
	ac := *r.cfg
	ac.KubeClient = &ctxKube{Interface: r.cfg.KubeClient, ctx: ctx}
	return &ac
}

// bounded runs f, which cannot take a context (Helm's rollback and
// storage), for at most cleanupTimeout. If f overruns, its goroutine is
// left to finish and the caller learns why it stopped waiting.
func bounded(what string, f func() error) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	t := time.NewTimer(cleanupTimeout)
	defer t.Stop()
	select {
	case err := <-done:
		return err
	case <-t.C:
		return fmt.Errorf("%s did not finish within %s", what, cleanupTimeout)
	}
}

// recoverFailedUpgrade runs after a failed upgrade of release name from
// revision from. If Helm created a revision (it got past rendering), that
// revision is failed or, if Helm stopped half-way, still pending; it is
// marked failed and the release rolled back to revision to, without waiting
// for readiness: the previous objects were ready before, and a wait here
// could not be interrupted again without leaving pending-rollback behind.
// It returns the rollback's revision, or 0 when nothing was rolled back.
func (r *Roller) recoverFailedUpgrade(name string, from, to int) (int, error) {
	var rev int
	err := bounded("the rollback", func() error {
		last, err := r.cfg.Releases.Last(name)
		if err != nil {
			return fmt.Errorf("read release %q: %w", name, err)
		}
		if last.Version <= from {
			return nil // Helm failed before it recorded anything
		}
		if last.Info.Status.IsPending() {
			last.SetStatus(release.StatusFailed, "static export upgrade interrupted")
			if err := r.cfg.Releases.Update(last); err != nil {
				return fmt.Errorf("mark revision %d failed: %w", last.Version, err)
			}
		}
		if to == 0 {
			return nil
		}
		rb := action.NewRollback(r.cfg)
		rb.Version = to
		rb.MaxHistory = maxHistory
		if err := rb.Run(name); err != nil {
			return fmt.Errorf("roll back to revision %d: %w", to, redact.Error(err))
		}
		rev = last.Version + 1
		return nil
	})
	return rev, err
}
