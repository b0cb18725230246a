package jobstore

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// A start wakes the other replicas' workers, not its own replica's
// (whose server woke them when the start returned); a job handed back at
// shutdown wakes every replica's.
func TestPGStore_watchPassesOverOwnStarts(t *testing.T) {
	w, r, _, _ := pgPair(t)
	ctx, cancel := context.WithCancel(context.Background())
	var wWakes, rWakes atomic.Int64
	done := make(chan struct{}, 2)
	for _, sw := range []struct {
		st *Postgres
		n  *atomic.Int64
	}{{w, &wWakes}, {r, &rWakes}} {
		go func() {
			defer func() { done <- struct{}{} }()
			sw.st.Watch(ctx, func() { sw.n.Add(1) })
		}()
	}
	t.Cleanup(func() {
		cancel()
		<-done
		<-done
	})
	// Each listener wakes once when it begins to listen.
	testutil.Eventually(t, 5*time.Second, "both replicas listening", func() bool {
		return wWakes.Load() == 1 && rWakes.Load() == 1
	})

	if _, err := w.CreateExportJob(newExport("se_00000000000000w1", "acme", t0), "", "", Limits{}); err != nil {
		t.Fatal(err)
	}
	testutil.Eventually(t, 5*time.Second, "the other replica woken by the start", func() bool { return rWakes.Load() == 2 })

	// A hand-back notifies after the start, and a listener hears
	// notifications in commit order: once w has heard it, it has heard
	// the start too, and must not have been woken by it.
	rec, _, err := w.ClaimExport("worker", t0, time.Minute)
	if err != nil || rec == nil {
		t.Fatalf("claim: %+v %v", rec, err)
	}
	if err := w.RenewLease(rec, time.Time{}); err != nil {
		t.Fatal(err)
	}
	testutil.Eventually(t, 5*time.Second, "both replicas woken by the hand-back", func() bool {
		return wWakes.Load() >= 2 && rWakes.Load() == 3
	})
	if n := wWakes.Load(); n != 2 {
		t.Fatalf("the starting replica was woken %d times, want 2 (listening, hand-back): its own start woke it", n)
	}
}
