package jobstore

import (
	"fmt"
	"testing"
	"time"
)

// The memo's bookkeeping alone: what it keeps, what a change or a lost
// connection drops, and that a query's answer read before a change is
// never kept after the change's notice.
func TestRecordMemo_keepsOnlyWhatNoChangeOvertook(t *testing.T) {
	rec := func(id string, pages int) map[string]*ExportJob {
		return map[string]*ExportJob{id: {JobID: id, PageCount: pages}}
	}
	has := func(m *RecordMemo, id string, pages int) bool {
		got, ok := m.Get(id)
		return ok && got.PageCount == pages
	}
	var m RecordMemo
	m.End(m.Begin(), rec("a", 1))
	if _, ok := m.Get("a"); ok {
		t.Fatal("a memo that never listened kept a record")
	}
	m.Up(time.Now().Add(time.Hour))
	m.End(m.Begin(), rec("a", 1))
	if !has(&m, "a", 1) {
		t.Fatal("a query's answer was not kept")
	}
	got, _ := m.Get("a")
	got.PageCount = 99 // the caller's own copy
	if !has(&m, "a", 1) {
		t.Fatal("changing a served record changed the memo")
	}

	// A change noticed while a query is in flight: that query's answer
	// may predate it and is not kept; a query begun after it is.
	s0 := m.Begin()
	m.Changed("a")
	if _, ok := m.Get("a"); ok {
		t.Fatal("a change left its job's record in the memo")
	}
	s1 := m.Begin()
	m.End(s0, rec("a", 1))
	if _, ok := m.Get("a"); ok {
		t.Fatal("an answer read before a change was kept after its notice")
	}
	m.End(s1, rec("a", 2))
	if !has(&m, "a", 2) {
		t.Fatal("an answer read after a change was not kept")
	}
	if len(m.changedAt) != 0 {
		t.Fatalf("no query in flight, yet %d changes remembered", len(m.changedAt))
	}
	// Another job's change does not stop an answer being kept.
	s2 := m.Begin()
	m.Changed("b")
	m.End(s2, rec("a", 3))
	if !has(&m, "a", 3) {
		t.Fatal("a change to another job dropped this one's answer")
	}

	// An empty notice (a TRUNCATE) drops everything, and answers in flight.
	s3 := m.Begin()
	m.Changed("")
	m.End(s3, rec("c", 1))
	if _, ok := m.Get("a"); ok {
		t.Fatal("a TRUNCATE's notice left a record")
	}
	if _, ok := m.Get("c"); ok {
		t.Fatal("an answer read before a TRUNCATE's notice was kept")
	}

	// Going down drops everything and serves nothing; coming up again
	// does not keep what was read before.
	m.End(m.Begin(), rec("a", 4))
	s4 := m.Begin()
	m.Down()
	if _, ok := m.Get("a"); ok {
		t.Fatal("served a record while not listening")
	}
	m.Up(time.Now().Add(time.Hour))
	m.End(s4, rec("a", 4))
	if _, ok := m.Get("a"); ok {
		t.Fatal("kept an answer read while not listening")
	}
	// Liveness runs out: nothing is served, though nothing was dropped.
	m.End(m.Begin(), rec("a", 5))
	m.liveUntil.Store(time.Now().Add(-time.Millisecond).UnixNano())
	if _, ok := m.Get("a"); ok {
		t.Fatal("served a record after its listener's last sign of life ran out")
	}
	m.Alive(time.Now().Add(time.Hour))
	if !has(&m, "a", 5) {
		t.Fatal("a heartbeat did not make the memo serve again")
	}
	m.Down()
	m.Alive(time.Now().Add(time.Hour))
	if _, ok := m.Get("a"); ok {
		t.Fatal("a late heartbeat revived a memo that went down")
	}

	// Bounds: entries, and the changes remembered while queries never
	// stop overlapping.
	m.Up(time.Now().Add(time.Hour))
	for i := range memoMaxEntries + 10 {
		m.End(m.Begin(), rec(fmt.Sprint(i), i))
	}
	if n := m.n.Load(); n > memoMaxEntries || n < 1 {
		t.Fatalf("%d entries, bound %d", n, memoMaxEntries)
	}
	held := m.Begin()
	for i := range memoMaxEntries + 10 {
		m.Changed(fmt.Sprint(i))
	}
	if len(m.changedAt) > memoMaxEntries {
		t.Fatalf("%d changes remembered, bound %d", len(m.changedAt), memoMaxEntries)
	}
	m.End(held, rec("1", 1))
	if _, ok := m.Get("1"); ok {
		t.Fatal("an answer read before changes that overflowed the bound was kept")
	}
}
