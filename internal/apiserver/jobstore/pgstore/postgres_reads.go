package pgstore

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
)

// maxReadQueries bounds the export job reads in flight on one store, so
// that many clients polling statuses leave the pool's other connections
// to the workers, their lease renewals and the writes.
const maxReadQueries = 4

// pgExportReads coalesces concurrent reads of export jobs: while
// maxReadQueries reads are in flight, the reads that arrive wait together
// and are answered by one query when a slot frees, however many there
// are and whichever jobs they name. Sixty-four clients polling statuses
// thus cost a few queries per round trip, not sixty-four. A read only
// ever joins a query that has not been sent yet, so it sees every write
// committed before it began, exactly as a query of its own would; without
// contention each read is its own query, as before. The zero value is
// ready.
type pgExportReads struct {
	mu      sync.Mutex
	running int        // queries in flight
	next    *readBatch // reads waiting for a slot; nil unless running == maxReadQueries
	decoded jobstore.ExportDecodes
	// memo answers status polls without a query while their jobs stand
	// still (record_memo.go, kept fresh by postgres_memo.go); every query's answers go into it.
	memo jobstore.RecordMemo
}

// readBatch is the reads one query answers.
type readBatch struct {
	ids  []string
	seen map[string]bool
	done chan struct{} // closed when recs and err are final
	recs map[string]*jobstore.ExportJob
	err  error
}

func (b *readBatch) add(id string) {
	if !b.seen[id] {
		b.seen[id] = true
		b.ids = append(b.ids, id)
	}
}

// get reads one job, in a query of its own on ctx or in the next shared
// one. A shared query runs on shared (the store's life), since no one
// reader's ctx may end a query that others wait for; a reader whose ctx
// ends stops waiting for it.
func (r *pgExportReads) get(ctx, shared context.Context, pool *pgxpool.Pool, id string) (*jobstore.ExportJob, error) {
	if err := ctx.Err(); err != nil {
		return &jobstore.ExportJob{}, err
	}
	r.mu.Lock()
	if r.running < maxReadQueries {
		r.running++
		r.mu.Unlock()
		b := &readBatch{ids: []string{id}}
		r.run(ctx, shared, pool, b)
		return b.result(id)
	}
	b := r.next
	if b == nil {
		b = &readBatch{seen: map[string]bool{}, done: make(chan struct{})}
		r.next = b
	}
	b.add(id)
	r.mu.Unlock()
	// Bounded: the query in flight and this batch's own each end within
	// pgOpTimeout.
	select {
	case <-b.done:
		return b.result(id)
	case <-ctx.Done():
		return &jobstore.ExportJob{}, ctx.Err()
	}
}

// run answers b on ctx, then hands its slot to the reads that gathered
// meanwhile, on a goroutine of their own (and on shared) so that b's
// reader returns now.
func (r *pgExportReads) run(ctx, shared context.Context, pool *pgxpool.Pool, b *readBatch) {
	b.recs, b.err = r.query(ctx, pool, b.ids)
	if b.done != nil {
		close(b.done)
	}
	r.mu.Lock()
	next := r.next
	r.next = nil
	if next == nil {
		r.running--
	}
	r.mu.Unlock()
	if next != nil {
		go r.run(shared, shared, pool, next)
	}
}

// result is id's record from the batch, for the caller to own.
func (b *readBatch) result(id string) (*jobstore.ExportJob, error) {
	if b.err != nil {
		return &jobstore.ExportJob{}, b.err
	}
	rec, ok := b.recs[id]
	if !ok {
		return &jobstore.ExportJob{}, jobstore.ErrNoRecord
	}
	if b.done == nil {
		return rec, nil // a query of its own: the only reader
	}
	return rec.Clone(), nil
}

// query reads ids in one statement; a job that does not exist is absent
// from the map (and forgotten by the decodings' memo). The records read
// are offered to the memo, but for those over jobstore.MemoMaxRecord bytes (a job
// naming thousands of pages): such a record costs a query per read.
func (r *pgExportReads) query(ctx context.Context, pool *pgxpool.Pool, ids []string) (out map[string]*jobstore.ExportJob, err error) {
	s0 := r.memo.Begin()
	keep := make(map[string]*jobstore.ExportJob, len(ids))
	defer func() {
		if err != nil {
			clear(keep)
		}
		r.memo.End(s0, keep)
	}()
	ctx, cancel := opCtx(ctx)
	defer cancel()
	out = make(map[string]*jobstore.ExportJob, len(ids))
	if len(ids) == 1 {
		var raw []byte
		err := pool.QueryRow(ctx, "SELECT record FROM export_jobs WHERE job_id = $1", ids[0]).Scan(&raw)
		if errors.Is(err, pgx.ErrNoRows) {
			r.decoded.Forget(ids[0])
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		rec, err := r.decoded.Decode(ids[0], raw)
		if err != nil {
			return nil, fmt.Errorf("decode export job: %w", err)
		}
		out[ids[0]] = rec
		if len(raw) <= jobstore.MemoMaxRecord {
			keep[ids[0]] = rec
		}
		return out, nil
	}
	rows, err := pool.Query(ctx, "SELECT job_id, record FROM export_jobs WHERE job_id = ANY($1)", ids)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var raw []byte
		if err := rows.Scan(&id, &raw); err != nil {
			return nil, err
		}
		rec, err := r.decoded.Decode(id, raw)
		if err != nil {
			return nil, fmt.Errorf("decode export job: %w", err)
		}
		out[id] = rec
		if len(raw) <= jobstore.MemoMaxRecord {
			keep[id] = rec
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, id := range ids {
		if out[id] == nil {
			r.decoded.Forget(id)
		}
	}
	return out, nil
}

// PoolStats returns the pool's figures now.
func (s *pgCore) PoolStats() jobstore.PoolStats {
	st := s.pool.Stat()
	return jobstore.PoolStats{
		Acquires: st.AcquireCount(), Waits: st.EmptyAcquireCount(), AcquireTime: st.AcquireDuration(),
		InUse: st.AcquiredConns(), Idle: st.IdleConns(), Max: st.MaxConns(),
		PollsFromMemory: s.reads.memo.Hits(), ChangesHeard: s.reads.memo.Live(),
	}
}
