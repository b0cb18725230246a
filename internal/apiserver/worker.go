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
	"sync/atomic"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/redact"
)

// maxAttempts bounds how often a job interrupted by crashes is restarted,
// so a source that crashes the server cannot crash it forever.
const maxAttempts = 3

// exportRunner renders export jobs: the workers that claim them and hold
// their leases, the files and objects of a render, the archive a bundle
// link points to, and the sweep of what passed the retention. The
// handlers only store jobs and read them back; everything that happens to
// a job afterwards happens here.
type exportRunner struct {
	// srv is the server whose store, clock, exporter and object store
	// the runner works with.
	srv *Server
	// sites publishes rendered sites and archives to the object store
	// when the server has one (objects.go).
	sites *sitePublisher
	// idle counts the workers waiting for a wake (idle.go).
	idle idleWorkers
	// reused counts the archive entries copied from earlier archives
	// (reuse.go).
	reused atomic.Int64
}

// objectsReady is the publisher's bucket check, which the handlers
// starting exports and answering readiness probes ask.
func (er *exportRunner) objectsReady(ctx context.Context) error { return er.sites.objectsReady(ctx) }

// Files of a job live in <data-dir>/exports/<jobId>/: its archive,
// renamed into place only when complete (local.go). Jobs completed by
// servers before the archive was made at completion have their rendered
// site in site/ instead, archived beside it at the first bundle call.
func (er *exportRunner) jobDir(id string) string  { return filepath.Join(er.srv.dataDir, "exports", id) }
func (er *exportRunner) siteDir(id string) string { return filepath.Join(er.jobDir(id), "site") }
func (er *exportRunner) bundlePath(id string) string {
	return filepath.Join(er.jobDir(id), api.BundleFileName)
}

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

// runExport renders one claimed job while holding its lease. Interrupted
// by shutdown, the job stays "running" in the store until its lease ends;
// then any worker (here after a restart, or another replica) resumes it.
//
// With an object store the worker only renders: the site's archive, its
// upload and the outcome go to a goroutine of their own, so the worker
// claims and renders its next job while the bucket stores this one. A
// render keeps a core busy, an upload waits on the network; run one after the
// other, a worker spent a third of each export of the demo site waiting.
// uploads holds a slot for each of the worker's uploads in flight (see
// uploadsPerWorker): with all taken, the worker waits for one before it
// hands over another, so a server renders at most exportWorkers jobs at
// once and holds at most 1+uploadsPerWorker times that many.
func (er *exportRunner) runExport(rec *jobstore.ExportJob, uploads chan struct{}) {
	s := er.srv
	id := rec.JobID
	if rec.Attempts > maxAttempts {
		er.finishExport(rec, fmt.Errorf("export was interrupted %d times and is not retried again", maxAttempts))
		return
	}
	lj := &liveJob{attempt: *rec, updatedAt: rec.UpdatedAt}
	s.live.Store(id, lj)
	ctx, held, release := er.holdLease(rec, lj)
	// kept says this attempt's site is the job's; otherwise whatever it
	// uploaded is removed. Settled while the lease is still held: nobody
	// else uses this attempt's prefix anyway.
	var kept bool
	end := func() {
		if s.objects != nil {
			er.sites.settleSiteObjects(rec, kept)
		}
		release()
		s.live.Delete(id)
	}

	if h := s.leaseHooks.beforeRender.Load(); h != nil {
		(*h)(id)
	}
	start := time.Now()
	if s.objects == nil {
		defer end()
		man, err := er.render(ctx, rec, lj)
		rec.Warnings = lj.warnings // the export has returned: no more writers
		kept = er.recordOutcome(ctx, rec, man, err, start)
		return
	}
	spool, man, err := er.renderToSpool(ctx, rec, lj)
	rec.Warnings = lj.warnings
	publish := func() {
		defer end()
		defer er.sites.closeSpool(rec.JobID, spool) // after the outcome: the client need not wait for it
		if err == nil {
			err = er.sites.publishSite(ctx, rec, man, spool, held)
		}
		kept = er.recordOutcome(ctx, rec, man, err, start)
	}
	if err != nil {
		publish() // nothing to upload
		return
	}
	uploads <- struct{}{}
	s.workers.Add(1) // Close waits for the upload as for the worker
	go func() {
		defer s.workers.Done()
		defer func() { <-uploads }()
		publish()
	}()
}

// recordOutcome stores how the attempt ended, unless it was interrupted
// (handed back at shutdown) or lost to another worker, and reports
// whether its site became the job's.
func (er *exportRunner) recordOutcome(leaseCtx context.Context, rec *jobstore.ExportJob, man *bundle.Manifest, err error, start time.Time) (kept bool) {
	s := er.srv
	id := rec.JobID
	switch {
	case s.ctx.Err() != nil:
		// Hand the job back rather than make the next claim wait for
		// the lease to run out: a graceful shutdown is not a crash.
		if err := s.store.RenewLease(rec, time.Time{}); err != nil {
			s.log.Warn("release export lease at shutdown; it is resumed when the lease ends", "job", id, "error", err)
		}
		s.log.Info("export interrupted by shutdown; it resumes on another worker or the next start", "job", id)
		return false
	case errors.Is(err, jobstore.ErrLeaseLost) || leaseCtx.Err() != nil:
		s.log.Warn("export lease lost; another worker has taken the job over", "job", id, "attempt", rec.Attempts)
		return false
	}
	if err == nil {
		rec.PageCount, rec.Version = man.PageCount, man.Version
	}
	stored := er.finishExport(rec, err)
	s.metrics.ExportFinished(rec.Status, time.Since(start))
	return stored && rec.Status == api.ExportCompleted
}

// exportInto renders rec's site into out, bounded by the export timeout,
// with progress going to lj.
func (er *exportRunner) exportInto(leaseCtx context.Context, rec *jobstore.ExportJob, lj *liveJob, out export.Output) (*bundle.Manifest, error) {
	s := er.srv
	_, dep := s.orgDeployment(rec.OrgID, rec.Domain)
	if dep == nil {
		return nil, fmt.Errorf("deployment %q is no longer configured", rec.Domain)
	}
	limit := time.Duration(s.cfg.ExportTimeout)
	ctx, cancel := context.WithTimeout(leaseCtx, limit)
	defer cancel()
	man, err := s.exporter.ExportTo(ctx, export.Request{
		Source: dep.SourceFS, Domain: rec.Domain, BasePath: dep.ExportBasePath(), Kind: dep.ExportKind(), Label: rec.Label,
		Paths: rec.Paths, Features: dep.Features, Warn: lj.warn,
	}, out, func(p export.Progress) {
		lj.mu.Lock()
		defer lj.mu.Unlock()
		if p.Total > 0 {
			// 100 is kept for "completed": the job is not done until the
			// site is published (renamed into place, or uploaded).
			lj.progress = float64(min(99, p.Done*100/p.Total))
		}
		lj.pageCount = p.Done
		lj.updatedAt = s.clock.Now().UTC()
	})
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) && leaseCtx.Err() == nil {
			return nil, fmt.Errorf("the export took longer than the limit of %s and was stopped", limit)
		}
		return nil, err
	}
	return man, nil
}

// finishExport records the attempt's outcome and reports whether it was
// stored (false: the job was taken over or deleted, or the server stopped).
func (er *exportRunner) finishExport(rec *jobstore.ExportJob, err error) bool {
	s := er.srv
	rec.UpdatedAt = s.clock.Now().UTC()
	if err != nil {
		rec.Status, rec.Error = api.ExportFailed, er.exportErrorText(err)
		s.log.Warn("export failed", "job", rec.JobID, "error", err)
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
	s := er.srv
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
	for _, dir := range []string{s.dataDir, absDir(s.dataDir)} {
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
	s := er.srv
	wait := storeRetryFirst
	for attempt := 1; ; attempt++ {
		err := s.store.CompleteAttempt(rec)
		switch {
		case err == nil:
			if attempt > 1 {
				s.log.Info("store export job succeeded after retries", "job", rec.JobID, "attempts", attempt)
			}
			return true
		case errors.Is(err, jobstore.ErrLeaseLost), errors.Is(err, jobstore.ErrNoRecord):
			s.log.Warn("export outcome discarded: the job was taken over or deleted", "job", rec.JobID, "attempt", rec.Attempts)
			return false
		}
		s.log.Error("store export job; retrying", "job", rec.JobID, "status", rec.Status, "attempt", attempt, "error", err)
		s.metrics.StoreFailed("complete")
		t := time.NewTimer(wait)
		select {
		case <-s.ctx.Done():
			t.Stop()
			return false
		case <-t.C:
		}
		wait = min(2*wait, storeRetryMax)
	}
}

// treeSize sums the sizes of the regular files under dir.
func treeSize(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		info, err := d.Info()
		if err == nil {
			n += info.Size()
		}
		return err
	})
	return n, err
}

// orgStoredBytes is what maxStoredBytes counts for an organization, for the
// message of a refused start.
func (er *exportRunner) orgStoredBytes(orgID string) int64 {
	s := er.srv
	jobs, err := s.store.ExportJobs()
	if err != nil {
		return 0
	}
	var n int64
	for _, rec := range jobs {
		if rec.OrgID == orgID {
			n += rec.SiteBytes + rec.BundleSize
		}
	}
	return n
}

func (s *Server) orgDeployment(orgID, domain string) (*apiconfig.Project, *apiconfig.Deployment) {
	if o := s.organization(orgID); o != nil {
		return o.Deployment(domain)
	}
	return nil, nil
}

// recoverJobs brings the store back in line with the files after a crash:
// a completed job whose site is gone is marked failed, and jobs past the
// retention are dropped. Queued and running jobs need nothing: workers
// claim them (running ones once their lease has ended, and are rendered
// again from scratch).
func (er *exportRunner) recoverJobs() error {
	s := er.srv
	jobs, err := s.store.ExportJobs()
	if err != nil {
		return err
	}
	for _, rec := range jobs {
		switch {
		case s.expired(rec.CreatedAt):
			er.forgetExport(rec.JobID)
		case rec.Status == api.ExportCompleted && s.objects == nil:
			// With an object store the site is uploaded before the job is
			// recorded completed, and no local file is involved.
			if er.hasLocalSite(rec.JobID) {
				continue
			}
			rec.Status, rec.Error = api.ExportFailed, "the exported files were lost; start a new export"
			rec.UpdatedAt = s.clock.Now().UTC()
			if err := s.store.PutExportJob(rec); err != nil {
				return err
			}
		}
	}
	if r := s.retention(); r > 0 {
		if _, err := s.store.DeleteAgentJobsBefore(s.clock.Now().Add(-r)); err != nil {
			return err
		}
	}
	return nil
}

// forgetExport removes a job past its retention, record and files.
func (er *exportRunner) forgetExport(id string) {
	s := er.srv
	if err := er.removeExport(id); err != nil {
		s.log.Error("delete expired export job", "job", id, "error", redact.Error(err))
		return
	}
	s.log.Info("export job passed its retention and was deleted", "job", id)
}

// removeExport deletes a job's objects, record and files, in that order:
// a failure keeps the record, so the next try finds the job again instead
// of leaving objects nothing points to.
func (er *exportRunner) removeExport(id string) error {
	s := er.srv
	ctx, cancel := context.WithTimeout(context.WithoutCancel(s.ctx), time.Minute)
	defer cancel()
	if err := er.sites.deleteJobObjects(ctx, id); err != nil {
		return fmt.Errorf("delete objects: %w", err)
	}
	if err := s.store.DeleteExportJob(id); err != nil {
		return fmt.Errorf("delete record: %w", err)
	}
	if err := removeTree(er.jobDir(id)); err != nil {
		return fmt.Errorf("delete files: %w", err)
	}
	return nil
}

// removeTree is os.RemoveAll that tries again for a moment: a job deleted
// while a worker still renders it (a control-plane reset) has files
// appearing under it until the worker notices its record is gone, and
// RemoveAll then fails with "directory not empty".
func removeTree(dir string) error {
	var err error
	for range 40 {
		if err = os.RemoveAll(dir); err == nil {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return err
}
