package pgstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"time"
)

// exportChannel is the LISTEN/NOTIFY channel on which a replica says that
// a job became claimable (started, or handed back at shutdown), so idle
// workers on every replica claim it at once instead of at their next poll.
// A start's notification carries the starting store's instance id
// (startPayload); a hand-back's, and those of servers before the id,
// carry none.
const exportChannel = "docsadmin_export_jobs"

// claimedHereSuffix ends the payload of a start whose own server promised
// the job to an idle worker (Creation.ClaimedHere).
const claimedHereSuffix = "/here"

// startPayload is the notification of a job the store with the given
// instance id created: the id, and whether one of its workers takes the
// job. Servers before the suffix see an id not their own, and wake.
func startPayload(instance string, claimedHere bool) string {
	if claimedHere {
		return instance + claimedHereSuffix
	}
	return instance
}

// wakesFor reports whether a notification with the given payload should
// wake this store's workers. Not for a job this replica started: its
// workers were woken when the start returned, and one more would only
// find nothing to claim. Nor for one another replica promised to an idle
// worker of its own: that worker claims it at once, and one of ours
// would race it for the job and, as often as not, find nothing.
func (s *pgClaims) wakesFor(payload string) bool {
	return payload != s.instance && !strings.HasSuffix(payload, claimedHereSuffix)
}

// newInstanceID is a store's name in the notifications it sends: random,
// so that replicas never share one.
func newInstanceID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read does not fail (Go 1.24)
	return hex.EncodeToString(b[:])
}

// Back-off between attempts to listen again after the connection drops.
const (
	listenRetryFirst = 100 * time.Millisecond
	listenRetryMax   = 5 * time.Second
)

// Watch listens on exportChannel on a connection of its own, taken out of
// the pool, and reconnects with back-off when it drops. The workers' poll
// covers whatever is missed in between (and leases that end, which
// nobody announces).
func (s *pgClaims) Watch(ctx context.Context, wake func()) {
	wait := listenRetryFirst
	for ctx.Err() == nil {
		if s.listen(ctx, wake) {
			wait = listenRetryFirst
		}
		wait = retryPause(ctx, wait)
	}
}

// retryPause waits wait, or until ctx ends, and returns the next wait of
// the back-off.
func retryPause(ctx context.Context, wait time.Duration) time.Duration {
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
	return min(2*wait, listenRetryMax)
}

// listen serves one connection until it fails or ctx ends, reporting
// whether it got as far as listening.
func (s *pgClaims) listen(ctx context.Context, wake func()) (listened bool) {
	pc, err := s.pool.Acquire(ctx)
	if err != nil {
		return false
	}
	conn := pc.Hijack() // a listening connection must not serve queries
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = conn.Close(cctx)
	}()
	if _, err := conn.Exec(ctx, "LISTEN "+exportChannel); err != nil {
		return false
	}
	wake() // whatever was announced while nobody listened
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return true
		}
		if s.wakesFor(n.Payload) {
			wake()
		}
	}
}
