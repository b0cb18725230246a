package apiserver

import (
	"sync"
	"testing"
)

// A start counts on an idle worker only while one is left that no other
// start counted on; a worker that wakes, or a start that stored nothing,
// gives its promise back.
func TestIdleWorkers_promises(t *testing.T) {
	var w idleWorkers
	if w.promise() {
		t.Fatal("a promise with no idle worker")
	}
	w.waiting()
	w.waiting()
	for i := range 2 {
		if !w.promise() {
			t.Fatalf("two idle workers, and no promise %d", i+1)
		}
	}
	if w.promise() {
		t.Fatal("a third promise on two idle workers")
	}
	w.release() // a start that stored no job
	if !w.promise() {
		t.Fatal("no promise after one was given back")
	}
	w.woken()
	if w.promise() {
		t.Fatal("a promise on the worker left, which the other start counts on")
	}
	w.woken()
	w.release() // nothing left to give back
	if w.promised.Load() != 0 || w.idle.Load() != 0 {
		t.Fatalf("idle %d, promised %d after every worker woke; want 0 and 0", w.idle.Load(), w.promised.Load())
	}
}

// However starts and wakes interleave, the counts come back to rest:
// no promise left over once every one was given back, and every worker
// that went back to waiting counted idle.
func TestIdleWorkers_concurrent(t *testing.T) {
	var w idleWorkers
	const workers, rounds = 8, 2000
	for range workers {
		w.waiting()
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	made := 0
	for range 4 {
		wg.Go(func() {
			for range rounds {
				if w.promise() {
					mu.Lock()
					made++
					mu.Unlock()
					w.release()
				}
			}
		})
	}
	for range 2 {
		wg.Go(func() {
			for range rounds {
				w.woken()
				w.waiting()
			}
		})
	}
	wg.Wait()
	if p, i := w.promised.Load(), w.idle.Load(); p != 0 || i != workers {
		t.Fatalf("promised %d, idle %d after every promise was given back; want 0 and %d", p, i, workers)
	}
	if made == 0 {
		t.Fatal("no promise was ever made")
	}
}
