package apiserver

import (
	"context"
	"sync/atomic"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
)

// createJob stores a new job as the store's CreateExportJob does. A queued
// job is promised to an idle worker of this server when one is free, so
// that other replicas need not wake one of theirs to race it
// (Creation.ClaimedHere); the promise is taken back when no job was
// stored.
func (er *exportRunner) createJob(ctx context.Context, rec *jobstore.ExportJob, c jobstore.Creation) (existing *jobstore.ExportJob, err error) {
	c.ClaimedHere = rec.Status == api.ExportQueued && er.idle.promise()
	existing, err = er.store.CreateExportJob(ctx, rec, c)
	if c.ClaimedHere && (err != nil || existing != nil) {
		er.idle.release()
	}
	return existing, err
}

// idleWorkers counts a server's export workers that wait for a wake, and
// how many of them starts on this server have counted on, so that a start
// can tell the other replicas whether to wake theirs for its job
// (jobstore.Creation.ClaimedHere). With two replicas and both idle, every
// start woke a worker on each, and one of the two claims found nothing:
// a wasted round trip to the database per export.
//
// The counts are a hint, never a lock: a worker that wakes for another
// reason (its tick, another job's wake) may take the job a start counted
// on before that start's wake comes. The promise then falls to the next
// worker of this server to go idle, as any job does when all are busy,
// and other replicas find it at their next claim interval.
type idleWorkers struct {
	idle, promised atomic.Int32
}

// waiting counts a worker that starts waiting for a wake.
func (w *idleWorkers) waiting() { w.idle.Add(1) }

// woken counts a worker that has stopped waiting and is about to claim:
// the oldest claimable job first, so it answers one promise, whichever
// job that was made for.
func (w *idleWorkers) woken() {
	w.idle.Add(-1)
	w.release()
}

// promise counts on an idle worker that no other start has counted on
// yet, and reports whether there was one.
func (w *idleWorkers) promise() bool {
	for {
		p := w.promised.Load()
		if p >= w.idle.Load() {
			return false
		}
		if w.promised.CompareAndSwap(p, p+1) {
			return true
		}
	}
}

// release takes back one promise: a worker woke to answer it, or the
// start that made it stored no job.
func (w *idleWorkers) release() {
	for {
		p := w.promised.Load()
		if p <= 0 || w.promised.CompareAndSwap(p, p-1) {
			return
		}
	}
}
