package jobstore

import (
	"sync"
	"sync/atomic"
)

// boltPolls answers status polls of the embedded store from memory: a job
// polled by many clients, or by one every few milliseconds, is read from
// bbolt once per change rather than once per poll. A read transaction
// and the record's lookup were a fifth of a status read's server time,
// the largest part of it that was not net/http's.
//
// It can be told of every change because this process is the file's only
// writer, and every write of an export job goes through exportTx, whose
// commit calls changed for each job it wrote (exportIndex.onWrite) before
// the write returns to its caller. So a poll after a write returned sees
// it, as with ExportJob.
//
// A read's answer is kept only if no export job was written since the
// read began (seq), so an answer read before a write can never outlive
// the write's call to changed. Any write counts, not only the polled
// job's: a read takes microseconds, so it rarely overlaps a write, and
// one that does is simply not kept.
type boltPolls struct {
	entries sync.Map // job id → *ExportJob, never changed once stored
	n       atomic.Int64

	mu  sync.Mutex
	seq uint64 // bumped by every committed write of an export job
}

// get returns a copy of id's record when the memo holds it.
func (p *boltPolls) get(id string) (*ExportJob, bool) {
	v, ok := p.entries.Load(id)
	if !ok {
		return nil, false
	}
	return v.(*ExportJob).clone(), true
}

// begin marks the start of a read, before its transaction begins.
func (p *boltPolls) begin() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.seq
}

// keep stores a copy of rec, read by the read begun at s0, unless an
// export job was written since. Past memoMaxEntries it starts over empty.
func (p *boltPolls) keep(s0 uint64, rec *ExportJob) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.seq != s0 {
		return
	}
	if p.n.Load() >= memoMaxEntries {
		p.entries.Clear()
		p.n.Store(0)
	}
	if _, loaded := p.entries.Swap(rec.JobID, rec.clone()); !loaded {
		p.n.Add(1)
	}
}

// changed drops id's record: it was written, or deleted.
func (p *boltPolls) changed(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seq++
	if _, loaded := p.entries.LoadAndDelete(id); loaded {
		p.n.Add(-1)
	}
}
