package jobstore

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sync"
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
					want, werr := st.ExportJob(id)
					_, held := st.polls.get(id)
					got, gerr := st.PollExportJob(id)
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

// Polls beside a writer never see a record that was not written, and the
// first poll after the last write returns sees it.
func TestBolt_pollsUnderWrites(t *testing.T) {
	st := openTestBolt(t, t.TempDir())
	rec := newExport("se_00000000000000b1", "acme", t0)
	if err := st.PutExportJob(rec); err != nil {
		t.Fatal(err)
	}
	const writes, pollers = 200, 8
	stop := make(chan struct{})
	errs := make(chan error, pollers)
	var wg sync.WaitGroup
	for range pollers {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				got, err := st.PollExportJob(rec.JobID)
				if err != nil {
					errs <- err
					return
				}
				if got.PageCount < 0 || got.PageCount > writes || got.Progress != float64(got.PageCount)/writes {
					errs <- fmt.Errorf("poll: %+v is no record that was written", got)
					return
				}
			}
		})
	}
	for i := 1; i <= writes; i++ {
		rec.PageCount, rec.Progress = i, float64(i)/writes
		if err := st.PutExportJob(rec); err != nil {
			t.Fatal(err)
		}
		if got, err := st.PollExportJob(rec.JobID); err != nil || got.PageCount != i {
			t.Fatalf("poll right after write %d: %+v, %v", i, got, err)
		}
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if err := st.DeleteExportJob(rec.JobID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.PollExportJob(rec.JobID); !errors.Is(err, ErrNoRecord) {
		t.Fatalf("poll after delete: %v, want ErrNoRecord", err)
	}
}
