package jobstore

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// exportIndex is what CreateExportJob's limits, ClaimExport's choice and
// LatestCompletedExport need of every export job, kept in memory. Both used to walk and decode
// the whole export_jobs bucket on every call: with 800 stored jobs that
// was a quarter of the server's CPU, and a server keeps up to
// maxStoredExports jobs for each of its organizations. With the index a
// start reads its organization's totals and a claim looks at the open
// (queued or running) jobs only.
//
// It is built from the bucket when the store opens and changed only by
// exportTx, through which alone export_jobs is written, after the
// transaction commits: a transaction that fails or panics leaves it as
// it was.
type exportIndex struct {
	// mu is held by each writer of export_jobs from before its
	// transaction begins until the index has its changes, so the index
	// is always the bucket as last committed. bbolt lets one writer in
	// at a time anyway: the lock costs no concurrency.
	mu sync.Mutex
	// closed answers an idle claim on a closed store as a transaction
	// would, since an idle claim no longer begins one.
	closed bool
	jobs   map[string]indexedJob
	// open holds the entries of jobs that are queued or running, the only
	// ones a claim looks at.
	open map[string]indexedJob
	orgs map[string]*orgTotals
	// onWrite, if set, is told of each job a committed transaction
	// wrote, before the write returns (the poll memo, PollExportJob).
	onWrite func(id string)
}

// jobState is as much of a job's status as the index needs.
type jobState uint8

const (
	jobDone    jobState = iota // any status but queued and running
	jobQueued                  // api.ExportQueued
	jobRunning                 // api.ExportRunning
)

// indexedJob is what the index keeps of one job: a few words, not the
// record, since every stored job has one.
type indexedJob struct {
	org        *orgTotals
	state      jobState
	createdAt  time.Time
	leaseUntil time.Time
	bytes      int64 // SiteBytes + BundleSize
	// domain and updatedAt are kept for completed jobs with an archive
	// only (the org's archived set), the ones LatestCompletedExport picks
	// from.
	domain    string
	updatedAt time.Time
}

// orgTotals are what Limits.check counts of one organization's jobs.
// An organization with no jobs left has none, so the map does not grow
// with organizations that come and go.
type orgTotals struct {
	id     string
	active int // queued + running
	stored int
	bytes  int64
	// archived holds the ids of the organization's completed jobs with
	// an archive (LatestCompletedExport); nil until it has one.
	archived map[string]struct{}
}

// indexedFields are the fields of a stored record the index reads,
// decoded from the bytes stored, so the index holds what a decoding of
// the record would hold.
type indexedFields struct {
	OrgID      string    `json:"orgId"`
	Domain     string    `json:"domain"`
	Status     string    `json:"status"`
	CreatedAt  time.Time `json:"createdAt"`
	UpdatedAt  time.Time `json:"updatedAt"`
	LeaseUntil time.Time `json:"leaseUntil"`
	SiteBytes  int64     `json:"siteBytes"`
	BundleSize int64     `json:"bundleSize"`
}

// exportWrite is one write to export_jobs: the job's fields as written,
// or its deletion. Applied in order they set absolute state, so two
// writes of one job in a transaction leave the last.
type exportWrite struct {
	id      string
	deleted bool
	fields  indexedFields
}

// exportTx is a write transaction that may write export jobs. Writes to
// export_jobs go through putJob and deleteJob only, which record them
// for the index; every other bucket is written through the Tx as usual.
type exportTx struct {
	*bolt.Tx
	jobs   *bolt.Bucket
	writes []exportWrite
}

// putJob stores the encoded record of job id.
func (tx *exportTx) putJob(id string, data []byte) error {
	var f indexedFields
	if err := json.Unmarshal(data, &f); err != nil {
		return fmt.Errorf("decode export job %s: %w", id, err)
	}
	if err := tx.jobs.Put([]byte(id), data); err != nil {
		return err
	}
	tx.writes = append(tx.writes, exportWrite{id: id, fields: f})
	return nil
}

// deleteJob deletes the record of job id, if there is one.
func (tx *exportTx) deleteJob(id string) error {
	if err := tx.jobs.Delete([]byte(id)); err != nil {
		return err
	}
	tx.writes = append(tx.writes, exportWrite{id: id, deleted: true})
	return nil
}

// load builds the index from the bucket. A record it cannot decode fails
// the open: claims and starts decoded every record, so with it stored
// each of them failed, and so did ReleaseLeases at the server's start.
func (x *exportIndex) load(db *bolt.DB) error {
	x.jobs, x.open, x.orgs = map[string]indexedJob{}, map[string]indexedJob{}, map[string]*orgTotals{}
	return db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketExportJobs).ForEach(func(k, v []byte) error {
			var f indexedFields
			if err := json.Unmarshal(v, &f); err != nil {
				return fmt.Errorf("decode export job %s: %w", k, err)
			}
			x.apply(exportWrite{id: string(k), fields: f})
			return nil
		})
	})
}

// commit runs fn in one write transaction and, once that has committed,
// applies the export jobs it wrote to the index. The caller holds x.mu.
func (x *exportIndex) commit(db *bolt.DB, fn func(*exportTx) error) error {
	var etx *exportTx
	err := db.Update(func(tx *bolt.Tx) error {
		etx = &exportTx{Tx: tx, jobs: tx.Bucket(bucketExportJobs)}
		return fn(etx)
	})
	if err != nil {
		return err
	}
	for _, w := range etx.writes {
		x.apply(w)
		if x.onWrite != nil {
			x.onWrite(w.id)
		}
	}
	return nil
}

// apply makes w's job in the index what w wrote: the organizations'
// totals lose the old entry's share and gain the new one's.
func (x *exportIndex) apply(w exportWrite) {
	if old, ok := x.jobs[w.id]; ok {
		old.org.add(old, -1)
		delete(old.org.archived, w.id)
		if old.org.stored == 0 {
			delete(x.orgs, old.org.id)
		}
		delete(x.jobs, w.id)
		delete(x.open, w.id)
	}
	if w.deleted {
		return
	}
	f := &w.fields
	org := x.orgs[f.OrgID]
	if org == nil {
		org = &orgTotals{id: f.OrgID}
		x.orgs[f.OrgID] = org
	}
	e := indexedJob{org: org, createdAt: f.CreatedAt, leaseUntil: f.LeaseUntil, bytes: f.SiteBytes + f.BundleSize}
	switch f.Status {
	case api.ExportQueued:
		e.state = jobQueued
	case api.ExportRunning:
		e.state = jobRunning
	}
	if f.Status == api.ExportCompleted && f.BundleSize > 0 {
		e.domain, e.updatedAt = f.Domain, f.UpdatedAt
		if org.archived == nil {
			org.archived = map[string]struct{}{}
		}
		org.archived[w.id] = struct{}{}
	}
	org.add(e, 1)
	x.jobs[w.id] = e
	if e.state != jobDone {
		x.open[w.id] = e
	}
}

// add counts e in (sign 1) or out (sign -1) of t.
func (t *orgTotals) add(e indexedJob, sign int) {
	t.stored += sign
	t.bytes += int64(sign) * e.bytes
	if e.state != jobDone {
		t.active += sign
	}
}

// totals returns what Limits.check counts of organization org.
func (x *exportIndex) totals(org string) (active, stored int, size int64) {
	if t := x.orgs[org]; t != nil {
		return t.active, t.stored, t.bytes
	}
	return 0, 0, 0
}

// latestArchived returns the id of orgID's job that LatestCompletedExport
// answers with, "" for none: a walk of the organization's completed jobs
// with an archive, not of every job.
func (x *exportIndex) latestArchived(orgID, domain, excluding string) string {
	t := x.orgs[orgID]
	if t == nil {
		return ""
	}
	var bestID string
	var best time.Time
	for id := range t.archived {
		e := x.jobs[id]
		if id == excluding || e.domain != domain {
			continue
		}
		if c := e.updatedAt.Compare(best); bestID == "" || c > 0 || (c == 0 && id < bestID) {
			bestID, best = id, e.updatedAt
		}
	}
	return bestID
}

// claimable is ExportJob.claimable on an entry.
func (e *indexedJob) claimable(now time.Time) bool {
	return e.state == jobQueued || (e.state == jobRunning && e.leaseUntil.Before(now))
}

// next returns the id of the job a claim at now takes, "" when none is
// claimable: the one before puts first, which of jobs fairness cannot
// tell apart is the one with the lowest id, as the walk of the bucket in
// key order used to meet first. more says whether another was claimable.
func (x *exportIndex) next(now time.Time) (id string, more bool) {
	running := map[*orgTotals]int{}
	for _, e := range x.open {
		if e.state == jobRunning && !e.claimable(now) {
			running[e.org]++ // held by a live lease
		}
	}
	var bestID string
	var best indexedJob
	for id, e := range x.open {
		if !e.claimable(now) {
			continue
		}
		more = more || bestID != ""
		if bestID == "" || before(id, e, bestID, best, running) {
			bestID, best = id, e
		}
	}
	return bestID, more
}

// before reports whether job a goes before job b: the organization with
// fewer jobs being rendered first, then the older job, then the lower id.
// A worker that frees up thus serves an organization waiting behind
// another's long jobs before that one's next job: one organization's
// source, however slow (each job is bounded by the export time limit),
// cannot keep the others queued for longer than the jobs already running.
func before(aID string, a indexedJob, bID string, b indexedJob, running map[*orgTotals]int) bool {
	if ra, rb := running[a.org], running[b.org]; ra != rb {
		return ra < rb
	}
	if c := a.createdAt.Compare(b.createdAt); c != 0 {
		return c < 0
	}
	return aID < bID
}

// idleClaim is what a claim that finds nothing returns: nothing, or on
// a closed store the error its transaction would have met.
func (x *exportIndex) idleClaim() error {
	if x.closed {
		return bolterrors.ErrDatabaseNotOpen
	}
	return nil
}
