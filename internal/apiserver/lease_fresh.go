package apiserver

import (
	"sync/atomic"
	"time"
)

// heldLease is what a worker knows of the lease it holds on a job: the
// end its claim or last renewal stored, on the lease clock. While much of
// the lease is left, no other worker can have claimed the job (a claim
// waits for the lease to end, and replicas' clocks agree to well under a
// lease), so reading the record to ask whether this attempt still holds
// it can only say yes. publishSite skips that read then: a round trip of
// every export on a database (of some five statements a demo-site
// export costs besides status reads). The completion stays fenced in the
// store whatever this says; being wrong costs an upload nobody keeps,
// never a job.
type heldLease struct {
	// until is the lease's end in Unix nanoseconds.
	until atomic.Int64
	// length is the server's lease.
	length time.Duration
}

func newHeldLease(until time.Time, length time.Duration) *heldLease {
	h := &heldLease{length: length}
	h.until.Store(until.UnixNano())
	return h
}

// extended records a renewal that stored until.
func (h *heldLease) extended(until time.Time) { h.until.Store(until.UnixNano()) }

// fresh reports whether more than half of the lease is left at now.
// Renewals come every third of a lease, so while they succeed a lease
// stays fresh; one that stopped (a hung worker, a lost database) turns
// stale a good half lease before anyone may take the job over.
func (h *heldLease) fresh(now time.Time) bool {
	return now.UnixNano() < h.until.Load()-int64(h.length/2)
}
