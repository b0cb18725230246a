package pgstore

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
)

// Jobs are claimed oldest first, once each while their lease runs; a job
// whose lease lapsed is taken over as a new attempt, and the worker that
// lost it can neither renew nor overwrite the new owner's outcome.
func TestStore_claimLeaseTakeover(t *testing.T) {
	const lease = 30 * time.Second
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			stores := b.pair(t)
			for i, id := range []string{"se_old", "se_new"} {
				if _, err := stores[0].CreateExportJob(t.Context(), newExport(id, "acme", t0.Add(time.Duration(i)*time.Second)), jobstore.Creation{}); err != nil {
					t.Fatal(err)
				}
			}
			now := t0.Add(time.Minute)
			a, _, err := stores[0].ClaimExport(t.Context(), "a", now, lease)
			if err != nil || a == nil || a.JobID != "se_old" || a.Attempts != 1 || a.Status != api.ExportRunning {
				t.Fatalf("first claim: %+v %v", a, err)
			}
			b2, _, err := stores[1].ClaimExport(t.Context(), "b", now, lease)
			if err != nil || b2 == nil || b2.JobID != "se_new" {
				t.Fatalf("second claim: %+v %v", b2, err)
			}
			if c, _, err := stores[1].ClaimExport(t.Context(), "c", now.Add(lease-time.Second), lease); err != nil || c != nil {
				t.Fatalf("claim while both leases run: %+v %v", c, err)
			}
			// b renews; a does not, as if its replica died.
			if err := stores[1].RenewLease(t.Context(), b2, now.Add(2*lease)); err != nil {
				t.Fatal(err)
			}
			later := now.Add(lease + time.Second)
			c, _, err := stores[1].ClaimExport(t.Context(), "c", later, lease)
			if err != nil || c == nil || c.JobID != "se_old" || c.Attempts != 2 || c.Owner != "c" {
				t.Fatalf("takeover: %+v %v", c, err)
			}
			if err := stores[0].RenewLease(t.Context(), a, later); !errors.Is(err, jobstore.ErrLeaseLost) {
				t.Fatalf("renewal by the lost owner: %v", err)
			}
			c.Status, c.Progress, c.PageCount = api.ExportCompleted, 100, 7
			if err := stores[1].CompleteAttempt(t.Context(), c); err != nil {
				t.Fatal(err)
			}
			a.Status, a.Error = api.ExportFailed, "stale"
			if err := stores[0].CompleteAttempt(t.Context(), a); !errors.Is(err, jobstore.ErrLeaseLost) {
				t.Fatalf("completion by the lost owner: %v", err)
			}
			got, err := stores[0].ExportJob(t.Context(), "se_old")
			if err != nil || got.Status != api.ExportCompleted || got.PageCount != 7 || got.Owner != "" {
				t.Fatalf("after the stale completion: %+v %v", got, err)
			}
			if err := stores[0].SetBundleSize(t.Context(), "se_old", 123); err != nil {
				t.Fatal(err)
			}
			if got, _ := stores[1].ExportJob(t.Context(), "se_old"); got.BundleSize != 123 || got.Status != api.ExportCompleted {
				t.Fatalf("bundle size: %+v", got)
			}
		})
	}
}

// Workers claiming from every replica at once take each job exactly once.
func TestStore_concurrentClaims(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			stores := b.pair(t)
			const jobs, workers = 40, 6
			for i := range jobs {
				if _, err := stores[i%2].CreateExportJob(t.Context(), newExport(fmt.Sprintf("se_%02d", i), "acme", t0.Add(time.Duration(i))), jobstore.Creation{}); err != nil {
					t.Fatal(err)
				}
			}
			var mu sync.Mutex
			seen := map[string]int{}
			var wg sync.WaitGroup
			for w := range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					st := stores[w%2]
					for range jobs { // bounded: no worker needs more claims than there are jobs
						rec, _, err := st.ClaimExport(t.Context(), fmt.Sprintf("w%d", w), t0.Add(time.Minute), time.Hour)
						if err != nil {
							t.Error(err)
							return
						}
						if rec == nil {
							return
						}
						mu.Lock()
						seen[rec.JobID]++
						mu.Unlock()
						rec.Status = api.ExportCompleted
						if err := st.CompleteAttempt(t.Context(), rec); err != nil {
							t.Error(err)
							return
						}
					}
				}()
			}
			wg.Wait()
			if len(seen) != jobs {
				t.Fatalf("%d of %d jobs claimed", len(seen), jobs)
			}
			for id, n := range seen {
				if n != 1 {
					t.Fatalf("job %s claimed %d times", id, n)
				}
			}
		})
	}
}

// A worker that frees up serves the organization with the fewest jobs
// being rendered before the oldest job: one organization with a queue of
// slow jobs cannot keep another's job waiting behind all of them.
func TestStore_claimFairAcrossOrganizations(t *testing.T) {
	const lease = 30 * time.Second
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			st := b.pair(t)[0]
			jobs := []struct{ id, org string }{{"se_hog1", "hog"}, {"se_hog2", "hog"}, {"se_hog3", "hog"}, {"se_other", "other"}}
			for i, j := range jobs {
				if _, err := st.CreateExportJob(t.Context(), newExport(j.id, j.org, t0.Add(time.Duration(i)*time.Second)), jobstore.Creation{}); err != nil {
					t.Fatal(err)
				}
			}
			now := t0.Add(time.Minute)
			var order []string
			for range jobs {
				rec, _, err := st.ClaimExport(t.Context(), "w", now, lease)
				if err != nil || rec == nil {
					t.Fatalf("claim: %+v %v", rec, err)
				}
				order = append(order, rec.JobID)
			}
			if want := []string{"se_hog1", "se_other", "se_hog2", "se_hog3"}; fmt.Sprint(order) != fmt.Sprint(want) {
				t.Errorf("claim order %v, want %v", order, want)
			}
		})
	}
}

// A claim says whether other jobs were claimable beside the one it took:
// not jobs whose lease still runs, nor finished ones; and a claim that
// finds nothing says no.
func TestStore_claimSaysWhetherMoreWait(t *testing.T) {
	const lease = 30 * time.Second
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			st := b.pair(t)[0]
			for i, id := range []string{"se_m1", "se_m2", "se_m3"} {
				if _, err := st.CreateExportJob(t.Context(), newExport(id, "acme", t0.Add(time.Duration(i)*time.Second)), jobstore.Creation{}); err != nil {
					t.Fatal(err)
				}
			}
			now := t0.Add(time.Minute)
			for _, want := range []struct {
				id   string
				more bool
			}{{"se_m1", true}, {"se_m2", true}, {"se_m3", false}, {"", false}} {
				rec, more, err := st.ClaimExport(t.Context(), "w", now, lease)
				id := ""
				if rec != nil {
					id = rec.JobID
				}
				if err != nil || id != want.id || more != want.more {
					t.Fatalf("claim: %q more %v (%v), want %q more %v", id, more, err, want.id, want.more)
				}
				if rec != nil && rec.JobID == "se_m1" {
					rec.Status = api.ExportCompleted
					if err := st.CompleteAttempt(t.Context(), rec); err != nil {
						t.Fatal(err)
					}
				}
			}
			// A lease that lapsed makes its job claimable again, beside none.
			rec, more, err := st.ClaimExport(t.Context(), "w2", now.Add(lease+time.Second), lease)
			if err != nil || rec == nil || rec.JobID != "se_m2" || !more {
				t.Fatalf("takeover: %+v more %v (%v), want se_m2 with se_m3 claimable too", rec, more, err)
			}
		})
	}
}
