package pgstore

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/pgtest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// pgPair opens two PostgreSQL stores on one database, as two replicas,
// each through its own proxy so a test can take one replica's database
// away; and a plain connection for SQL from outside, as an operator's.
func pgPair(t *testing.T) (w, r *Postgres, rProxy *pgtest.Proxy, sql *pgx.Conn) {
	t.Helper()
	url := pgtest.DB(t)
	open := func(u string) *Postgres {
		st, err := Open(context.Background(), u)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = st.Close() })
		return st
	}
	w = open(url)
	rURL, rProxy := pgtest.Interruptible(t, url)
	r = open(rURL)
	sql, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sql.Close(context.Background()) })
	return w, r, rProxy, sql
}

// eventually polls id on st until want accepts the answer, for at most
// five seconds.
func eventually(t *testing.T, st *Postgres, id, what string, want func(*jobstore.ExportJob, error) bool) {
	t.Helper()
	testutil.Eventually(t, 5*time.Second, what, func() bool { return want(st.PollExportJob(t.Context(), id)) })
}

// fromMemo waits, five seconds at most, until a poll of id on st answers
// page count n without a statement.
func fromMemo(t *testing.T, st *Postgres, id string, n int) {
	t.Helper()
	eventually(t, st, id, "a poll from the memo", func(*jobstore.ExportJob, error) bool {
		before := st.Statements()
		got, err := st.PollExportJob(t.Context(), id)
		return err == nil && got.PageCount == n && st.Statements() == before
	})
}

func pages(n int) func(*jobstore.ExportJob, error) bool {
	return func(rec *jobstore.ExportJob, err error) bool { return err == nil && rec.PageCount == n }
}

// A job that stands still is polled without a statement; every way its
// row can change reaches the polls of every replica: the store's writes
// on either, and SQL from outside the server (UPDATE, DELETE, TRUNCATE).
// A replica's own write is in its next poll at once.
func TestPGStore_pollsFromMemoSeeEveryWriter(t *testing.T) {
	w, r, _, sql := pgPair(t)
	ctx := context.Background()
	rec := newExport("se_00000000000000m1", "acme", t0)
	rec.Status = api.ExportCompleted
	if err := w.PutExportJob(ctx, rec); err != nil {
		t.Fatal(err)
	}
	// The put's notice may come after the first read: then that read's
	// record is dropped and the next poll reads it again.
	fromMemo(t, r, rec.JobID, 0)
	before, acq := r.Statements(), r.pool.Stat().AcquireCount()
	const polls = 200
	for range polls {
		got, err := r.PollExportJob(ctx, rec.JobID)
		if err != nil || got.JobID != rec.JobID {
			t.Fatalf("poll: %+v, %v", got, err)
		}
		got.Paths = append(got.Paths, "mine") // the poller's own copy
	}
	if d, a := r.Statements()-before, r.pool.Stat().AcquireCount()-acq; d != 0 || a != 0 {
		t.Fatalf("%d polls of a job that stood still sent %d statements (%d pool acquisitions), want 0", polls, d, a)
	}
	if got, _ := r.PollExportJob(ctx, rec.JobID); len(got.Paths) != 0 {
		t.Fatalf("a poller's change reached the memo: %v", got.Paths)
	}

	// The other replica's write.
	rec.PageCount = 1
	if err := w.PutExportJob(ctx, rec); err != nil {
		t.Fatal(err)
	}
	eventually(t, r, rec.JobID, "the other replica's write", pages(1))

	// This replica's own writes, each seen by the very next poll.
	for i := 2; i <= 20; i++ {
		if _, err := r.PollExportJob(ctx, rec.JobID); err != nil {
			t.Fatal(err)
		}
		rec.PageCount = i
		if err := r.PutExportJob(ctx, rec); err != nil {
			t.Fatal(err)
		}
		if got, err := r.PollExportJob(ctx, rec.JobID); err != nil || got.PageCount != i {
			t.Fatalf("poll right after this replica's write %d: %+v, %v", i, got, err)
		}
	}
	if err := r.SetBundleSize(ctx, rec.JobID, 4096); err != nil {
		t.Fatal(err)
	}
	if got, err := r.PollExportJob(ctx, rec.JobID); err != nil || got.BundleSize != 4096 {
		t.Fatalf("poll right after this replica's SetBundleSize: %+v, %v", got, err)
	}

	// SQL from outside.
	eventually(t, w, rec.JobID, "the writer's poll", pages(20))
	if _, err := sql.Exec(ctx, `UPDATE export_jobs SET record = jsonb_set(record, '{pageCount}', '21') WHERE job_id = $1`, rec.JobID); err != nil {
		t.Fatal(err)
	}
	eventually(t, r, rec.JobID, "an UPDATE from outside", pages(21))
	eventually(t, w, rec.JobID, "an UPDATE from outside, on the writer", pages(21))
	if _, err := sql.Exec(ctx, `DELETE FROM export_jobs WHERE job_id = $1`, rec.JobID); err != nil {
		t.Fatal(err)
	}
	gone := func(_ *jobstore.ExportJob, err error) bool { return errors.Is(err, jobstore.ErrNoRecord) }
	eventually(t, r, rec.JobID, "a DELETE from outside", gone)

	if err := w.PutExportJob(ctx, rec); err != nil {
		t.Fatal(err)
	}
	eventually(t, r, rec.JobID, "the job put back", pages(20))
	if _, err := sql.Exec(ctx, `TRUNCATE export_jobs`); err != nil {
		t.Fatal(err)
	}
	eventually(t, r, rec.JobID, "a TRUNCATE", gone)
}

// A replica whose connection to the database is lost, or goes silent
// without dropping, stops answering polls from memory: a write made
// meanwhile is never hidden behind a record read before.
func TestPGStore_pollsNeverOutliveTheirListener(t *testing.T) {
	w, r, rProxy, _ := pgPair(t)
	rec := newExport("se_00000000000000m2", "acme", t0)
	if err := w.PutExportJob(t.Context(), rec); err != nil {
		t.Fatal(err)
	}
	eventually(t, r, rec.JobID, "first read", pages(0))

	// Lost: connections reset. Polls fail rather than answer from memory.
	rProxy.Cut()
	rec.PageCount = 1
	if err := w.PutExportJob(t.Context(), rec); err != nil {
		t.Fatal(err)
	}
	eventually(t, r, rec.JobID, "polls with the database lost", func(got *jobstore.ExportJob, err error) bool {
		if err == nil && got.PageCount == 1 {
			t.Fatal("a poll reached the database through a cut connection")
		}
		return err != nil
	})
	rProxy.Restore()
	eventually(t, r, rec.JobID, "polls with the database back", pages(1))

	// Silent: nothing passes, nothing resets. Within memoLive the memo
	// stops (the last heartbeat that came back was sent before the
	// silence); the poll then waits for the database instead of
	// answering the record it holds.
	fromMemo(t, r, rec.JobID, 1)
	frozeAt := time.Now()
	rProxy.Freeze()
	rec.PageCount = 2
	if err := w.PutExportJob(t.Context(), rec); err != nil {
		rProxy.Thaw()
		t.Fatal(err)
	}
	// No heartbeat comes back through the frozen proxy, so the memo's
	// deadline, the last one sent before the freeze plus memoLive, is
	// already set: wait for it to pass, and check it is not later.
	testutil.Eventually(t, 5*time.Second, "the memo to stop serving", func() bool { return !r.reads.memo.Live() })
	if until := r.reads.memo.LiveUntil(); until.After(frozeAt.Add(memoLive)) {
		rProxy.Thaw()
		t.Fatalf("the memo served until %s after the silence began, more than memoLive (%s)", until.Sub(frozeAt), memoLive)
	}
	type answer struct {
		rec *jobstore.ExportJob
		err error
	}
	done := make(chan answer, 1)
	go func() {
		got, err := r.PollExportJob(t.Context(), rec.JobID)
		done <- answer{got, err}
	}()
	select {
	case a := <-done:
		rProxy.Thaw()
		t.Fatalf("a poll over a silent connection answered %+v, %v (want it to wait for the database)", a.rec, a.err)
	case <-time.After(500 * time.Millisecond):
	}
	rProxy.Thaw()
	select {
	case a := <-done:
		if a.err != nil || a.rec.PageCount != 2 {
			t.Fatalf("the poll held over the silence answered %+v, %v; want page count 2", a.rec, a.err)
		}
	case <-time.After(pgOpTimeout + 5*time.Second):
		t.Fatal("the held poll never answered")
	}
	eventually(t, r, rec.JobID, "polls after the silence", pages(2))
}

// Many pollers on one replica while the other writes: every poll's record
// is one that was written, and the polls catch up with the last write.
func TestPGStore_pollsUnderWrites(t *testing.T) {
	w, r, _, _ := pgPair(t)
	rec := newExport("se_00000000000000m3", "acme", t0)
	if err := w.PutExportJob(t.Context(), rec); err != nil {
		t.Fatal(err)
	}
	const writes = 50
	pollWhileWriting(t, w, r, rec, writes, 16, nil, func() {
		eventually(t, r, rec.JobID, "the last write", pages(writes))
	})
}
