package jobstore

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/pgtest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// The memo's bookkeeping alone: what it keeps, what a change or a lost
// connection drops, and that a query's answer read before a change is
// never kept after the change's notice.
func TestRecordMemo_keepsOnlyWhatNoChangeOvertook(t *testing.T) {
	rec := func(id string, pages int) map[string]*ExportJob {
		return map[string]*ExportJob{id: {JobID: id, PageCount: pages}}
	}
	has := func(m *recordMemo, id string, pages int) bool {
		got, ok := m.get(id)
		return ok && got.PageCount == pages
	}
	var m recordMemo
	m.end(m.begin(), rec("a", 1))
	if _, ok := m.get("a"); ok {
		t.Fatal("a memo that never listened kept a record")
	}
	m.up(time.Now().Add(time.Hour))
	m.end(m.begin(), rec("a", 1))
	if !has(&m, "a", 1) {
		t.Fatal("a query's answer was not kept")
	}
	got, _ := m.get("a")
	got.PageCount = 99 // the caller's own copy
	if !has(&m, "a", 1) {
		t.Fatal("changing a served record changed the memo")
	}

	// A change noticed while a query is in flight: that query's answer
	// may predate it and is not kept; a query begun after it is.
	s0 := m.begin()
	m.changed("a")
	if _, ok := m.get("a"); ok {
		t.Fatal("a change left its job's record in the memo")
	}
	s1 := m.begin()
	m.end(s0, rec("a", 1))
	if _, ok := m.get("a"); ok {
		t.Fatal("an answer read before a change was kept after its notice")
	}
	m.end(s1, rec("a", 2))
	if !has(&m, "a", 2) {
		t.Fatal("an answer read after a change was not kept")
	}
	if len(m.changedAt) != 0 {
		t.Fatalf("no query in flight, yet %d changes remembered", len(m.changedAt))
	}
	// Another job's change does not stop an answer being kept.
	s2 := m.begin()
	m.changed("b")
	m.end(s2, rec("a", 3))
	if !has(&m, "a", 3) {
		t.Fatal("a change to another job dropped this one's answer")
	}

	// An empty notice (a TRUNCATE) drops everything, and answers in flight.
	s3 := m.begin()
	m.changed("")
	m.end(s3, rec("c", 1))
	if _, ok := m.get("a"); ok {
		t.Fatal("a TRUNCATE's notice left a record")
	}
	if _, ok := m.get("c"); ok {
		t.Fatal("an answer read before a TRUNCATE's notice was kept")
	}

	// Going down drops everything and serves nothing; coming up again
	// does not keep what was read before.
	m.end(m.begin(), rec("a", 4))
	s4 := m.begin()
	m.down()
	if _, ok := m.get("a"); ok {
		t.Fatal("served a record while not listening")
	}
	m.up(time.Now().Add(time.Hour))
	m.end(s4, rec("a", 4))
	if _, ok := m.get("a"); ok {
		t.Fatal("kept an answer read while not listening")
	}
	// Liveness runs out: nothing is served, though nothing was dropped.
	m.end(m.begin(), rec("a", 5))
	m.liveUntil.Store(time.Now().Add(-time.Millisecond).UnixNano())
	if _, ok := m.get("a"); ok {
		t.Fatal("served a record after its listener's last sign of life ran out")
	}
	m.alive(time.Now().Add(time.Hour))
	if !has(&m, "a", 5) {
		t.Fatal("a heartbeat did not make the memo serve again")
	}
	m.down()
	m.alive(time.Now().Add(time.Hour))
	if _, ok := m.get("a"); ok {
		t.Fatal("a late heartbeat revived a memo that went down")
	}

	// Bounds: entries, and the changes remembered while queries never
	// stop overlapping.
	m.up(time.Now().Add(time.Hour))
	for i := range memoMaxEntries + 10 {
		m.end(m.begin(), rec(fmt.Sprint(i), i))
	}
	if n := m.n.Load(); n > memoMaxEntries || n < 1 {
		t.Fatalf("%d entries, bound %d", n, memoMaxEntries)
	}
	held := m.begin()
	for i := range memoMaxEntries + 10 {
		m.changed(fmt.Sprint(i))
	}
	if len(m.changedAt) > memoMaxEntries {
		t.Fatalf("%d changes remembered, bound %d", len(m.changedAt), memoMaxEntries)
	}
	m.end(held, rec("1", 1))
	if _, ok := m.get("1"); ok {
		t.Fatal("an answer read before changes that overflowed the bound was kept")
	}
}

// pgPair opens two PostgreSQL stores on one database, as two replicas,
// each through its own proxy so a test can take one replica's database
// away; and a plain connection for SQL from outside, as an operator's.
func pgPair(t *testing.T) (w, r *Postgres, rProxy *pgtest.Proxy, sql *pgx.Conn) {
	t.Helper()
	url := pgtest.DB(t)
	open := func(u string) *Postgres {
		st, err := OpenPostgres(context.Background(), u)
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
func eventually(t *testing.T, st *Postgres, id, what string, want func(*ExportJob, error) bool) {
	t.Helper()
	testutil.Eventually(t, 5*time.Second, what, func() bool { return want(st.PollExportJob(id)) })
}

// fromMemo waits, five seconds at most, until a poll of id on st answers
// page count n without a statement.
func fromMemo(t *testing.T, st *Postgres, id string, n int) {
	t.Helper()
	eventually(t, st, id, "a poll from the memo", func(*ExportJob, error) bool {
		before := st.Statements()
		got, err := st.PollExportJob(id)
		return err == nil && got.PageCount == n && st.Statements() == before
	})
}

func pages(n int) func(*ExportJob, error) bool {
	return func(rec *ExportJob, err error) bool { return err == nil && rec.PageCount == n }
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
	if err := w.PutExportJob(rec); err != nil {
		t.Fatal(err)
	}
	// The put's notice may come after the first read: then that read's
	// record is dropped and the next poll reads it again.
	fromMemo(t, r, rec.JobID, 0)
	before, acq := r.Statements(), r.pool.Stat().AcquireCount()
	const polls = 200
	for range polls {
		got, err := r.PollExportJob(rec.JobID)
		if err != nil || got.JobID != rec.JobID {
			t.Fatalf("poll: %+v, %v", got, err)
		}
		got.Paths = append(got.Paths, "mine") // the poller's own copy
	}
	if d, a := r.Statements()-before, r.pool.Stat().AcquireCount()-acq; d != 0 || a != 0 {
		t.Fatalf("%d polls of a job that stood still sent %d statements (%d pool acquisitions), want 0", polls, d, a)
	}
	if got, _ := r.PollExportJob(rec.JobID); len(got.Paths) != 0 {
		t.Fatalf("a poller's change reached the memo: %v", got.Paths)
	}

	// The other replica's write.
	rec.PageCount = 1
	if err := w.PutExportJob(rec); err != nil {
		t.Fatal(err)
	}
	eventually(t, r, rec.JobID, "the other replica's write", pages(1))

	// This replica's own writes, each seen by the very next poll.
	for i := 2; i <= 20; i++ {
		if _, err := r.PollExportJob(rec.JobID); err != nil {
			t.Fatal(err)
		}
		rec.PageCount = i
		if err := r.PutExportJob(rec); err != nil {
			t.Fatal(err)
		}
		if got, err := r.PollExportJob(rec.JobID); err != nil || got.PageCount != i {
			t.Fatalf("poll right after this replica's write %d: %+v, %v", i, got, err)
		}
	}
	if err := r.SetBundleSize(rec.JobID, 4096); err != nil {
		t.Fatal(err)
	}
	if got, err := r.PollExportJob(rec.JobID); err != nil || got.BundleSize != 4096 {
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
	gone := func(_ *ExportJob, err error) bool { return errors.Is(err, ErrNoRecord) }
	eventually(t, r, rec.JobID, "a DELETE from outside", gone)

	if err := w.PutExportJob(rec); err != nil {
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
	if err := w.PutExportJob(rec); err != nil {
		t.Fatal(err)
	}
	eventually(t, r, rec.JobID, "first read", pages(0))

	// Lost: connections reset. Polls fail rather than answer from memory.
	rProxy.Cut()
	rec.PageCount = 1
	if err := w.PutExportJob(rec); err != nil {
		t.Fatal(err)
	}
	eventually(t, r, rec.JobID, "polls with the database lost", func(got *ExportJob, err error) bool {
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
	if err := w.PutExportJob(rec); err != nil {
		rProxy.Thaw()
		t.Fatal(err)
	}
	// No heartbeat comes back through the frozen proxy, so the memo's
	// deadline, the last one sent before the freeze plus memoLive, is
	// already set: wait for it to pass, and check it is not later.
	testutil.Eventually(t, 5*time.Second, "the memo to stop serving", func() bool { return !r.reads.memo.live() })
	if until := time.Unix(0, r.reads.memo.liveUntil.Load()); until.After(frozeAt.Add(memoLive)) {
		rProxy.Thaw()
		t.Fatalf("the memo served until %s after the silence began, more than memoLive (%s)", until.Sub(frozeAt), memoLive)
	}
	type answer struct {
		rec *ExportJob
		err error
	}
	done := make(chan answer, 1)
	go func() {
		got, err := r.PollExportJob(rec.JobID)
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
	if err := w.PutExportJob(rec); err != nil {
		t.Fatal(err)
	}
	const writes = 50
	pollWhileWriting(t, w, r, rec, writes, 16, nil, func() {
		eventually(t, r, rec.JobID, "the last write", pages(writes))
	})
}
