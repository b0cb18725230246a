package pgstore

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/pgtest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// Every store call given a context that has ended returns its error and
// changes nothing, on both backends: a request whose client has gone, or a
// server that is shutting down, does no work.
func TestStore_cancelledContext(t *testing.T) {
	calls := []struct {
		name string
		call func(ctx context.Context, st jobstore.Store) error
	}{
		{"CreateExportJob", func(ctx context.Context, st jobstore.Store) error {
			_, err := st.CreateExportJob(ctx, newExport("se_new", "acme", t0), jobstore.Creation{})
			return err
		}},
		{"ExportJob", func(ctx context.Context, st jobstore.Store) error { _, err := st.ExportJob(ctx, "se_kept"); return err }},
		{"PollExportJob", func(ctx context.Context, st jobstore.Store) error {
			// Not in the memo yet: the read goes to the store.
			_, err := st.PollExportJob(ctx, "se_unread")
			return err
		}},
		{"ExportJobs", func(ctx context.Context, st jobstore.Store) error { _, err := st.ExportJobs(ctx); return err }},
		{"LatestCompletedExport", func(ctx context.Context, st jobstore.Store) error {
			_, err := st.LatestCompletedExport(ctx, "acme", "docs.acme.test", "")
			return err
		}},
		{"PutExportJob", func(ctx context.Context, st jobstore.Store) error {
			return st.PutExportJob(ctx, newExport("se_put", "acme", t0))
		}},
		{"SetBundleSize", func(ctx context.Context, st jobstore.Store) error { return st.SetBundleSize(ctx, "se_kept", 7) }},
		{"DeleteExportJob", func(ctx context.Context, st jobstore.Store) error { return st.DeleteExportJob(ctx, "se_kept") }},
		{"PruneIdempotency", func(ctx context.Context, st jobstore.Store) error { return st.PruneIdempotency(ctx, t0.Add(time.Hour)) }},
		{"ClaimExport", func(ctx context.Context, st jobstore.Store) error {
			_, _, err := st.ClaimExport(ctx, "w", t0, time.Minute)
			return err
		}},
		{"CreateAgentJob", func(ctx context.Context, st jobstore.Store) error {
			_, _, err := st.CreateAgentJob(ctx, &jobstore.AgentJob{ID: "aj_new", ProjectID: "proj_docs", CreatedAt: t0}, 5, t0.Add(-time.Hour))
			return err
		}},
		{"AgentJob", func(ctx context.Context, st jobstore.Store) error { _, err := st.AgentJob(ctx, "aj_kept"); return err }},
		{"DeleteAgentJobsBefore", func(ctx context.Context, st jobstore.Store) error {
			_, err := st.DeleteAgentJobsBefore(ctx, t0.Add(time.Hour))
			return err
		}},
		{"DeleteOrgUpdates", func(ctx context.Context, st jobstore.Store) error {
			_, err := st.DeleteOrgUpdates(ctx, "acme")
			return err
		}},
		{"Update", func(ctx context.Context, st jobstore.Store) error { _, err := st.Update(ctx, "up_none"); return err }},
	}
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			st := b.replica(t)
			if _, err := st.CreateExportJob(t.Context(), newExport("se_kept", "acme", t0), jobstore.Creation{}); err != nil {
				t.Fatal(err)
			}
			if _, _, err := st.CreateAgentJob(t.Context(), &jobstore.AgentJob{ID: "aj_kept", ProjectID: "proj_docs", CreatedAt: t0}, 5, t0.Add(-time.Hour)); err != nil {
				t.Fatal(err)
			}
			ended, cancel := context.WithCancel(t.Context())
			cancel()
			for _, c := range calls {
				if err := c.call(ended, st); !errors.Is(err, context.Canceled) {
					t.Errorf("%s on an ended context: %v, want context.Canceled", c.name, err)
				}
			}
			jobs, err := st.ExportJobs(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if len(jobs) != 1 || jobs[0].JobID != "se_kept" || jobs[0].BundleSize != 0 || jobs[0].Status != api.ExportQueued {
				t.Fatalf("export jobs after the cancelled calls: %+v, want se_kept unchanged", jobs)
			}
			if _, err := st.AgentJob(t.Context(), "aj_kept"); err != nil {
				t.Fatalf("agent job after the cancelled calls: %v", err)
			}
			if _, err := st.AgentJob(t.Context(), "aj_new"); !errors.Is(err, jobstore.ErrNoRecord) {
				t.Fatalf("a cancelled create stored aj_new: %v", err)
			}
		})
	}
}

// A start that waits for its organization's lock (another replica's start
// holds it) stops when its context ends: the statement is cancelled in
// PostgreSQL, long before the store's own timeout, and nothing is stored.
func TestPGStore_cancelStopsWaitingCall(t *testing.T) {
	st, holder := storeAndConn(t)
	tx, err := holder.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(context.Background()) //nolint:errcheck // the lock's holder only
	if _, err := tx.Exec(t.Context(), "SELECT pg_advisory_xact_lock($1, hashtext($2))", lockExportOrg, "acme"); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := st.CreateExportJob(ctx, newExport("se_waits", "acme", t0), jobstore.Creation{})
		done <- err
	}()
	// The start is in PostgreSQL, waiting for the lock.
	waitFor(t, holder, 1)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled start: %v, want context.Canceled", err)
		}
	case <-time.After(pgOpTimeout - 5*time.Second):
		t.Fatal("the cancelled start still waits for the lock")
	}
	// Its statement is gone from the database, not only abandoned.
	waitFor(t, holder, 0)
	if err := tx.Rollback(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := st.ExportJob(t.Context(), "se_waits"); !errors.Is(err, jobstore.ErrNoRecord) {
		t.Fatalf("the cancelled start stored its job: %v", err)
	}
}

// waitFor polls, for at most ten seconds (inside pgOpTimeout), until
// want advisory locks are waited for in the database.
func waitFor(t *testing.T, conn *pgx.Conn, want int) {
	t.Helper()
	testutil.Eventually(t, pgOpTimeout-5*time.Second, fmt.Sprintf("%d advisory locks waited for", want), func() bool {
		var n int
		if err := conn.QueryRow(t.Context(), "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n == want
	})
}

// storeAndConn opens a store on a fresh database and a connection of its
// own to the same database, for a test to look at, or lock, from outside.
func storeAndConn(t *testing.T) (*Postgres, *pgx.Conn) {
	t.Helper()
	url := pgtest.DB(t)
	st, err := Open(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return st, conn
}
