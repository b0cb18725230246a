package pgstore

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/pgtest"
)

// backend opens stores on one shared state: replica opens another store
// on the same state, as a second replica would (bbolt has none: one file,
// one process).
type backend struct {
	name    string
	replica func(t *testing.T) jobstore.Store
}

// backends returns the embedded and the PostgreSQL backend, each on a
// fresh state; the store-level tests run against both.
func backends(*testing.T) []backend {
	boltOpen := func(t *testing.T) jobstore.Store {
		st, err := jobstore.OpenBolt(t.Context(), t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = st.Close() })
		return st
	}
	pgOpen := func(t *testing.T) func(t *testing.T) jobstore.Store {
		url := pgtest.DB(t)
		return func(t *testing.T) jobstore.Store {
			st, err := Open(context.Background(), url)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = st.Close() })
			return st
		}
	}
	return []backend{
		{name: "bbolt", replica: func(t *testing.T) jobstore.Store { return boltOpen(t) }},
		{name: "postgres", replica: lazyOnce(pgOpen)},
	}
}

// lazyOnce creates the PostgreSQL database on the first replica, inside
// the subtest, so a skip (no PostgreSQL) skips only that subtest.
func lazyOnce(open func(t *testing.T) func(t *testing.T) jobstore.Store) func(t *testing.T) jobstore.Store {
	var mu sync.Mutex
	var opener func(t *testing.T) jobstore.Store
	return func(t *testing.T) jobstore.Store {
		mu.Lock()
		if opener == nil {
			opener = open(t)
		}
		o := opener
		mu.Unlock()
		return o(t)
	}
}

// pair returns two stores on one state, as two replicas have: two
// PostgreSQL pools, or the one bbolt store twice.
func (b backend) pair(t *testing.T) []jobstore.Store {
	first := b.replica(t)
	if b.name == "bbolt" {
		return []jobstore.Store{first, first}
	}
	return []jobstore.Store{first, b.replica(t)}
}

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func newExport(id, org string, at time.Time) *jobstore.ExportJob {
	return &jobstore.ExportJob{JobID: id, OrgID: org, Domain: "docs.acme.test", Status: api.ExportQueued, CreatedAt: at, UpdatedAt: at}
}

// Concurrent starts on every replica cannot slip past an organization's
// limit of active exports together, and other organizations are not
// counted against it.
func TestStore_exportLimitAcrossReplicas(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			stores := b.pair(t)
			const tries, limit = 20, 5
			var wg sync.WaitGroup
			errs := make([]error, tries)
			for i := range tries {
				wg.Add(1)
				go func() {
					defer wg.Done()
					rec := newExport(fmt.Sprintf("se_%02d", i), "acme", t0.Add(time.Duration(i)))
					_, errs[i] = stores[i%2].CreateExportJob(t.Context(), rec, jobstore.Creation{Limits: jobstore.Limits{Active: limit}})
				}()
			}
			wg.Wait()
			created := 0
			for _, err := range errs {
				switch {
				case err == nil:
					created++
				case !errors.Is(err, jobstore.ErrTooManyActive):
					t.Fatalf("unexpected error: %v", err)
				}
			}
			if created != limit {
				t.Fatalf("%d exports created under a limit of %d", created, limit)
			}
			if _, err := stores[1].CreateExportJob(t.Context(), newExport("se_other", "other", t0), jobstore.Creation{Limits: jobstore.Limits{Active: limit}}); err != nil {
				t.Fatalf("another organization was refused: %v", err)
			}
			if _, err := stores[0].CreateExportJob(t.Context(), newExport("se_more", "acme", t0), jobstore.Creation{Limits: jobstore.Limits{Stored: limit}}); !errors.Is(err, jobstore.ErrTooManyStored) {
				t.Fatalf("stored limit: %v", err)
			}
		})
	}
}

// A key returns the first job for the same request, conflicts for another
// request, and is free again once pruned past its window.
func TestStore_idempotency(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			stores := b.pair(t)
			first := newExport("se_first", "acme", t0)
			if prev, err := stores[0].CreateExportJob(t.Context(), first, jobstore.Creation{IdempotencyKey: "k1", RequestHash: "h1"}); err != nil || prev != nil {
				t.Fatalf("first start: %v %v", prev, err)
			}
			prev, err := stores[1].CreateExportJob(t.Context(), newExport("se_retry", "acme", t0.Add(time.Minute)), jobstore.Creation{IdempotencyKey: "k1", RequestHash: "h1"})
			if err != nil || prev == nil || prev.JobID != "se_first" {
				t.Fatalf("retry: %+v %v", prev, err)
			}
			if _, err := stores[1].CreateExportJob(t.Context(), newExport("se_other", "acme", t0.Add(time.Minute)), jobstore.Creation{IdempotencyKey: "k1", RequestHash: "h2"}); !errors.Is(err, jobstore.ErrIdempotencyConflict) {
				t.Fatalf("reuse for another request: %v", err)
			}
			// Another organization's key is its own.
			if prev, err := stores[0].CreateExportJob(t.Context(), newExport("se_org2", "other", t0), jobstore.Creation{IdempotencyKey: "k1", RequestHash: "h2"}); err != nil || prev != nil {
				t.Fatalf("other organization: %v %v", prev, err)
			}
			later := t0.Add(jobstore.IdempotencyWindow + time.Minute)
			if err := stores[0].PruneIdempotency(t.Context(), later); err != nil {
				t.Fatal(err)
			}
			if prev, err := stores[1].CreateExportJob(t.Context(), newExport("se_new", "acme", later), jobstore.Creation{IdempotencyKey: "k1", RequestHash: "h2"}); err != nil || prev != nil {
				t.Fatalf("after the window: %v %v", prev, err)
			}
		})
	}
}

// The hourly agent-job limit holds when replicas create at once, and pull
// requests are numbered without gaps or repeats.
func TestStore_agentHourlyLimitAcrossReplicas(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			stores := b.pair(t)
			const tries, limit = 12, 4
			var wg sync.WaitGroup
			recs := make([]*jobstore.AgentJob, tries)
			limited := make([]bool, tries)
			for i := range tries {
				wg.Add(1)
				go func() {
					defer wg.Done()
					recs[i] = &jobstore.AgentJob{ID: fmt.Sprintf("aj_%02d", i), OrgID: "acme", ProjectID: "proj_docs", CreatedAt: t0.Add(time.Duration(i) * time.Second)}
					var err error
					_, limited[i], err = stores[i%2].CreateAgentJob(t.Context(), recs[i], limit, t0.Add(-time.Hour))
					if err != nil {
						t.Error(err)
					}
				}()
			}
			wg.Wait()
			prs := map[uint64]bool{}
			for i := range tries {
				if !limited[i] {
					prs[recs[i].PRNumber] = true
				}
			}
			if len(prs) != limit || !prs[1] || !prs[limit] {
				t.Fatalf("pull requests %v, want 1..%d once each", prs, limit)
			}
			oldest, lim, err := stores[0].CreateAgentJob(t.Context(), &jobstore.AgentJob{ID: "aj_late", ProjectID: "proj_docs", CreatedAt: t0.Add(time.Minute)}, limit, t0.Add(-time.Hour))
			if err != nil || !lim || oldest.IsZero() {
				t.Fatalf("over the limit: oldest %v limited %v err %v", oldest, lim, err)
			}
			n, err := stores[1].DeleteAgentJobsBefore(t.Context(), t0.Add(time.Hour))
			if err != nil || n != limit {
				t.Fatalf("deleted %d (%v), want %d", n, err, limit)
			}
		})
	}
}
