package pgstore

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
)

// claimableWhere is claimable in SQL, at $1, over unqualified columns
// (the innermost table of the query it is put into).
const claimableWhere = `status = 'queued' OR (status = 'running' AND (lease_until IS NULL OR lease_until < $1))`

// ClaimExport takes the next claimable job in one statement: a subquery
// locks it with SKIP LOCKED (the organization with the fewest jobs under
// a live lease first, then the oldest job, as before orders them), so
// replicas claiming at once each get a different job instead of queueing
// on the same row, and the UPDATE around it makes it this attempt's
// (TakeOver's fields, patched into the record). One round trip where a
// transaction took four: the claim lies on every export's path, and an
// idle worker's empty claim costs one statement. Leases are compared
// with the caller's clock (injected in tests); replicas' clocks are
// assumed to agree to well under a lease.
func (s *pgClaims) ClaimExport(ctx context.Context, owner string, now time.Time, lease time.Duration) (claimed *jobstore.ExportJob, more bool, err error) {
	ctx, cancel := opCtx(ctx)
	defer cancel()
	if s.fault.WhenNone(func() { claimed, more, err = s.claim(ctx, owner, now, lease) }) {
		return claimed, more, err
	}
	// Only a claim that writes fails as a lost database would, and only
	// that one counts as a write: idle workers looking for work are not
	// writes (as in bbolt).
	var waiting bool
	if err := s.pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM export_jobs WHERE "+claimableWhere+")", now).Scan(&waiting); err != nil || !waiting {
		return nil, false, err
	}
	if err := s.fault.Check(); err != nil {
		return nil, false, err
	}
	return s.claim(ctx, owner, now, lease)
}

// claim is ClaimExport's statement. Whether another job is claimable is
// asked in the same statement, of the snapshot it began with: a job
// another replica is claiming at that moment counts too, and at worst
// costs one claim that finds nothing.
func (s *pgClaims) claim(ctx context.Context, owner string, now time.Time, lease time.Duration) (*jobstore.ExportJob, bool, error) {
	var t jobstore.ExportJob
	jobstore.TakeOver(&t, owner, now, lease)
	patch, err := json.Marshal(map[string]any{
		"status": t.Status, "progress": t.Progress, "pageCount": t.PageCount,
		"owner": t.Owner, "leaseUntil": t.LeaseUntil, "updatedAt": t.UpdatedAt,
	})
	if err != nil {
		return nil, false, err
	}
	var (
		rec  jobstore.ExportJob
		more bool
	)
	err = scanRecord(s.pool.QueryRow(ctx, `UPDATE export_jobs j
		SET status = $2, attempts = j.attempts + 1, owner = $3, lease_until = $4,
		    record = (j.record - 'warnings') || $5::jsonb || jsonb_build_object('attempts', j.attempts + 1)
		WHERE j.job_id = (
			SELECT c.job_id FROM export_jobs c
			WHERE `+claimableWhere+`
			ORDER BY (SELECT count(*) FROM export_jobs r
			          WHERE r.org_id = c.org_id AND r.status = 'running' AND r.lease_until >= $1),
			         c.created_at
			LIMIT 1 FOR UPDATE SKIP LOCKED)
		RETURNING j.record, EXISTS (SELECT 1 FROM export_jobs m WHERE m.job_id <> j.job_id AND (`+claimableWhere+`))`,
		now, t.Status, t.Owner, t.LeaseUntil, patch), &rec, &more)
	switch {
	case errors.Is(err, jobstore.ErrNoRecord):
		return nil, false, nil
	case err != nil:
		return nil, false, err
	}
	s.changed(rec.JobID)
	return &rec, more, nil
}

// fencedWhere holds an UPDATE to the attempt $2 (owner) and $3
// (attempts) describe, as Holds does.
const fencedWhere = `job_id = $1 AND status = 'running' AND owner = $2 AND attempts = $3`

// fenceFailed is the error of a fenced UPDATE that changed no row: the
// job was taken over (ErrLeaseLost) or deleted (ErrNoRecord).
func (s *pgClaims) fenceFailed(ctx context.Context, id string) error {
	var exists bool
	if err := s.pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM export_jobs WHERE job_id = $1)", id).Scan(&exists); err != nil {
		return err
	}
	if !exists {
		return jobstore.ErrNoRecord
	}
	return jobstore.ErrLeaseLost
}

// RenewLease moves the lease in one fenced UPDATE, with the progress
// mine carries when it is further than the stored one (ExtendLease, in
// SQL). To the zero time it hands the job back, and the other replicas
// are told so they need not wait for their next poll.
func (s *pgClaims) RenewLease(ctx context.Context, mine *jobstore.ExportJob, until time.Time) error {
	if err := s.fault.Check(); err != nil {
		return err
	}
	defer s.changed(mine.JobID)
	ctx, cancel := opCtx(ctx)
	defer cancel()
	leasePatch := []byte("{}")
	var leaseCol *time.Time
	if !until.IsZero() {
		leaseCol = &until
		var err error
		if leasePatch, err = json.Marshal(map[string]any{"leaseUntil": until}); err != nil {
			return err
		}
	}
	progress, err := json.Marshal(map[string]any{"progress": mine.Progress, "pageCount": mine.PageCount, "updatedAt": mine.UpdatedAt})
	if err != nil {
		return err
	}
	tag, err := s.pool.Exec(ctx, `UPDATE export_jobs SET lease_until = $4,
		    record = (record - 'leaseUntil') || $5::jsonb ||
		             CASE WHEN coalesce((record->>'pageCount')::int, 0) < $6 THEN $7::jsonb ELSE '{}'::jsonb END
		WHERE `+fencedWhere, mine.JobID, mine.Owner, mine.Attempts, leaseCol, leasePatch, mine.PageCount, progress)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return s.fenceFailed(ctx, mine.JobID)
	}
	if until.IsZero() {
		_, err = s.pool.Exec(ctx, "SELECT pg_notify($1, '')", exportChannel)
	}
	return err
}

// CompleteAttempt writes mine's outcome in one UPDATE fenced on the
// attempt (owner and attempt number, as Holds checks): a worker that
// lost its lease changes no row. One round trip where a transaction
// took four; only a fenced-out completion asks again, to tell a
// takeover from a deleted job.
func (s *pgClaims) CompleteAttempt(ctx context.Context, mine *jobstore.ExportJob) error {
	if err := s.fault.Check(); err != nil {
		return err
	}
	defer s.changed(mine.JobID)
	ctx, cancel := opCtx(ctx)
	defer cancel()
	done := *mine
	done.Owner, done.LeaseUntil = "", time.Time{}
	data, err := json.Marshal(&done)
	if err != nil {
		return err
	}
	tag, err := s.pool.Exec(ctx, `UPDATE export_jobs SET status = $4, attempts = $3, owner = '', lease_until = NULL,
		    stored_bytes = $5, record = $6
		WHERE `+fencedWhere, mine.JobID, mine.Owner, mine.Attempts, done.Status, done.SiteBytes+done.BundleSize, data)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return s.fenceFailed(ctx, mine.JobID)
	}
	return nil
}
