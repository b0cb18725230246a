package apiserver

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/bundles"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export"
)

// maxAttempts bounds how often a job interrupted by crashes is restarted,
// so a source that crashes the server cannot crash it forever.
const maxAttempts = 3

// liveJob holds the progress of a job being rendered. Progress changes many
// times a second; it is served from memory rather than written to the
// store each time, and a restart re-renders the job anyway.
type liveJob struct {
	// attempt is the job as this render's attempt claimed it: only a
	// record jobstore.Holds finds still that attempt's is overlaid.
	attempt   jobstore.ExportJob
	mu        sync.Mutex
	progress  float64
	pageCount int
	updatedAt time.Time
	warnings  *api.ExportWarnings
}

// warn records one warning of the running export.
func (l *liveJob) warn(w export.Warning) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.warnings == nil {
		l.warnings = &api.ExportWarnings{}
	}
	l.warnings.Add(w.Kind, w.Message)
}

// overlay puts the render's progress on rec, the job as the store holds
// it, while that is still this render's attempt: not once the store says
// the job ended, or that another attempt (a takeover, or a state the
// control plane forced) holds it, which the entry can outlive briefly.
func (l *liveJob) overlay(rec *jobstore.ExportJob) {
	if !jobstore.Holds(rec, &l.attempt) {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	rec.Progress, rec.PageCount, rec.UpdatedAt = l.progress, l.pageCount, l.updatedAt
	if l.warnings != nil {
		w := *l.warnings
		w.Messages = append([]string(nil), w.Messages...) // the export may still add
		w.ByKind = maps.Clone(w.ByKind)
		rec.Warnings = &w
	}
}

// overlayLive puts the progress of rec's render on it, if one runs here.
func (er *exportRunner) overlayLive(rec *jobstore.ExportJob) {
	if lj, ok := er.live.Load(rec.JobID); ok {
		lj.(*liveJob).overlay(rec)
	}
}

// runExport renders one claimed job while holding its lease, and has the
// bundles store publish its archive. Interrupted by shutdown, the job
// stays "running" in the store until its lease ends; then any worker
// (here after a restart, or another replica) resumes it.
//
// When publishing waits on the network (bundles.Store.Detached: the
// bucket), the worker only renders: the upload and the outcome go to a
// goroutine of their own, so the worker claims and renders its next job
// while the bucket stores this one. A render keeps a core busy, an upload
// waits on the network; run one after the other, a worker spent a third
// of each export of the demo site waiting. uploads holds a slot for each
// of the worker's uploads in flight (see uploadsPerWorker): with all
// taken, the worker waits for one before it hands over another, so a
// server renders at most exportWorkers jobs at once and holds at most
// 1+uploadsPerWorker times that many.
func (er *exportRunner) runExport(rec *jobstore.ExportJob, uploads chan struct{}) {
	id := rec.JobID
	if rec.Attempts > maxAttempts {
		er.finishExport(rec, fmt.Errorf("export was interrupted %d times and is not retried again", maxAttempts))
		return
	}
	lj := &liveJob{attempt: *rec, updatedAt: rec.UpdatedAt}
	er.live.Store(id, lj)
	ctx, held, release := er.holdLease(rec, lj)
	// kept says this attempt's archive is the job's; otherwise whatever
	// it stored is removed. Settled while the lease is still held: nobody
	// else uses this attempt's place anyway.
	var kept bool
	end := func() {
		// Runs at shutdown too, when the server's context has ended.
		er.bundles.Settle(context.WithoutCancel(er.ctx), rec, kept)
		release()
		er.live.Delete(id)
	}

	if h := er.hooks.beforeRender.Load(); h != nil {
		(*h)(id)
	}
	start := time.Now()
	if man, ok, err := er.bundles.Resume(ctx, rec); ok || err != nil {
		defer end()
		kept = er.recordOutcome(ctx, rec, man, err, start)
		return
	}
	spool, err := er.newSpool()
	var man *bundle.Manifest
	if err == nil {
		earlier, record := er.previousArchive(ctx, rec)
		if earlier != nil {
			spool.ReuseArchive(earlier)
		}
		man, err = er.exportInto(ctx, rec, lj, spool, record)
	}
	rec.Warnings = lj.warnings // the export has returned: no more writers
	attempt := &bundles.Attempt{
		Job: rec, Manifest: man, Site: spool, Rendered: time.Since(start), Reused: spool.Copied,
		Holds: func(ctx context.Context) error { return er.stillHolds(ctx, rec) },
		Fresh: func() bool { return held.fresh(er.leaseClock.Now()) },
	}
	if err == nil {
		attempt.Record = spool.Sidecar()
	}
	publish := func() {
		defer end()
		defer er.closeSpool(id, spool) // after the outcome: the client need not wait for it
		if err == nil {
			err = er.publish(ctx, attempt)
		}
		kept = er.recordOutcome(ctx, rec, man, err, start)
	}
	if err != nil || !er.bundles.Detached() {
		publish() // nothing to upload, or nothing to wait for
		return
	}
	uploads <- struct{}{}
	er.workers.Add(1) // Close waits for the upload as for the worker
	go func() {
		defer er.workers.Done()
		defer func() { <-uploads }()
		publish()
	}()
}

// publish has the bundles store publish the attempt's archive.
func (er *exportRunner) publish(ctx context.Context, a *bundles.Attempt) error {
	start := time.Now()
	if err := er.bundles.Publish(ctx, a); err != nil {
		return err
	}
	er.metrics.ArchiveBuilt(nil, time.Since(start))
	return nil
}

// exportInto renders rec's site into out, bounded by the export timeout,
// with progress going to lj, reusing the pages of the earlier export
// whose render record is previous (nil: none). It is the one place a
// render is asked for.
func (er *exportRunner) exportInto(leaseCtx context.Context, rec *jobstore.ExportJob, lj *liveJob, out export.Output, previous []byte) (*bundle.Manifest, error) {
	_, dep := er.orgDeployment(rec.OrgID, rec.Domain)
	if dep == nil {
		return nil, fmt.Errorf("deployment %q is no longer configured", rec.Domain)
	}
	limit := er.exportTimeout
	reused := 0 // pages taken from the earlier export
	ctx, cancel := context.WithTimeout(leaseCtx, limit)
	defer cancel()
	man, err := er.exporter.ExportTo(ctx, export.Request{
		Source: dep.SourceFS, Domain: rec.Domain, BasePath: dep.ExportBasePath(), Kind: dep.ExportKind(), Label: rec.Label,
		Paths: rec.Paths, Features: dep.Features, Warn: lj.warn, Previous: previous,
	}, out, func(p export.Progress) {
		lj.mu.Lock()
		defer lj.mu.Unlock()
		if p.Total > 0 {
			// 100 is kept for "completed": the job is not done until the
			// site is published (renamed into place, or uploaded).
			lj.progress = float64(min(99, p.Done*100/p.Total))
		}
		lj.pageCount = p.Done
		lj.updatedAt = er.clock.Now().UTC()
		reused = p.Reused
	})
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) && leaseCtx.Err() == nil {
			return nil, fmt.Errorf("the export took longer than the limit of %s and was stopped", limit)
		}
		return nil, err
	}
	er.pagesReused.Add(int64(reused))
	return man, nil
}

// recordOutcome stores how the attempt ended, unless it was interrupted
// (handed back at shutdown) or lost to another worker, and reports
// whether its archive became the job's.
func (er *exportRunner) recordOutcome(leaseCtx context.Context, rec *jobstore.ExportJob, man *bundle.Manifest, err error, start time.Time) (kept bool) {
	id := rec.JobID
	switch {
	case er.ctx.Err() != nil:
		// Hand the job back rather than make the next claim wait for
		// the lease to run out: a graceful shutdown is not a crash.
		if err := er.store.RenewLease(context.WithoutCancel(er.ctx), rec, time.Time{}); err != nil {
			er.log.Warn("release export lease at shutdown; it is resumed when the lease ends", "job", id, "error", err)
		}
		er.log.Info("export interrupted by shutdown; it resumes on another worker or the next start", "job", id)
		return false
	case errors.Is(err, jobstore.ErrLeaseLost) || leaseCtx.Err() != nil:
		er.log.Warn("export lease lost; another worker has taken the job over", "job", id, "attempt", rec.Attempts)
		return false
	}
	if err == nil {
		rec.PageCount, rec.Version = man.PageCount, man.Version
	}
	stored := er.finishExport(rec, err)
	er.metrics.ExportFinished(rec.Status, time.Since(start))
	return stored && rec.Status == api.ExportCompleted
}

// finishExport records the attempt's outcome and reports whether it was
// stored (false: the job was taken over or deleted, or the server stopped).
func (er *exportRunner) finishExport(rec *jobstore.ExportJob, err error) bool {
	rec.UpdatedAt = er.clock.Now().UTC()
	if err != nil {
		rec.Status, rec.Error = api.ExportFailed, er.exportErrorText(err)
		er.log.Warn("export failed", "job", rec.JobID, "error", err)
	} else {
		rec.Status, rec.Progress, rec.Error = api.ExportCompleted, 100, ""
	}
	return er.completeUntilStored(rec)
}

// exportErrorText is a failed export's error as clients read it. The
// renderer's messages name pages and settings of the docs source, and
// stay; a file operation that failed names a server path (under the data
// dir, most often), which is the operator's business: the client reads
// the operation and its cause, the log (export failed) the whole error.
func (er *exportRunner) exportErrorText(err error) string {
	msg := err.Error()
	var (
		pe *fs.PathError
		le *os.LinkError
	)
	if errors.As(err, &pe) {
		msg = strings.Replace(msg, pe.Error(), pe.Op+": "+pe.Err.Error(), 1)
	}
	if errors.As(err, &le) {
		msg = strings.Replace(msg, le.Error(), le.Op+": "+le.Err.Error(), 1)
	}
	// Whatever else mentions the data dir.
	for _, dir := range []string{er.dataDir, absDir(er.dataDir)} {
		if dir != "" && dir != "." {
			msg = strings.ReplaceAll(msg, dir, "<data dir>")
		}
	}
	return msg
}

func absDir(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	return abs
}

// Back-off between attempts to write a job record the store refused.
const (
	storeRetryFirst = 100 * time.Millisecond
	storeRetryMax   = 5 * time.Second
)

// completeUntilStored writes the outcome of rec's attempt, retrying with
// back-off while the store refuses (a full disk, a lost database): a
// worker that gave up would leave the job running until its lease ends.
// It stops when the server shuts down (the lease then lapses and the job
// is rendered again) or when the job was taken over, whose new owner
// writes the outcome instead.
func (er *exportRunner) completeUntilStored(rec *jobstore.ExportJob) bool {
	wait := storeRetryFirst
	for attempt := 1; ; attempt++ {
		err := er.store.CompleteAttempt(er.ctx, rec)
		switch {
		case err == nil:
			if attempt > 1 {
				er.log.Info("store export job succeeded after retries", "job", rec.JobID, "attempts", attempt)
			}
			return true
		case errors.Is(err, jobstore.ErrLeaseLost), errors.Is(err, jobstore.ErrNoRecord):
			er.log.Warn("export outcome discarded: the job was taken over or deleted", "job", rec.JobID, "attempt", rec.Attempts)
			return false
		}
		er.log.Error("store export job; retrying", "job", rec.JobID, "status", rec.Status, "attempt", attempt, "error", err)
		er.metrics.StoreFailed("complete")
		t := time.NewTimer(wait)
		select {
		case <-er.ctx.Done():
			t.Stop()
			return false
		case <-t.C:
		}
		wait = min(2*wait, storeRetryMax)
	}
}
