package pgstore

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
)

// A job's life, claim to completion, leaves the same record in both
// stores: PostgreSQL patches the record in SQL (claim, renewal) where
// bbolt runs TakeOver and ExtendLease in Go, and the two must not drift.
// Each step's record is compared whole, field by field.
func TestStore_claimRenewCompleteRecordsAgree(t *testing.T) {
	const lease = 30 * time.Second
	// The records each step leaves, per backend, in step order.
	got := map[string][]*jobstore.ExportJob{}
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			st := b.pair(t)[0]
			rec := newExport("se_life", "acme", t0)
			rec.Paths, rec.Label = []string{"guides/intro"}, "v1"
			// A stale attempt's warnings: a claim renders afresh and drops them.
			rec.Warnings = &api.ExportWarnings{}
			rec.Warnings.Add("content", "left over")
			if _, err := st.CreateExportJob(t.Context(), rec, jobstore.Creation{}); err != nil {
				t.Fatal(err)
			}
			snap := func() {
				t.Helper()
				cur, err := st.ExportJob(t.Context(), "se_life")
				if err != nil {
					t.Fatal(err)
				}
				got[b.name] = append(got[b.name], cur)
			}
			now := t0.Add(time.Minute)
			mine, _, err := st.ClaimExport(t.Context(), "w1", now, lease)
			if err != nil || mine == nil {
				t.Fatalf("claim: %+v %v", mine, err)
			}
			if mine.Warnings != nil || mine.Attempts != 1 || mine.Owner != "w1" || !mine.LeaseUntil.Equal(now.Add(lease)) {
				t.Fatalf("claimed record: %+v", mine)
			}
			snap()
			// Progress moves forward with a renewal, never back.
			mine.Progress, mine.PageCount, mine.UpdatedAt = 40, 4, now.Add(time.Second)
			if err := st.RenewLease(t.Context(), mine, now.Add(2*lease)); err != nil {
				t.Fatal(err)
			}
			snap()
			mine.Progress, mine.PageCount, mine.UpdatedAt = 20, 2, now.Add(2*time.Second)
			if err := st.RenewLease(t.Context(), mine, now.Add(3*lease)); err != nil {
				t.Fatal(err)
			}
			snap()
			// Handed back at shutdown, then taken by another worker.
			if err := st.RenewLease(t.Context(), mine, time.Time{}); err != nil {
				t.Fatal(err)
			}
			snap()
			later := now.Add(time.Minute)
			theirs, _, err := st.ClaimExport(t.Context(), "w2", later, lease)
			if err != nil || theirs == nil || theirs.Attempts != 2 || theirs.PageCount != 0 {
				t.Fatalf("second claim: %+v %v", theirs, err)
			}
			snap()
			mine.Status = api.ExportFailed
			if err := st.CompleteAttempt(t.Context(), mine); !errors.Is(err, jobstore.ErrLeaseLost) {
				t.Fatalf("completion by the first owner: %v, want ErrLeaseLost", err)
			}
			if err := st.RenewLease(t.Context(), mine, later.Add(lease)); !errors.Is(err, jobstore.ErrLeaseLost) {
				t.Fatalf("renewal by the first owner: %v, want ErrLeaseLost", err)
			}
			theirs.Status, theirs.Progress, theirs.PageCount, theirs.Version = api.ExportCompleted, 100, 9, "v-abc"
			theirs.SiteBytes, theirs.SitePrefix = 1234, "exports/se_life/a2/packs/"
			theirs.UpdatedAt = later.Add(time.Second)
			if err := st.CompleteAttempt(t.Context(), theirs); err != nil {
				t.Fatal(err)
			}
			snap()
			if err := st.DeleteExportJob(t.Context(), "se_life"); err != nil {
				t.Fatal(err)
			}
			if err := st.CompleteAttempt(t.Context(), theirs); !errors.Is(err, jobstore.ErrNoRecord) {
				t.Fatalf("completion of a deleted job: %v, want ErrNoRecord", err)
			}
			if err := st.RenewLease(t.Context(), theirs, later.Add(lease)); !errors.Is(err, jobstore.ErrNoRecord) {
				t.Fatalf("renewal of a deleted job: %v, want ErrNoRecord", err)
			}
		})
	}
	want, have := got["bbolt"], got["postgres"]
	if len(have) == 0 {
		return // PostgreSQL skipped
	}
	if len(want) != len(have) {
		t.Fatalf("bbolt took %d steps, postgres %d", len(want), len(have))
	}
	for i := range want {
		if !reflect.DeepEqual(want[i], have[i]) {
			t.Errorf("step %d:\n bbolt    %+v\n postgres %+v", i, want[i], have[i])
		}
	}
}

// Under a write fault an idle worker's claim is no write and does not
// fail; a claim that would take a job fails, and the job stays queued.
func TestStore_claimUnderWriteFault(t *testing.T) {
	boom := errors.New("disk full")
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			st := b.pair(t)[0]
			st.Faults().Fail(func() error { return boom })
			if rec, _, err := st.ClaimExport(t.Context(), "w", t0, time.Minute); err != nil || rec != nil {
				t.Fatalf("claim with nothing queued: %+v %v", rec, err)
			}
			st.Faults().Fail(nil)
			if _, err := st.CreateExportJob(t.Context(), newExport("se_q", "acme", t0), jobstore.Creation{}); err != nil {
				t.Fatal(err)
			}
			st.Faults().Fail(func() error { return boom })
			if rec, _, err := st.ClaimExport(t.Context(), "w", t0, time.Minute); !errors.Is(err, boom) || rec != nil {
				t.Fatalf("claim under a fault: %+v %v, want %v", rec, err, boom)
			}
			st.Faults().Fail(nil)
			if rec, _, err := st.ClaimExport(t.Context(), "w", t0, time.Minute); err != nil || rec == nil || rec.Attempts != 1 {
				t.Fatalf("claim after the fault: %+v %v", rec, err)
			}
		})
	}
}
