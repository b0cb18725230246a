package bundleserve

import (
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"time"
)

// How long a link is left alone after its bundle was refused, or its
// download failed: the first wait, doubled on every further failure of the
// same link up to the last.
const (
	refusedBackoffFirst = time.Minute
	refusedBackoffMax   = time.Hour
	failedBackoffFirst  = 30 * time.Second
	failedBackoffMax    = 30 * time.Minute
	// maxBackoffLinks bounds what is remembered; links change with every
	// renewal, so old ones are forgotten wholesale past it.
	maxBackoffLinks = 32
)

// policy is how a kind of failure backs off.
type policy struct {
	first, max time.Duration
	// jitter spreads each wait over its upper half, so that the replicas
	// of a release, failing together on one upstream, do not retry in
	// step.
	jitter bool
}

var (
	// A refused bundle will be refused again: the waits are long, and
	// exact so that the one log line a refusal gets says when.
	refusedPolicy = policy{first: refusedBackoffFirst, max: refusedBackoffMax}
	// A failed download (an upstream error, a stall, a trickle, a
	// redirect loop) may work later, but not sooner for being asked at
	// every check interval.
	failedPolicy = policy{first: failedBackoffFirst, max: failedBackoffMax, jitter: true}
)

// backoff remembers links whose bundle was refused (it failed
// verification, or is of a version other than the pinned one) or whose
// download failed, so that a broken or hostile upstream does not cost a
// download every check interval. Links are presigned, hence secrets: they
// are kept only as hashes, and never logged.
type backoff struct {
	entries map[string]*backoffEntry
	// rand gives the jitter, in [0, 1) (default math/rand/v2); tests
	// inject it.
	rand func() float64
}

type backoffEntry struct {
	refusals int
	until    time.Time
	err      *problem
}

// backoffKey names a link and the pin it was checked against: a moved pin
// may accept the same bundle, so it is tried at once.
func backoffKey(link, pin string) string {
	h := sha256.Sum256([]byte(link + "\x00" + pin))
	return hex.EncodeToString(h[:16])
}

// waiting returns the refusal of key while its back-off lasts, else nil.
func (b *backoff) waiting(key string, now time.Time) *problem {
	e := b.entries[key]
	if e == nil || !now.Before(e.until) {
		return nil
	}
	return e.err
}

// record records a failure of key under pol and returns how many there
// have been and how long until the next try.
func (b *backoff) record(key string, err *problem, now time.Time, pol policy) (int, time.Duration) {
	if b.entries == nil || len(b.entries) >= maxBackoffLinks {
		b.entries = map[string]*backoffEntry{}
	}
	e := b.entries[key]
	if e == nil {
		e = &backoffEntry{}
		b.entries[key] = e
	}
	e.refusals++
	wait := pol.first
	for i := 1; i < e.refusals && wait < pol.max; i++ {
		wait *= 2
	}
	wait = min(wait, pol.max)
	if pol.jitter {
		r := b.rand
		if r == nil {
			r = rand.Float64
		}
		wait = wait/2 + time.Duration(r()*float64(wait/2))
	}
	e.until, e.err = now.Add(wait), err
	return e.refusals, wait
}

// forget drops key once its link has been installed.
func (b *backoff) forget(key string) { delete(b.entries, key) }
