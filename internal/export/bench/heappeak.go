package main

import (
	"os"
	"runtime/metrics"
	"runtime/pprof"
	"time"
)

// heapObjects is the runtime metric of live and not yet swept heap
// objects; reading it does not stop the world, unlike ReadMemStats.
const heapObjects = "/memory/classes/heap/objects:bytes"

// watchHeap samples the heap every 50 ms until stop is called and
// returns the largest value seen. With a non-empty path it writes a heap
// profile there each time the heap grows 5 % past the last profile, so
// that the file shows what was live near the peak (as of the last GC).
func watchHeap(path string) (stop func() uint64) {
	done := make(chan struct{})
	peak := make(chan uint64)
	go func() {
		s := []metrics.Sample{{Name: heapObjects}}
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		var top, profiled uint64
		for {
			select {
			case <-done:
				peak <- top
				return
			case <-t.C:
			}
			metrics.Read(s)
			var v uint64
			for _, m := range s {
				v = m.Value.Uint64()
			}
			top = max(top, v)
			if path != "" && v > profiled+profiled/20 {
				profiled = v
				writeHeapProfile(path)
			}
		}
	}()
	return func() uint64 {
		close(done)
		return <-peak
	}
}

// writeHeapProfile replaces the profile at path; a failure only loses
// the profile, which is a diagnostic.
func writeHeapProfile(path string) {
	f, err := os.Create(path + ".tmp")
	if err != nil {
		return
	}
	err = pprof.WriteHeapProfile(f)
	if cerr := f.Close(); err == nil && cerr == nil {
		_ = os.Rename(path+".tmp", path)
	}
}
