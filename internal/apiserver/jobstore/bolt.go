package jobstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// The store keeps job records in bbolt: one file, ACID transactions that
// are fsynced on commit, readable while written, pure Go. Rendered sites and
// archives are plain files next to it (see exportDir), written to a
// temporary name, fsynced and renamed, so a record never points at a
// half-written file.
var (
	bucketAgentJobs  = []byte("agent_jobs")
	bucketAgentIndex = []byte("agent_jobs_by_project_time")
	// bucketExportJobs is written only through exportTx (bolt_index.go),
	// which keeps the index of export jobs in step with it.
	bucketExportJobs = []byte("export_jobs")
	bucketCounters   = []byte("counters")
	// bucketIdempotency maps "<org>\x00<Idempotency-Key>" to the job a
	// start created, so a retried start returns it instead of a second job.
	bucketIdempotency = []byte("export_idempotency")
)

// Bolt is the embedded Store. bbolt's file lock makes it one
// process's, so a job left running by a crashed process can be reclaimed
// at once on the next start (see ReleaseLeases).
//
// Its methods live on one small type per kind of record, all sharing one
// boltCore, and reach callers as Bolt's promoted methods: boltAgents
// (agent jobs, bolt_agent.go), boltExports (export jobs and their
// idempotency keys, bolt_exports.go), boltClaims (claims, leases and
// completions, bolt_claim.go) and boltUpdates (updates.go).
type Bolt struct {
	*boltCore
	boltAgents
	boltExports
	boltClaims
	boltUpdates
}

// boltCore is what every kind of record shares: the file and its faults.
type boltCore struct {
	db    *bolt.DB
	fault WriteFaults
	// decoded saves status reads decoding an unchanged record (readmemo.go).
	decoded ExportDecodes
	// index answers limits and claims without reading every export job
	// (bolt_index.go).
	index exportIndex
	// polls answers status polls from memory (PollExportJob).
	polls RecordMemo
}

// The kinds of record a Bolt keeps, each over the shared core.
type (
	boltAgents  struct{ *boltCore }
	boltExports struct{ *boltCore }
	boltClaims  struct{ *boltCore }
	boltUpdates struct{ *boltCore }
)

var (
	_ Store       = (*Bolt)(nil)
	_ AgentStore  = (*boltAgents)(nil)
	_ ExportStore = (*boltExports)(nil)
	_ ClaimStore  = (*boltClaims)(nil)
	_ UpdateStore = (*boltUpdates)(nil)
)

// update runs one write transaction, or fails the way a full disk would
// when a test says so. bbolt cannot stop a transaction once it has begun
// (one writer at a time, and a write is short), so ctx is checked
// before: a call whose caller has gone, or a server that is shutting
// down, does no work.
func (s *boltCore) update(ctx context.Context, fn func(*bolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := s.fault.Check(); err != nil {
		return err
	}
	return s.db.Update(fn)
}

// view runs one read transaction, unless ctx has ended.
func (s *boltCore) view(ctx context.Context, fn func(*bolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.db.View(fn)
}

// updateExports is update for a transaction that writes export jobs: it
// writes them through its exportTx, and the index is told once the
// transaction has committed.
func (s *boltCore) updateExports(ctx context.Context, fn func(*exportTx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := s.fault.Check(); err != nil {
		return err
	}
	s.index.mu.Lock()
	defer s.index.mu.Unlock()
	return s.index.commit(s.db, fn)
}

// Faults implements Store.
func (s *boltCore) Faults() *WriteFaults { return &s.fault }

// OpenBolt opens (creating it if need be) the state file in dataDir and
// takes its lock; a second process opening it waits two seconds, then
// fails. bbolt's open takes no context; one that has ended opens nothing.
func OpenBolt(ctx context.Context, dataDir string) (*Bolt, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	db, err := bolt.Open(filepath.Join(dataDir, "state.db"), 0o600, &bolt.Options{Timeout: 2 * time.Second})
	if err != nil {
		if errors.Is(err, bolterrors.ErrTimeout) {
			return nil, fmt.Errorf("data dir %s is in use by another server", dataDir)
		}
		return nil, fmt.Errorf("open store: %w", err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bucketAgentJobs, bucketAgentIndex, bucketExportJobs, bucketCounters, bucketIdempotency} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("init store: %w", err)
	}
	core := &boltCore{db: db}
	core.polls.ServeForGood()
	core.index.onWrite = core.polls.Changed
	if err := core.index.load(db); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("index export jobs: %w", err)
	}
	return &Bolt{boltCore: core, boltAgents: boltAgents{core}, boltExports: boltExports{core},
		boltClaims: boltClaims{core}, boltUpdates: boltUpdates{core}}, nil
}

// Close implements Store.
func (s *boltCore) Close() error {
	s.index.mu.Lock()
	s.index.closed = true
	s.index.mu.Unlock()
	return s.db.Close()
}

// get decodes the record stored under id, or returns ErrNoRecord.
func (s *boltCore) get(ctx context.Context, bucket []byte, id string, v any) error {
	return s.view(ctx, func(tx *bolt.Tx) error {
		data := tx.Bucket(bucket).Get([]byte(id))
		if data == nil {
			return ErrNoRecord
		}
		return json.Unmarshal(data, v)
	})
}

// modifyExportJob runs edit on the stored record of id inside one write
// transaction and stores the result, unless edit fails.
func (s *boltCore) modifyExportJob(ctx context.Context, id string, edit func(*ExportJob) error) error {
	return s.updateExports(ctx, func(tx *exportTx) error {
		data := tx.jobs.Get([]byte(id))
		if data == nil {
			return ErrNoRecord
		}
		var rec ExportJob
		if err := json.Unmarshal(data, &rec); err != nil {
			return fmt.Errorf("decode export job %s: %w", id, err)
		}
		if err := edit(&rec); err != nil {
			return err
		}
		out, err := json.Marshal(&rec)
		if err != nil {
			return err
		}
		return tx.putJob(id, out)
	})
}

// Ping has nothing to reach: the file is open for as long as the store.
func (s *boltCore) Ping(context.Context) error { return nil }
