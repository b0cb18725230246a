package clock_test

import (
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
)

func TestAdjustable(t *testing.T) {
	base := clock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	a := clock.NewAdjustable(base)
	if !a.Now().Equal(base.Now()) {
		t.Fatalf("a new clock follows its base: %s", a.Now())
	}
	a.Advance(time.Hour)
	base.Advance(time.Minute)
	if want := base.Now().Add(time.Hour); !a.Now().Equal(want) {
		t.Fatalf("advanced, running: %s, want %s", a.Now(), want)
	}
	a.Freeze(true)
	frozenAt := a.Now()
	base.Advance(time.Hour)
	if !a.Now().Equal(frozenAt) || !a.Frozen() {
		t.Fatalf("frozen clock moved: %s, want %s", a.Now(), frozenAt)
	}
	if got := a.Advance(30 * time.Minute); !got.Equal(frozenAt.Add(30 * time.Minute)) {
		t.Fatalf("advance while frozen: %s", got)
	}
	at := time.Date(2030, 6, 1, 0, 0, 0, 0, time.UTC)
	a.Set(at)
	a.Freeze(false)
	base.Advance(time.Second)
	if want := at.Add(time.Second); !a.Now().Equal(want) {
		t.Fatalf("thawed after set: %s, want %s", a.Now(), want)
	}
	a.Set(at.Add(-48 * time.Hour)) // back in time, running
	if want := at.Add(-48 * time.Hour); !a.Now().Equal(want) {
		t.Fatalf("set back: %s, want %s", a.Now(), want)
	}
	a.Reset()
	if !a.Now().Equal(base.Now()) || a.Frozen() {
		t.Fatalf("after reset: %s frozen=%v, want the base %s", a.Now(), a.Frozen(), base.Now())
	}
}

// A frozen Offset clock stands still in real time and moves only by
// Advance; before it is frozen it runs.
func TestOffset_freeze(t *testing.T) {
	o := clock.NewOffset()
	before := time.Now()
	if now := o.Now(); now.Before(before) {
		t.Fatalf("a running clock is behind the wall clock: %s < %s", now, before)
	}
	o.Freeze()
	at := o.Now()
	time.Sleep(5 * time.Millisecond)
	if now := o.Now(); !now.Equal(at) {
		t.Fatalf("a frozen clock moved from %s to %s", at, now)
	}
	o.Advance(time.Minute)
	if now := o.Now(); !now.Equal(at.Add(time.Minute)) {
		t.Fatalf("a frozen clock advanced a minute: %s, want %s", now, at.Add(time.Minute))
	}
	o.Freeze() // a second Freeze keeps the first reading
	if now := o.Now(); !now.Equal(at.Add(time.Minute)) {
		t.Fatalf("frozen twice: %s", now)
	}
}
