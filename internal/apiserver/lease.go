package apiserver

import (
	"context"
	"errors"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
)

// Workers claim export jobs from the store instead of a queue in memory,
// so replicas sharing a database share the work: a claim holds the job
// for a lease that its worker renews while rendering, and a job whose
// lease lapsed (its worker or replica died) is claimed again.
const (
	defaultExportLease = 30 * time.Second
	// defaultClaimInterval bounds how long an idle worker waits before it
	// looks for work that did not wake it: jobs started on another
	// replica, leases that ended.
	defaultClaimInterval = time.Second
)

// uploadsPerWorker is how many rendered sites one worker may have on
// their way to the object store (as archives) while it renders the next.
// A small site's upload is a fence read, one PUT and the fenced UPDATE: three
// round trips, each waiting on another process, that on a loaded machine
// took longer than rendering the demo site (medians of about 110 ms
// against 90), so with one upload in flight the worker waited on the
// bucket for much of each export. Three keep it rendering (with them a
// rendered job waited for a slot for a median of 0 ms, the 90th
// percentile 40 ms, at load ~30). A 2,000-page site's upload took as
// long as its render (7 s each at load ~12), so large uploads can queue
// up too: at most maxLargeUploads of a server hold their parts in memory
// at once (internal/apiserver/bucket), and the scratch dir holds one rendered site (a
// spool) per upload.
const uploadsPerWorker = 3

// leaseHooks let tests act as a replica that stops renewing mid-render,
// and see (or hold up) each render as it starts.
type leaseHooks struct {
	renewalStopped atomic.Bool
	beforeRender   atomic.Pointer[func(jobID string)]
}

// wakeWorkers tells an idle worker that there may be a job to claim.
func (er *exportRunner) wakeWorkers() {
	select {
	case er.wake <- struct{}{}:
	default:
	}
}

func (er *exportRunner) worker(n int) {
	defer er.workers.Done()
	owner := er.owner + "/" + strconv.Itoa(n)
	wait := storeRetryFirst
	tick := time.NewTicker(er.claimInterval)
	defer tick.Stop()
	// Slots for this worker's uploads in flight (runExport): with all
	// taken, the worker hands over the next job only once one is done.
	uploads := make(chan struct{}, uploadsPerWorker)
	// ready says to claim without waiting: at the start, for jobs left
	// from before, and after the store refused a claim. Otherwise a worker
	// claims only when woken or on its tick, a worker that has just
	// finished a job too: every job stored since its last claim sent a
	// wake, which is still in the channel or went to a worker that then
	// claimed (and a claim that finds more wakes the next worker). Claiming
	// on finishing found nothing whenever jobs came slower than renders:
	// for about one export in two, a round trip for nothing with replicas.
	ready := true
	for er.ctx.Err() == nil {
		if ready {
			// A wake sent while every worker was busy is left in the
			// channel. This claim answers it: the job it announced was
			// stored before it was sent. Left there, it made the next
			// worker to go idle claim again at once, and find nothing.
			select {
			case <-er.wake:
			default:
			}
		} else {
			er.idle.waiting()
			select {
			case <-er.ctx.Done():
				return
			case <-er.wake:
			case <-tick.C:
			}
			er.idle.woken()
		}
		rec, more, err := er.store.ClaimExport(er.ctx, owner, er.leaseClock.Now(), er.lease)
		switch {
		case err != nil:
			// A store that refuses writes: back off rather than spin.
			er.log.Error("claim export job; retrying", "error", err)
			t := time.NewTimer(wait)
			select {
			case <-er.ctx.Done():
			case <-t.C:
			}
			t.Stop()
			wait = min(2*wait, storeRetryMax)
			ready = true
		case rec == nil:
			er.metrics.Claimed(false)
			wait = storeRetryFirst
			ready = false
		default:
			er.metrics.Claimed(true)
			wait = storeRetryFirst
			if more {
				er.wakeWorkers() // let an idle worker take the next
			}
			if rec.Attempts > 1 {
				er.log.Info("resuming export", "job", rec.JobID, "attempt", rec.Attempts)
			}
			er.runExport(rec, uploads)
			// The tick looks for what no wake announces (leases that
			// ended): one that came during the job would only make an
			// idle worker claim at once, for nothing.
			tick.Reset(er.claimInterval)
			ready = false
		}
	}
}

// holdLease renews rec's lease until release is called, recording the
// render's progress from lj with each renewal, and in held the end of
// each renewal that succeeded. The context ends
// when the lease is lost to another worker (or the server shuts down), so
// the render stops instead of finishing work nobody will keep.
func (er *exportRunner) holdLease(rec *jobstore.ExportJob, lj *liveJob) (ctx context.Context, held *heldLease, release func()) {
	ctx, cancel := context.WithCancelCause(er.ctx)
	held = newHeldLease(rec.LeaseUntil, er.lease)
	done := make(chan struct{})
	mine := *rec // the worker changes rec as it goes; the fence is fixed
	// A render past the export time limit (plus one lease to write its
	// outcome) is no longer renewed: if it is stuck beyond the reach of
	// its context, the lease lapses and the job is taken over (and fails
	// after maxAttempts), rather than holding a worker for good.
	cutoff := er.leaseClock.Now().Add(er.exportTimeout + er.lease)
	go func() {
		defer close(done)
		t := time.NewTicker(er.lease / 3)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if er.hooks.renewalStopped.Load() {
				continue
			}
			if er.leaseClock.Now().After(cutoff) {
				er.log.Warn("export ran past its time limit; its lease is no longer renewed", "job", rec.JobID,
					"limit", er.exportTimeout.String())
				return
			}
			lj.mu.Lock()
			mine.Progress, mine.PageCount, mine.UpdatedAt = lj.progress, lj.pageCount, lj.updatedAt
			lj.mu.Unlock()
			until := er.leaseClock.Now().Add(er.lease)
			err := er.store.RenewLease(ctx, &mine, until)
			if err == nil {
				held.extended(until)
			}
			if errors.Is(err, jobstore.ErrLeaseLost) || errors.Is(err, jobstore.ErrNoRecord) {
				cancel(jobstore.ErrLeaseLost)
				return
			}
			if err != nil && ctx.Err() == nil {
				// The next tick tries again; the lease has two more
				// intervals to run. (A renewal that the release or the
				// shutdown cancelled is no failure.)
				er.log.Warn("renew export lease", "job", rec.JobID, "error", err)
			}
		}
	}()
	return ctx, held, func() {
		cancel(nil)
		<-done
	}
}

// stillHolds returns jobstore.ErrLeaseLost when rec's attempt no longer
// holds its job, or the job is gone (a reset of the control plane), so
// that the attempt publishes nothing that would replace the work of the
// attempt that took over. It is a read: a store that cannot answer does
// not fail the export here, as its completion is fenced again when it is
// written.
func (er *exportRunner) stillHolds(ctx context.Context, rec *jobstore.ExportJob) error {
	cur, err := er.store.ExportJob(ctx, rec.JobID)
	if errors.Is(err, jobstore.ErrNoRecord) || (err == nil && !jobstore.Holds(cur, rec)) {
		return jobstore.ErrLeaseLost
	}
	return nil
}
