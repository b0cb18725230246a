package pgstore

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// A start wakes the other replicas' workers, not its own replica's
// (whose server woke them when the start returned), nor theirs when its
// server promised the job to an idle worker of its own; a job handed
// back at shutdown wakes every replica's.
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

	if _, err := w.CreateExportJob(ctx, newExport("se_00000000000000w1", "acme", t0), jobstore.Creation{}); err != nil {
		t.Fatal(err)
	}
	testutil.Eventually(t, 5*time.Second, "the other replica woken by the start", func() bool { return rWakes.Load() == 2 })

	// A hand-back notifies after the start, and a listener hears
	// notifications in commit order: once w has heard it, it has heard
	// the start too, and must not have been woken by it.
	rec, _, err := w.ClaimExport(ctx, "worker", t0, time.Minute)
	if err != nil || rec == nil {
		t.Fatalf("claim: %+v %v", rec, err)
	}
	if err := w.RenewLease(ctx, rec, time.Time{}); err != nil {
		t.Fatal(err)
	}
	testutil.Eventually(t, 5*time.Second, "both replicas woken by the hand-back", func() bool {
		return wWakes.Load() >= 2 && rWakes.Load() == 3
	})
	if n := wWakes.Load(); n != 2 {
		t.Fatalf("the starting replica was woken %d times, want 2 (listening, hand-back): its own start woke it", n)
	}

	// A start claimed where it was made, then a hand-back: once the other
	// replica has heard the hand-back, it has heard the start before it.
	if _, err := w.CreateExportJob(ctx, newExport("se_00000000000000w2", "acme", t0), jobstore.Creation{ClaimedHere: true}); err != nil {
		t.Fatal(err)
	}
	rec, _, err = w.ClaimExport(ctx, "worker", t0, time.Minute)
	if err != nil || rec == nil {
		t.Fatalf("claim: %+v %v", rec, err)
	}
	if err := w.RenewLease(ctx, rec, time.Time{}); err != nil {
		t.Fatal(err)
	}
	// Notifications arrive in the order their transactions committed:
	// once the wake of a start that is no one's (made after the
	// hand-back) is heard, any wake the promised start had made would
	// have been heard before it.
	if _, err := w.CreateExportJob(ctx, newExport("se_00000000000000w3", "acme", t0), jobstore.Creation{}); err != nil {
		t.Fatal(err)
	}
	testutil.Eventually(t, 5*time.Second, "the other replica woken by a start that is no one's", func() bool { return rWakes.Load() >= 5 })
	if n := rWakes.Load(); n != 5 {
		t.Fatalf("the other replica was woken %d times, want 5: a start promised to a worker of the starting replica woke it", n)
	}
}

// A notification wakes a replica's workers unless it started the job
// itself or the replica that did took it for an idle worker of its own;
// servers before the promise send a bare instance id, and those before
// the id an empty payload.
func TestPGClaims_wakesFor(t *testing.T) {
	s := &pgClaims{&pgCore{instance: "aaaa"}}
	for _, tc := range []struct {
		payload string
		want    bool
	}{
		{startPayload("aaaa", false), false},
		{startPayload("aaaa", true), false},
		{startPayload("bbbb", false), true},
		{startPayload("bbbb", true), false},
		{"", true},
	} {
		if got := s.wakesFor(tc.payload); got != tc.want {
			t.Errorf("wakesFor(%q) = %v, want %v", tc.payload, got, tc.want)
		}
	}
}
