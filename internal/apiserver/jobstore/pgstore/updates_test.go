package pgstore

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
)

// createUpdate stores an update of project that starts behind the
// project's latest, the way the server does, and reports whether it was
// stored.
func createUpdate(t *testing.T, st jobstore.Store, id, org, project string, now time.Time, limit int) (*jobstore.Update, bool) {
	t.Helper()
	rec := &jobstore.Update{ID: id, OrgID: org, ProjectID: project, CreatedAt: now}
	_, limited, err := st.CreateUpdate(t.Context(), rec, limit, now, func(prev *jobstore.Update) {
		rec.StartAt = now.Add(time.Second)
		if prev != nil && prev.EndAt.After(rec.StartAt) {
			rec.StartAt = prev.EndAt
		}
		rec.EndAt = rec.StartAt.Add(3 * time.Second)
	})
	if err != nil {
		t.Fatal(err)
	}
	return rec, !limited
}

// Concurrent triggers on every replica run one after another (each starts
// where the one before it ends), stop at the limit of running updates,
// and do not hold up another project; deletes by organization and by age
// take exactly theirs.
func TestStore_updatesQueueAndLimit(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			stores := b.pair(t)
			const tries, limit = 12, 5
			var wg sync.WaitGroup
			var mu sync.Mutex
			var stored []*jobstore.Update
			for i := range tries {
				wg.Add(1)
				go func() {
					defer wg.Done()
					rec, ok := createUpdate(t, stores[i%2], fmt.Sprintf("upd_%02d", i), "acme", "proj_docs", t0, limit)
					if ok {
						mu.Lock()
						stored = append(stored, rec)
						mu.Unlock()
					}
				}()
			}
			wg.Wait()
			if len(stored) != limit {
				t.Fatalf("%d updates stored under a limit of %d", len(stored), limit)
			}
			// Each start is another's end (or the first's queue time):
			// no two builds overlap.
			starts := map[time.Time]bool{}
			for _, u := range stored {
				if starts[u.StartAt] {
					t.Fatalf("two updates start at %s", u.StartAt)
				}
				starts[u.StartAt] = true
				got, err := stores[1].Update(t.Context(), u.ID)
				if err != nil || !got.EndAt.Equal(u.EndAt) {
					t.Fatalf("read back %s: %+v, %v", u.ID, got, err)
				}
			}
			if _, ok := createUpdate(t, stores[0], "upd_other", "other", "proj_other", t0, limit); !ok {
				t.Fatal("another project was held up")
			}
			// Once they have all ended, the next starts after a queue time.
			later := t0.Add(time.Hour)
			if rec, ok := createUpdate(t, stores[1], "upd_later", "acme", "proj_docs", later, limit); !ok || !rec.StartAt.Equal(later.Add(time.Second)) {
				t.Fatalf("an update after the others ended: stored %t, starts %s", ok, rec.StartAt)
			}
			if n, err := stores[0].DeleteOrgUpdates(t.Context(), "other"); err != nil || n != 1 {
				t.Fatalf("delete the other organization's: %d, %v", n, err)
			}
			if n, err := stores[1].DeleteUpdatesBefore(t.Context(), t0.Add(time.Minute)); err != nil || n != limit {
				t.Fatalf("delete the old ones: %d, %v", n, err)
			}
			for _, id := range []string{"upd_other", stored[0].ID} {
				if _, err := stores[0].Update(t.Context(), id); !errors.Is(err, jobstore.ErrNoRecord) {
					t.Fatalf("%s after its delete: %v", id, err)
				}
			}
			if _, err := stores[0].Update(t.Context(), "upd_later"); err != nil {
				t.Fatalf("the later update went too: %v", err)
			}
		})
	}
}

// RunningUpdates counts what CreateUpdate's limit counts, without a
// write; FinishUpdateCheck records a pending update's outcome on every
// replica and keeps the rest of the record.
func TestStore_runningUpdatesAndTheBuildCheck(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			stores := b.pair(t)
			st, other := stores[0], stores[1]
			if n, _, err := st.RunningUpdates(t.Context(), "proj_docs", t0); err != nil || n != 0 {
				t.Fatalf("RunningUpdates of a project without updates = %d, %v", n, err)
			}
			first, _ := createUpdate(t, st, "upd_01", "acme", "proj_docs", t0, 5)
			createUpdate(t, st, "upd_02", "acme", "proj_docs", t0, 2)
			createUpdate(t, st, "upd_03", "acme", "proj_other", t0, 5)
			n, firstEnd, err := st.RunningUpdates(t.Context(), "proj_docs", t0)
			if err != nil || n != 2 || !firstEnd.Equal(first.EndAt) {
				t.Fatalf("RunningUpdates = %d, %s, %v; want 2 ending first at %s", n, firstEnd, err, first.EndAt)
			}
			if n, _, _ := st.RunningUpdates(t.Context(), "proj_docs", first.EndAt); n != 1 {
				t.Fatalf("RunningUpdates once the first has ended = %d, want 1", n)
			}

			pending := &jobstore.Update{ID: "upd_04", OrgID: "acme", ProjectID: "proj_p", CreatedAt: t0, SHA: "abc", Pending: true, Pages: 3}
			if _, _, err := st.CreateUpdate(t.Context(), pending, 5, t0, func(*jobstore.Update) { pending.EndAt = t0.Add(time.Second) }); err != nil {
				t.Fatal(err)
			}
			if err := other.FinishUpdateCheck(t.Context(), "upd_04", "docs.json: not found"); err != nil {
				t.Fatal(err)
			}
			got, err := st.Update(t.Context(), "upd_04")
			if err != nil || got.Pending || got.Failure != "docs.json: not found" || got.SHA != "abc" || got.Pages != 3 || !got.EndAt.Equal(pending.EndAt) {
				t.Fatalf("after the check: %+v, %v", got, err)
			}
			if err := st.FinishUpdateCheck(t.Context(), "upd_04", ""); err != nil {
				t.Fatal(err)
			}
			if got, _ := st.Update(t.Context(), "upd_04"); got.Failure != "" || got.Pending {
				t.Fatalf("after a passing check: %+v", got)
			}
			if err := st.FinishUpdateCheck(t.Context(), "upd_missing", ""); !errors.Is(err, jobstore.ErrNoRecord) {
				t.Fatalf("FinishUpdateCheck of a missing update = %v, want ErrNoRecord", err)
			}
		})
	}
}
