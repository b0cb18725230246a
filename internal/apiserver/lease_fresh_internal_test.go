package apiserver

import (
	"testing"
	"time"
)

// A lease is fresh while more than half of it is left, and a renewal
// makes it fresh again.
func TestHeldLease_freshWhileMoreThanHalfLeft(t *testing.T) {
	const lease = 30 * time.Second
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	h := newHeldLease(t0.Add(lease), lease)
	for _, tc := range []struct {
		at   time.Duration
		want bool
	}{
		{0, true}, {lease/2 - time.Millisecond, true}, {lease / 2, false}, {lease, false}, {2 * lease, false},
	} {
		if got := h.fresh(t0.Add(tc.at)); got != tc.want {
			t.Errorf("fresh %s after the claim = %v, want %v", tc.at, got, tc.want)
		}
	}
	now := t0.Add(lease * 2 / 3)
	h.extended(now.Add(lease))
	if !h.fresh(now) || !h.fresh(now.Add(lease/2-time.Millisecond)) || h.fresh(now.Add(lease/2)) {
		t.Error("a renewal did not move the fresh half of the lease")
	}
}
