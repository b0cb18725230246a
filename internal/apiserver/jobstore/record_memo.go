package jobstore

import (
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// RecordMemo keeps the export job records this replica has read and
// answers reads from them without a round trip, for as long as nothing
// has changed them: a status poll of a job that stands still (queued,
// completed, or between two progress renewals) costs no statement.
//
// Whether a record still stands is learned from the trigger's
// notifications, on a connection of its own (watch). A record is served
// only while that connection listens: when it drops, the memo empties and
// reads go to the database until it listens again, so a missed
// notification can never leave a record stale. What this replica writes
// it also drops itself once the write commits (changed), so a client sees
// its own write on the replica that made it at once. A write committed on
// another replica reaches this one's memo when the notification arrives,
// which on one network is well under a millisecond: a read here in that
// moment answers as a read that came a moment earlier would.
//
// A query's answer is kept only if no notification for its job arrived
// after the query began (seq and changedAt), so an answer read before a
// write cannot outlive the notification of that write. The zero value
// serves nothing until up is called.
//
// The embedded store uses it too, made to serve for good (serveForGood):
// its process is the file's only writer, and every commit that writes an
// export job calls changed before the write returns (exportIndex.onWrite).
type RecordMemo struct {
	entries sync.Map // job id → *ExportJob, never changed once stored
	// liveUntil is when the memo stops serving (Unix nanoseconds) unless
	// the changes connection shows it still listens; 0 while it does not.
	liveUntil atomic.Int64
	n         atomic.Int64 // entries held
	hits      atomic.Int64 // reads answered from it, for metrics

	mu        sync.Mutex
	seq       uint64            // bumped by every change and every up or down
	floor     uint64            // answers of queries begun before it are not kept
	inFlight  int               // queries begun and not yet ended
	changedAt map[string]uint64 // job id → seq of its last change, while queries are in flight
}

// LiveUntil is when the memo stops serving unless the changes
// connection shows it still listens (tests read it).
func (m *RecordMemo) LiveUntil() time.Time { return time.Unix(0, m.liveUntil.Load()) }

// Hits is how many reads the memo answered, for metrics.
func (m *RecordMemo) Hits() int64 { return m.hits.Load() }

// Get is id's record, for the caller to own, when the memo may serve it.
func (m *RecordMemo) Get(id string) (*ExportJob, bool) {
	if !m.Live() {
		return nil, false
	}
	v, ok := m.entries.Load(id)
	if !ok {
		return nil, false
	}
	m.hits.Add(1)
	return v.(*ExportJob).Clone(), true
}

// Begin marks the start of a query, before it is sent, and returns the
// sequence number its answers are kept under.
func (m *RecordMemo) Begin() uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.inFlight++
	return m.seq
}

// End marks the end of the query begun at s0 and keeps the records it
// read that the memo may keep (none for a failed query), unless their
// jobs changed since s0 or the memo is not live. It keeps at most
// memoMaxEntries records: past that it starts over empty.
func (m *RecordMemo) End(s0 uint64, recs map[string]*ExportJob) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.inFlight--
	if m.Live() && s0 >= m.floor {
		for id, rec := range recs {
			if m.changedAt[id] > s0 {
				continue
			}
			if m.n.Load() >= memoMaxEntries {
				m.ClearEntries()
			}
			if _, loaded := m.entries.Swap(id, rec.Clone()); !loaded {
				m.n.Add(1)
			}
		}
	}
	if m.inFlight == 0 {
		// Every later query begins at seq or after: nothing to compare.
		clear(m.changedAt)
	}
}

// Changed drops id's record ("" drops them all) and keeps queries in
// flight from keeping what they read before the change.
func (m *RecordMemo) Changed(id string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.seq++
	if id == "" {
		m.floor = m.seq
		m.ClearEntries()
		return
	}
	if m.inFlight > 0 {
		if m.changedAt == nil {
			m.changedAt = map[string]uint64{}
		}
		if len(m.changedAt) >= memoMaxEntries {
			// Queries that never stop overlapping: keep none of the
			// answers begun so far rather than grow without bound.
			clear(m.changedAt)
			m.floor = m.seq
		} else {
			m.changedAt[id] = m.seq
		}
	}
	if _, loaded := m.entries.LoadAndDelete(id); loaded {
		m.n.Add(-1)
	}
}

// ServeForGood makes the memo serve from now on, with no connection to
// watch: for a store whose every write calls changed (bbolt).
func (m *RecordMemo) ServeForGood() { m.liveUntil.Store(math.MaxInt64) }

// Live says whether the memo may serve.
func (m *RecordMemo) Live() bool { return time.Now().UnixNano() < m.liveUntil.Load() }

// Up says the changes connection listens, from now on and until at least
// until: what was read before is not kept.
func (m *RecordMemo) Up(until time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.seq++
	m.floor = m.seq
	m.ClearEntries()
	m.liveUntil.Store(until.UnixNano())
}

// Alive says the changes connection still listened at until-memoLive:
// the memo may serve until until.
func (m *RecordMemo) Alive(until time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.liveUntil.Load() != 0 {
		m.liveUntil.Store(max(m.liveUntil.Load(), until.UnixNano()))
	}
}

// Down says the changes connection dropped: nothing is served until up.
func (m *RecordMemo) Down() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.liveUntil.Store(0)
	m.seq++
	m.floor = m.seq
	m.ClearEntries()
}

// ClearEntries empties the memo; m.mu is held.
func (m *RecordMemo) ClearEntries() {
	m.entries.Clear()
	m.n.Store(0)
}
