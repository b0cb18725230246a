// Package clock lets time be injected: production code reads the wall clock,
// tests advance a fake one, so expiry, renewal and rate limits are tested
// without sleeping.
package clock

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Clock tells the time.
type Clock interface {
	Now() time.Time
}

// Real is the wall clock.
type Real struct{}

// Now returns time.Now().
func (Real) Now() time.Time { return time.Now() }

// Fake is a clock that moves only when told to. It is safe for concurrent use.
type Fake struct {
	mu  sync.Mutex
	now time.Time
}

// NewFake returns a fake clock set to t.
func NewFake(t time.Time) *Fake { return &Fake{now: t} }

// Now returns the fake time.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// Advance moves the clock forward by d.
func (f *Fake) Advance(d time.Duration) {
	f.mu.Lock()
	f.now = f.now.Add(d)
	f.mu.Unlock()
}

// Set moves the clock to t.
func (f *Fake) Set(t time.Time) {
	f.mu.Lock()
	f.now = t
	f.mu.Unlock()
}

// Offset is a clock that runs with the wall clock but can be moved forward:
// Now is time.Now() plus an offset that Advance grows. Tests use it where
// real time must keep flowing (a provider polling a job) and must also jump
// (a presigned link reaching its renewal window).
//
// Freeze stops the wall clock's part: a test that asserts a state lasting
// only a second of real time (an update still queued after a restart)
// freezes the clock so that a slow machine does not move it on.
type Offset struct {
	offset atomic.Int64 // a time.Duration; atomic, as every request reads it
	frozen atomic.Int64 // Unix nanoseconds of the frozen wall clock; 0 while it runs
}

// NewOffset returns a clock that starts at the wall clock.
func NewOffset() *Offset { return &Offset{} }

// Now returns the wall clock plus the offset.
func (o *Offset) Now() time.Time {
	base := time.Now()
	if f := o.frozen.Load(); f != 0 {
		base = time.Unix(0, f)
	}
	return base.Add(time.Duration(o.offset.Load()))
}

// Freeze stops the clock where it is; from then on only Advance moves it.
func (o *Offset) Freeze() { o.frozen.CompareAndSwap(0, time.Now().UnixNano()) }

// Advance moves the clock forward by d.
func (o *Offset) Advance(d time.Duration) { o.offset.Add(int64(d)) }

// Sleep waits for d or until ctx ends, whichever comes first, and returns
// ctx's error in the second case. Code that takes an injectable sleep uses
// it as the default.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Adjustable runs with a base clock until it is told otherwise: it can be
// set to any time, moved forward, frozen and thawed, and reset to follow
// the base again. The reference server's control plane drives it, so
// another project's suite can expire a link or finish an agent job
// without waiting. It is safe for concurrent use.
type Adjustable struct {
	mu     sync.Mutex
	base   Clock
	offset time.Duration
	frozen bool
	at     time.Time // the time while frozen
}

// NewAdjustable returns a clock that follows base.
func NewAdjustable(base Clock) *Adjustable { return &Adjustable{base: base} }

// Now returns the frozen time, or the base clock plus the offset.
func (a *Adjustable) Now() time.Time {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.nowLocked()
}

func (a *Adjustable) nowLocked() time.Time {
	if a.frozen {
		return a.at
	}
	return a.base.Now().Add(a.offset)
}

// Frozen reports whether the clock stands still.
func (a *Adjustable) Frozen() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.frozen
}

// Set moves the clock to t, forward or back; a frozen clock stays frozen
// at t, a running one runs on from t.
func (a *Adjustable) Set(t time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.frozen {
		a.at = t
		return
	}
	a.offset = t.Sub(a.base.Now())
}

// Advance moves the clock forward by d and returns the new time.
func (a *Adjustable) Advance(d time.Duration) time.Time {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.frozen {
		a.at = a.at.Add(d)
	} else {
		a.offset += d
	}
	return a.nowLocked()
}

// Freeze stops the clock where it is (frozen) or lets it run on from
// where it stands (not frozen).
func (a *Adjustable) Freeze(frozen bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if frozen == a.frozen {
		return
	}
	if frozen {
		a.at, a.frozen = a.nowLocked(), true
		return
	}
	a.offset, a.frozen = a.at.Sub(a.base.Now()), false
}

// Reset makes the clock follow its base again.
func (a *Adjustable) Reset() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.offset, a.frozen, a.at = 0, false, time.Time{}
}
