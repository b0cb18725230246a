// Package clock lets time be injected: production code reads the wall clock,
// tests advance a fake one, so expiry, renewal and rate limits are tested
// without sleeping.
package clock

import (
	"context"
	"sync"
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
type Offset struct {
	mu     sync.Mutex
	offset time.Duration
}

// NewOffset returns a clock that starts at the wall clock.
func NewOffset() *Offset { return &Offset{} }

// Now returns the wall clock plus the offset.
func (o *Offset) Now() time.Time {
	o.mu.Lock()
	defer o.mu.Unlock()
	return time.Now().Add(o.offset)
}

// Advance moves the clock forward by d.
func (o *Offset) Advance(d time.Duration) {
	o.mu.Lock()
	o.offset += d
	o.mu.Unlock()
}

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
