package bundleserve

import (
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// How long a refused bundle is left alone: the first wait, doubled on
// every further refusal of the same link up to the last.
const (
	refusedBackoffFirst = time.Minute
	refusedBackoffMax   = time.Hour
	// maxBackoffLinks bounds what is remembered; links change with every
	// renewal, so old ones are forgotten wholesale past it.
	maxBackoffLinks = 32
)

// backoff remembers links whose bundle was refused (it failed
// verification, or is of a version other than the pinned one), so that a
// broken upstream does not cost a full download and unpack every check
// interval. Links are presigned, hence secrets: they are kept only as
// hashes, and never logged.
type backoff struct {
	entries map[string]*backoffEntry
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

// refused records a refusal of key and returns how many there have been
// and how long until the next try.
func (b *backoff) refused(key string, err *problem, now time.Time) (int, time.Duration) {
	if b.entries == nil || len(b.entries) >= maxBackoffLinks {
		b.entries = map[string]*backoffEntry{}
	}
	e := b.entries[key]
	if e == nil {
		e = &backoffEntry{}
		b.entries[key] = e
	}
	e.refusals++
	wait := refusedBackoffFirst
	for i := 1; i < e.refusals && wait < refusedBackoffMax; i++ {
		wait *= 2
	}
	wait = min(wait, refusedBackoffMax)
	e.until, e.err = now.Add(wait), err
	return e.refusals, wait
}

// forget drops key once its link has been installed.
func (b *backoff) forget(key string) { delete(b.entries, key) }
