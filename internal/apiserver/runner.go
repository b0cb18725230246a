package apiserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apimetrics"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/bundles"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/control"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/redact"
)

// exportRunner renders export jobs: the workers that claim them and hold
// their leases (lease.go), the render of one attempt and its outcome
// (worker.go), the archive a bundle link points to (bundle.go) and the
// sweep of what passed the retention. The handlers only store jobs and
// read them back; everything that happens to a job afterwards happens
// here. Where archives are kept is the bundles.Store's business.
type exportRunner struct {
	store    jobstore.Store
	bundles  bundles.Store
	exporter Exporter
	orgs     *control.Orgs
	// clock is the server's (the control plane's, when it has one);
	// leaseClock times leases and is never the control plane's: a suite
	// moving time hours ahead must not make every running render look
	// abandoned and taken over.
	clock, leaseClock clock.Clock
	log               hclog.Logger
	metrics           *apimetrics.Metrics
	dataDir           string
	exportTimeout     time.Duration
	retention         retention

	// owner names this server's workers in the leases they hold.
	owner         string
	lease         time.Duration
	claimInterval time.Duration
	wake          chan struct{}
	hooks         leaseHooks
	// idle counts the workers waiting for a wake (idle.go).
	idle          idleWorkers
	live          sync.Map // jobId → *liveJob, for jobs being rendered
	archiveBuilds sync.Map // jobId → *archiveBuild, so one job archives once
	// archives counts archives built; a test reads it to prove that a
	// second bundle call only signs.
	archives atomic.Int64
	// reused counts the archive entries copied from earlier archives
	// (reuse.go).
	reused atomic.Int64
	// pagesReused counts the pages exports took from earlier exports
	// instead of rendering them (reuse.go).
	pagesReused atomic.Int64

	// ctx ends when the server closes; workers counts the workers and
	// their uploads, background the sweeper, the watch for jobs, archive
	// builds and the agents' background work, which outlive requests.
	ctx        context.Context
	workers    sync.WaitGroup
	background sync.WaitGroup
}

// retention is how long jobs are kept, by the server's clock; zero keeps
// them forever.
type retention struct {
	period time.Duration
	clock  clock.Clock
}

// expired reports whether a job created at t has outlived the retention.
func (r retention) expired(t time.Time) bool {
	return r.period > 0 && !r.clock.Now().Before(t.Add(r.period))
}

// start recovers what a crash left and starts the workers, the sweeper
// and the watch for jobs started on other replicas.
func (er *exportRunner) start(workers int) error {
	er.wake = make(chan struct{}, 1)
	if err := er.recoverJobs(); err != nil {
		return fmt.Errorf("recover jobs: %w", err)
	}
	for i := range workers {
		er.workers.Add(1)
		go er.worker(i)
	}
	er.background.Add(2)
	go er.sweeper()
	go func() {
		defer er.background.Done()
		er.store.Watch(er.ctx, er.wakeWorkers)
	}()
	return nil
}

// wait returns once the workers, their uploads and the background work
// have stopped; the server's context must have ended.
func (er *exportRunner) wait() {
	er.workers.Wait()
	er.background.Wait()
}

// newSpool makes the local spool one render is written into before its
// archive is made: one unlinked file in <data dir>/scratch, gone when it
// is closed or the process ends.
func (er *exportRunner) newSpool() (*bundle.Spool, error) {
	base := filepath.Join(er.dataDir, "scratch")
	if err := os.MkdirAll(base, 0o700); err != nil {
		return nil, fmt.Errorf("scratch dir: %w", err)
	}
	return bundle.NewSpool(base)
}

// closeSpool releases a render's spool (nil is none).
func (er *exportRunner) closeSpool(id string, spool *bundle.Spool) {
	if spool == nil {
		return
	}
	er.reused.Add(int64(spool.Copied()))
	if err := spool.Close(); err != nil {
		er.log.Warn("close render spool", "job", id, "error", err)
	}
}

// orgStoredBytes is what maxStoredBytes counts for an organization, for the
// message of a refused start.
func (er *exportRunner) orgStoredBytes(ctx context.Context, orgID string) int64 {
	jobs, err := er.store.ExportJobs(ctx)
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

func (er *exportRunner) orgDeployment(orgID, domain string) (*apiconfig.Project, *apiconfig.Deployment) {
	if o := er.orgs.Find(orgID); o != nil {
		return o.Deployment(domain)
	}
	return nil, nil
}

// recoverJobs brings the store back in line with the files after a crash:
// a completed job whose archive is gone is marked failed, and jobs past
// the retention are dropped. Queued and running jobs need nothing:
// workers claim them (running ones once their lease has ended, and are
// rendered again from scratch).
func (er *exportRunner) recoverJobs() error {
	jobs, err := er.store.ExportJobs(er.ctx)
	if err != nil {
		return err
	}
	for _, rec := range jobs {
		switch {
		case er.retention.expired(rec.CreatedAt):
			er.forgetExport(er.ctx, rec.JobID)
		case rec.Status == api.ExportCompleted && er.bundles.Lost(rec):
			rec.Status, rec.Error = api.ExportFailed, "the exported files were lost; start a new export"
			rec.UpdatedAt = er.clock.Now().UTC()
			if err := er.store.PutExportJob(er.ctx, rec); err != nil {
				return err
			}
		}
	}
	if r := er.retention.period; r > 0 {
		if _, err := er.store.DeleteAgentJobsBefore(er.ctx, er.clock.Now().Add(-r)); err != nil {
			return err
		}
	}
	return nil
}

// sweepInterval is how often the background sweeper deletes what has
// passed the retention. Without it a job nobody asks about again would
// keep its files forever, and one key could fill the disk.
const sweepInterval = time.Minute

func (er *exportRunner) sweeper() {
	defer er.background.Done()
	t := time.NewTicker(sweepInterval)
	defer t.Stop()
	for {
		select {
		case <-er.ctx.Done():
			return
		case <-t.C:
			if err := er.sweep(); err != nil {
				er.log.Error("retention sweep", "error", err)
			}
		}
	}
}

// sweep deletes the export jobs (records and files), agent jobs and
// documentation updates past the retention, and idempotency keys past
// their 24 hours.
func (er *exportRunner) sweep() error {
	jobs, err := er.store.ExportJobs(er.ctx)
	if err != nil {
		return err
	}
	for _, rec := range jobs {
		// A job being rendered is left to finish; the next sweep takes it.
		if er.retention.expired(rec.CreatedAt) && rec.Status != api.ExportRunning {
			er.forgetExport(er.ctx, rec.JobID)
		}
	}
	now := er.clock.Now()
	if r := er.retention.period; r > 0 {
		n, err := er.store.DeleteAgentJobsBefore(er.ctx, now.Add(-r))
		if err != nil {
			return err
		}
		if n > 0 {
			er.log.Info("agent jobs passed their retention and were deleted", "count", n)
		}
		if n, err = er.store.DeleteUpdatesBefore(er.ctx, now.Add(-r)); err != nil {
			return err
		}
		if n > 0 {
			er.log.Info("documentation updates passed their retention and were deleted", "count", n)
		}
	}
	return er.store.PruneIdempotency(er.ctx, now)
}

// forgetExport removes a job past its retention, record and files.
func (er *exportRunner) forgetExport(ctx context.Context, id string) {
	if err := er.removeExport(ctx, id); err != nil {
		er.log.Error("delete expired export job", "job", id, "error", redact.Error(err))
		return
	}
	er.log.Info("export job passed its retention and was deleted", "job", id)
}

// removeExport deletes what the bundles store keeps of a job, its record
// and its local files, in that order: a failure keeps the record, so the
// next try finds the job again instead of leaving objects nothing points
// to. That order also makes it safe to stop anywhere, so it runs on the
// caller's ctx (a request's, or the sweep's, which shutdown cancels).
func (er *exportRunner) removeExport(ctx context.Context, id string) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := er.bundles.Delete(ctx, id); err != nil {
		return fmt.Errorf("delete objects: %w", err)
	}
	if err := er.store.DeleteExportJob(ctx, id); err != nil {
		return fmt.Errorf("delete record: %w", err)
	}
	if err := removeTree(bundles.JobDir(er.dataDir, id)); err != nil {
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
