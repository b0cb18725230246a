package jobstore

import (
	"bytes"
	"encoding/json"
	"slices"
	"sync"
	"sync/atomic"
)

// Bounds of ExportDecodes: records larger than MemoMaxRecord (a job
// naming thousands of pages) are decoded on every read, and once the
// memo holds memoMaxEntries records or memoMaxBytes of them it starts
// over empty.
const (
	MemoMaxRecord  = 16 << 10
	memoMaxEntries = 4096
	memoMaxBytes   = 16 << 20
)

// ExportDecodes remembers the last decoding of each export job record by
// the record's stored bytes, so a job polled by many clients is decoded
// once per change instead of once per read: a status read spent a third
// of its server time in json.Unmarshal. Being keyed by the bytes, not
// told of writes, it cannot serve a stale record whoever wrote it (this
// process, another replica, a migration); the store still reads the
// record every time. The zero value is ready.
type ExportDecodes struct {
	m       sync.Map // job id → *decodedExport, never changed once stored
	entries atomic.Int64
	bytes   atomic.Int64
}

type decodedExport struct {
	raw []byte
	rec ExportJob
}

// Decode returns raw decoded into a record the caller owns. raw may be
// memory the caller reuses (bbolt's map): it is copied when kept.
func (d *ExportDecodes) Decode(id string, raw []byte) (*ExportJob, error) {
	if v, ok := d.m.Load(id); ok {
		if e := v.(*decodedExport); bytes.Equal(e.raw, raw) {
			return e.rec.Clone(), nil
		}
	}
	var rec ExportJob
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, err
	}
	if len(raw) <= MemoMaxRecord {
		d.keep(id, &decodedExport{raw: bytes.Clone(raw), rec: *rec.Clone()})
	}
	return &rec, nil
}

// keep holds e as id's decoded record, emptying the memo first when
// it is full.
func (d *ExportDecodes) keep(id string, e *decodedExport) {
	if d.entries.Load() >= memoMaxEntries || d.bytes.Load() >= memoMaxBytes {
		// Rare (thousands of jobs read between changes) and cheap to
		// refill: no eviction order to keep on the hot path.
		d.m.Clear()
		d.entries.Store(0)
		d.bytes.Store(0)
	}
	if prev, loaded := d.m.Swap(id, e); loaded {
		d.bytes.Add(-int64(len(prev.(*decodedExport).raw)))
	} else {
		d.entries.Add(1)
	}
	d.bytes.Add(int64(len(e.raw)))
}

// Forget drops id's record, read as deleted.
func (d *ExportDecodes) Forget(id string) {
	if prev, loaded := d.m.LoadAndDelete(id); loaded {
		d.entries.Add(-1)
		d.bytes.Add(-int64(len(prev.(*decodedExport).raw)))
	}
}

// Clone returns a copy of r that shares no memory a caller could change
// (TestExportJob_cloneSharesNothing holds this as fields are added).
func (r *ExportJob) Clone() *ExportJob {
	c := *r
	c.Paths = slices.Clone(r.Paths)
	if r.Warnings != nil {
		w := *r.Warnings
		w.Messages = slices.Clone(r.Warnings.Messages)
		c.Warnings = &w
	}
	return &c
}
