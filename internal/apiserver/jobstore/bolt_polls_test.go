package jobstore

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// After every kind of write (the index test's random sequence), a poll of
// every job answers what a read of the store answers, though each job was
// polled, and so held in the poll memo, before the write; a deleted job
// polls as missing.
func TestBolt_pollsFollowEveryWrite(t *testing.T) {
	for _, seed := range []uint64{4, 5} {
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) {
			st := openTestBolt(t, t.TempDir())
			w := &indexWorld{t: t, st: st, now: t0, checks: true,
				rng: rand.New(rand.NewPCG(seed, seed)), //nolint:gosec // G404: a reproducible sequence, not a secret
			}
			served := 0
			for step := range 300 {
				op := w.step()
				for i := range 24 {
					id := fmt.Sprintf("se_%02d", i)
					want, werr := st.ExportJob(t.Context(), id)
					_, held := st.polls.Get(id)
					got, gerr := st.PollExportJob(t.Context(), id)
					if !errors.Is(gerr, werr) || (werr == nil && !reflect.DeepEqual(got, want)) {
						t.Fatalf("step %d (%s): poll of %s is %+v, %v; a read gives %+v, %v", step, op, id, got, gerr, want, werr)
					}
					if held {
						served++
						got.Paths = append(got.Paths, "the caller's own") // the memo's copy stays as it was
					}
				}
			}
			if served == 0 {
				t.Fatal("no poll was answered from the memo")
			}
		})
	}
}
