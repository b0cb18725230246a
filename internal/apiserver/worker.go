package apiserver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export"
)

// maxAttempts bounds how often a job interrupted by crashes is restarted,
// so a source that crashes the server cannot crash it forever.
const maxAttempts = 3

// Files of a job live in <data-dir>/exports/<jobId>/: the rendered site in
// site/ (renamed into place only when complete) and the archive.
func (s *Server) jobDir(id string) string     { return filepath.Join(s.dataDir, "exports", id) }
func (s *Server) siteDir(id string) string    { return filepath.Join(s.jobDir(id), "site") }
func (s *Server) partialDir(id string) string { return filepath.Join(s.jobDir(id), "site.partial") }
func (s *Server) bundlePath(id string) string { return filepath.Join(s.jobDir(id), api.BundleFileName) }

// jobQueue is a FIFO of job ids with a wake-up signal for idle workers.
type jobQueue struct {
	mu   sync.Mutex
	ids  []string
	wake chan struct{}
}

func newJobQueue() *jobQueue { return &jobQueue{wake: make(chan struct{}, 1)} }

func (q *jobQueue) push(id string) {
	q.mu.Lock()
	q.ids = append(q.ids, id)
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

func (q *jobQueue) pop() (string, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.ids) == 0 {
		return "", false
	}
	id := q.ids[0]
	q.ids = q.ids[1:]
	if len(q.ids) > 0 {
		// Pass the signal on so another idle worker picks up the rest.
		select {
		case q.wake <- struct{}{}:
		default:
		}
	}
	return id, true
}

// liveJob holds the progress of a job being rendered. Progress changes many
// times a second; it is served from memory rather than written to the
// store each time, and a restart re-renders the job anyway.
type liveJob struct {
	mu        sync.Mutex
	progress  float64
	pageCount int
	updatedAt time.Time
	warnings  *api.ExportWarnings
}

// warn records one warning of the running export.
func (l *liveJob) warn(msg string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.warnings == nil {
		l.warnings = &api.ExportWarnings{}
	}
	l.warnings.Add(msg)
}

func (l *liveJob) overlay(rec *exportJobRecord) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if rec.Status == api.ExportRunning {
		rec.Progress, rec.PageCount, rec.UpdatedAt = l.progress, l.pageCount, l.updatedAt
		if l.warnings != nil {
			w := *l.warnings
			w.Messages = append([]string(nil), w.Messages...) // the export may still add
			rec.Warnings = &w
		}
	}
}

func (s *Server) worker() {
	defer s.workers.Done()
	for {
		id, ok := s.queue.pop()
		if !ok {
			select {
			case <-s.ctx.Done():
				return
			case <-s.queue.wake:
				continue
			}
		}
		if s.ctx.Err() != nil {
			return
		}
		s.runExport(id)
	}
}

// runExport renders one job. Interrupted by shutdown, the job stays
// "running" in the store and the next start resumes it.
func (s *Server) runExport(id string) {
	rec, err := s.store.exportJob(id)
	if err != nil {
		s.log.Error("export vanished before it ran", "job", id, "error", err)
		return
	}
	rec.Attempts++
	if rec.Attempts > maxAttempts {
		s.finishExport(rec, fmt.Errorf("export was interrupted %d times and is not retried again", maxAttempts))
		return
	}
	rec.Status, rec.Progress, rec.PageCount, rec.UpdatedAt = api.ExportRunning, 0, 0, s.clock.Now().UTC()
	rec.Warnings = nil // a resumed job renders, and warns, afresh
	if !s.putUntilStored(rec) {
		return // shutting down: the job is still queued and resumes on the next start
	}
	lj := &liveJob{updatedAt: rec.UpdatedAt}
	s.live.Store(id, lj)
	defer s.live.Delete(id)

	man, err := s.render(rec, lj)
	rec.Warnings = lj.warnings // the export has returned: no more writers
	if s.ctx.Err() != nil {
		s.log.Info("export interrupted by shutdown; it resumes on the next start", "job", id)
		return
	}
	if err == nil {
		rec.PageCount, rec.Version = man.PageCount, man.Version
		if rec.SiteBytes, err = treeSize(s.siteDir(id)); err != nil {
			err = fmt.Errorf("measure export: %w", err)
		}
	}
	s.finishExport(rec, err)
}

func (s *Server) render(rec *exportJobRecord, lj *liveJob) (*bundle.Manifest, error) {
	_, dep := s.orgDeployment(rec.OrgID, rec.Domain)
	if dep == nil {
		return nil, fmt.Errorf("deployment %q is no longer configured", rec.Domain)
	}
	// A crash after the site was renamed into place but before the job
	// was recorded completed leaves a whole, synced site: finish the job
	// from it. A site that does not verify is replaced.
	site := s.siteDir(rec.JobID)
	if _, err := os.Stat(site); err == nil {
		man, verr := bundle.VerifyDir(site)
		if verr == nil {
			s.log.Info("export was rendered before the restart; completing it from its files", "job", rec.JobID)
			return man, nil
		}
		s.log.Warn("discarding a rendered site that does not verify", "job", rec.JobID, "error", verr)
		if err := os.RemoveAll(site); err != nil {
			return nil, fmt.Errorf("clear unverified site: %w", err)
		}
	}
	partial := s.partialDir(rec.JobID)
	if err := os.RemoveAll(partial); err != nil {
		return nil, fmt.Errorf("clear previous attempt: %w", err)
	}
	if err := os.MkdirAll(partial, 0o700); err != nil {
		return nil, fmt.Errorf("create export dir: %w", err)
	}
	start := time.Now()
	limit := time.Duration(s.cfg.ExportTimeout)
	ctx, cancel := context.WithTimeout(s.ctx, limit)
	defer cancel()
	man, err := s.exporter.Export(ctx, export.Request{
		Source: dep.source, Domain: rec.Domain, Kind: dep.kind, Label: rec.Label,
		Paths: rec.Paths, Features: dep.Features, Warn: lj.warn,
	}, partial, func(p export.Progress) {
		lj.mu.Lock()
		defer lj.mu.Unlock()
		if p.Total > 0 {
			// 100 is kept for "completed": the job is not done until the
			// site is synced and renamed into place.
			lj.progress = float64(min(99, p.Done*100/p.Total))
		}
		lj.pageCount = p.Done
		lj.updatedAt = s.clock.Now().UTC()
	})
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) && s.ctx.Err() == nil {
			return nil, fmt.Errorf("the export took longer than the limit of %s and was stopped", limit)
		}
		return nil, err
	}
	if err := syncTree(partial); err != nil {
		return nil, fmt.Errorf("sync export: %w", err)
	}
	if err := os.Rename(partial, s.siteDir(rec.JobID)); err != nil {
		return nil, fmt.Errorf("publish export: %w", err)
	}
	if err := syncDir(s.jobDir(rec.JobID)); err != nil {
		return nil, fmt.Errorf("sync export dir: %w", err)
	}
	s.log.Info("export completed", "job", rec.JobID, "pages", man.PageCount, "duration", time.Since(start).Round(time.Millisecond))
	return man, nil
}

func (s *Server) finishExport(rec *exportJobRecord, err error) {
	rec.UpdatedAt = s.clock.Now().UTC()
	if err != nil {
		rec.Status, rec.Error = api.ExportFailed, err.Error()
		_ = os.RemoveAll(s.partialDir(rec.JobID))
		s.log.Warn("export failed", "job", rec.JobID, "error", err)
	} else {
		rec.Status, rec.Progress, rec.Error = api.ExportCompleted, 100, ""
	}
	s.putUntilStored(rec)
}

// Back-off between attempts to write a job record the store refused.
const (
	storeRetryFirst = 100 * time.Millisecond
	storeRetryMax   = 5 * time.Second
)

// putUntilStored writes rec, retrying with back-off while the store refuses
// (a full disk): a worker that gave up would leave the job queued or
// running forever. It reports false when the server shut down first; the
// record then keeps its previous state and the next start resumes it.
func (s *Server) putUntilStored(rec *exportJobRecord) bool {
	wait := storeRetryFirst
	for attempt := 1; ; attempt++ {
		err := s.store.putExportJob(rec)
		if err == nil {
			if attempt > 1 {
				s.log.Info("store export job succeeded after retries", "job", rec.JobID, "attempts", attempt)
			}
			return true
		}
		s.log.Error("store export job; retrying", "job", rec.JobID, "status", rec.Status, "attempt", attempt, "error", err)
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
func (s *Server) orgStoredBytes(orgID string) int64 {
	jobs, err := s.store.exportJobs()
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

func (s *Server) orgDeployment(orgID, domain string) (*Project, *Deployment) {
	for i := range s.cfg.Organizations {
		if s.cfg.Organizations[i].ID == orgID {
			return s.cfg.Organizations[i].deployment(domain)
		}
	}
	return nil, nil
}

// recoverJobs brings the store back in line with the files after a crash:
// queued and running jobs go back on the queue (running ones are rendered
// again from scratch), a completed job whose site is gone is marked failed,
// and jobs past the retention are dropped.
func (s *Server) recoverJobs() error {
	jobs, err := s.store.exportJobs()
	if err != nil {
		return err
	}
	var resume []*exportJobRecord
	for _, rec := range jobs {
		switch {
		case s.expired(rec.CreatedAt):
			s.forgetExport(rec.JobID)
		case rec.Status == api.ExportQueued || rec.Status == api.ExportRunning:
			resume = append(resume, rec)
		case rec.Status == api.ExportCompleted:
			if _, err := os.Stat(s.siteDir(rec.JobID)); err != nil {
				s.finishExport(rec, errors.New("the exported files were lost; start a new export"))
			}
		}
	}
	// Resume in creation order, so the oldest waiting job runs first.
	slices.SortFunc(resume, func(a, b *exportJobRecord) int { return a.CreatedAt.Compare(b.CreatedAt) })
	for _, rec := range resume {
		s.log.Info("resuming export after restart", "job", rec.JobID, "was", rec.Status)
		s.queue.push(rec.JobID)
	}
	if r := s.retention(); r > 0 {
		if _, err := s.store.deleteAgentJobsBefore(s.clock.Now().Add(-r)); err != nil {
			return err
		}
	}
	return nil
}

// forgetExport removes a job past its retention, record and files.
func (s *Server) forgetExport(id string) {
	if err := s.store.deleteExportJob(id); err != nil {
		s.log.Error("delete expired export job", "job", id, "error", err)
		return
	}
	if err := os.RemoveAll(s.jobDir(id)); err != nil {
		s.log.Error("delete expired export files", "job", id, "error", err)
	}
	s.log.Info("export job passed its retention and was deleted", "job", id)
}
