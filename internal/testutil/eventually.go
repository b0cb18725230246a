package testutil

import (
	"testing"
	"time"
)

// maxInterval is Eventually's longest pause between two calls of cond.
const maxInterval = 20 * time.Millisecond

// Eventually calls cond until it returns true and fails the test when
// timeout passes first, saying what it was waiting for. It is the one way
// tests here wait for something another goroutine or process does: never a
// bare sleep, never an unbounded loop. The first checks come quickly and the
// interval then doubles to at most 20 ms (short enough to catch a state
// that lasts a moment, such as an export seen running), so cond runs at most
// timeout/20ms+5 times. cond may call t.Fatal (on the test's goroutine) when
// it sees something that can never turn true.
func Eventually(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	interval := time.Millisecond
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", timeout, what)
		}
		time.Sleep(interval)
		interval = min(2*interval, maxInterval)
	}
}
