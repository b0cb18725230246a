package jobstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// putPGExportJob writes rec whole, with the columns queries use taken
// from it.
func putPGExportJob(ctx context.Context, tx pgx.Tx, rec *ExportJob) error {
	data, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	var lease *time.Time
	if !rec.LeaseUntil.IsZero() {
		lease = &rec.LeaseUntil
	}
	_, err = tx.Exec(ctx, `INSERT INTO export_jobs (job_id, org_id, status, created_at, attempts, owner, lease_until, stored_bytes, record)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
		ON CONFLICT (job_id) DO UPDATE SET status = EXCLUDED.status, attempts = EXCLUDED.attempts, owner = EXCLUDED.owner,
			lease_until = EXCLUDED.lease_until, stored_bytes = EXCLUDED.stored_bytes, record = EXCLUDED.record`,
		rec.JobID, rec.OrgID, rec.Status, rec.CreatedAt, rec.Attempts, rec.Owner, lease, rec.SiteBytes+rec.BundleSize, data)
	return err
}

// tx runs fn in one transaction; unlike write, only fn decides whether
// it fails as a lost database would.
func (s *Postgres) tx(fn func(ctx context.Context, tx pgx.Tx) error) error {
	ctx, cancel := opCtx()
	defer cancel()
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error { return fn(ctx, tx) })
}

// ExportJob implements Store.
func (s *Postgres) ExportJob(id string) (*ExportJob, error) { return s.reads.get(s.pool, id) }

// ExportJobs implements Store.
func (s *Postgres) ExportJobs() ([]*ExportJob, error) {
	ctx, cancel := opCtx()
	defer cancel()
	rows, err := s.pool.Query(ctx, "SELECT record FROM export_jobs")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*ExportJob
	for rows.Next() {
		var data []byte
		if err := rows.Scan(&data); err != nil {
			return nil, err
		}
		var rec ExportJob
		if err := json.Unmarshal(data, &rec); err != nil {
			return nil, fmt.Errorf("decode export job: %w", err)
		}
		out = append(out, &rec)
	}
	return out, rows.Err()
}

// PutExportJob implements Store.
func (s *Postgres) PutExportJob(rec *ExportJob) error {
	return s.write(func(ctx context.Context, tx pgx.Tx) error { return putPGExportJob(ctx, tx, rec) })
}

// DeleteExportJob implements Store.
func (s *Postgres) DeleteExportJob(id string) error {
	return s.write(func(ctx context.Context, tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "DELETE FROM export_jobs WHERE job_id = $1", id)
		return err
	})
}

// modify runs edit on the record of id, locked against every other
// writer until the transaction ends, and stores the result.
func (s *Postgres) modify(id string, edit func(*ExportJob) error) error {
	return s.write(func(ctx context.Context, tx pgx.Tx) error {
		var rec ExportJob
		if err := scanRecord(tx.QueryRow(ctx, "SELECT record FROM export_jobs WHERE job_id = $1 FOR UPDATE", id), &rec); err != nil {
			return err
		}
		if err := edit(&rec); err != nil {
			return err
		}
		return putPGExportJob(ctx, tx, &rec)
	})
}

// SetBundleSize implements Store.
func (s *Postgres) SetBundleSize(id string, size int64) error {
	return s.modify(id, func(rec *ExportJob) error {
		rec.BundleSize = size
		return nil
	})
}

// ClaimExport locks the next claimable job with SKIP LOCKED (the
// organization with the fewest jobs under a live lease first, then the
// oldest job, as fairer orders them): replicas
// claiming at once each get a different job instead of queueing on the
// same row, and the row lock keeps the claim to one of them. Leases are
// compared with the caller's clock (injected in tests); replicas' clocks
// are assumed to agree to well under a lease.
func (s *Postgres) ClaimExport(owner string, now time.Time, lease time.Duration) (*ExportJob, error) {
	var claimed *ExportJob
	err := s.tx(func(ctx context.Context, tx pgx.Tx) error {
		var rec ExportJob
		err := scanRecord(tx.QueryRow(ctx, `SELECT j.record FROM export_jobs j
			WHERE j.status = 'queued' OR (j.status = 'running' AND (j.lease_until IS NULL OR j.lease_until < $1))
			ORDER BY (SELECT count(*) FROM export_jobs r
			          WHERE r.org_id = j.org_id AND r.status = 'running' AND r.lease_until >= $1),
			         j.created_at
			LIMIT 1 FOR UPDATE OF j SKIP LOCKED`, now), &rec)
		switch {
		case errors.Is(err, ErrNoRecord):
			return nil
		case err != nil:
			return err
		}
		if err := s.fault.check(); err != nil {
			return err
		}
		takeOver(&rec, owner, now, lease)
		claimed = &rec
		return putPGExportJob(ctx, tx, &rec)
	})
	if err != nil {
		return nil, err
	}
	return claimed, nil
}

// RenewLease to the zero time hands the job back; the other replicas are
// told so they need not wait for their next poll.
func (s *Postgres) RenewLease(mine *ExportJob, until time.Time) error {
	return s.write(func(ctx context.Context, tx pgx.Tx) error {
		var cur ExportJob
		if err := scanRecord(tx.QueryRow(ctx, "SELECT record FROM export_jobs WHERE job_id = $1 FOR UPDATE", mine.JobID), &cur); err != nil {
			return err
		}
		if !Holds(&cur, mine) {
			return ErrLeaseLost
		}
		extendLease(&cur, mine, until)
		if err := putPGExportJob(ctx, tx, &cur); err != nil {
			return err
		}
		if until.IsZero() {
			return notifyClaimable(ctx, tx)
		}
		return nil
	})
}

// CompleteAttempt implements Store.
func (s *Postgres) CompleteAttempt(mine *ExportJob) error {
	return s.modify(mine.JobID, func(cur *ExportJob) error {
		if !Holds(cur, mine) {
			return ErrLeaseLost
		}
		*cur = *mine
		cur.Owner, cur.LeaseUntil = "", time.Time{}
		return nil
	})
}
