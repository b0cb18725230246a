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
func (s *pgCore) tx(fn func(ctx context.Context, tx pgx.Tx) error) error {
	ctx, cancel := opCtx()
	defer cancel()
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error { return fn(ctx, tx) })
}

// ExportJob implements ExportStore.
func (s *pgExports) ExportJob(id string) (*ExportJob, error) { return s.reads.get(s.pool, id) }

// ExportJobs implements ExportStore.
func (s *pgExports) ExportJobs() ([]*ExportJob, error) {
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

// PutExportJob implements ExportStore.
func (s *pgExports) PutExportJob(rec *ExportJob) error {
	return s.write(func(ctx context.Context, tx pgx.Tx) error { return putPGExportJob(ctx, tx, rec) })
}

// DeleteExportJob implements ExportStore.
func (s *pgExports) DeleteExportJob(id string) error {
	return s.write(func(ctx context.Context, tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "DELETE FROM export_jobs WHERE job_id = $1", id)
		return err
	})
}

// modify runs edit on the record of id, locked against every other
// writer until the transaction ends, and stores the result.
func (s *pgExports) modify(id string, edit func(*ExportJob) error) error {
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

// SetBundleSize implements ExportStore.
func (s *pgExports) SetBundleSize(id string, size int64) error {
	return s.modify(id, func(rec *ExportJob) error {
		rec.BundleSize = size
		return nil
	})
}

// CreateExportJob implements ExportStore.
func (s *pgExports) CreateExportJob(rec *ExportJob, idemKey, hash string, lim Limits) (existing *ExportJob, err error) {
	err = s.write(func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1, hashtext($2))", lockExportOrg, rec.OrgID); err != nil {
			return err
		}
		if idemKey != "" {
			prev, err := s.idempotentLookup(ctx, tx, rec.OrgID, idemKey, hash, rec.CreatedAt)
			if err != nil || prev != nil {
				existing = prev
				return err
			}
		}
		var active, stored int
		var size int64
		if err := tx.QueryRow(ctx, `SELECT count(*) FILTER (WHERE status IN ('queued', 'running')), count(*), coalesce(sum(stored_bytes), 0)
			FROM export_jobs WHERE org_id = $1`, rec.OrgID).Scan(&active, &stored, &size); err != nil {
			return err
		}
		if err := lim.check(active, stored, size); err != nil {
			return err
		}
		if err := putPGExportJob(ctx, tx, rec); err != nil {
			return err
		}
		if err := notifyClaimable(ctx, tx); err != nil {
			return err
		}
		if idemKey == "" {
			return nil
		}
		_, err := tx.Exec(ctx, `INSERT INTO export_idempotency (org_id, key, request_hash, job_id, created_at) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (org_id, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, job_id = EXCLUDED.job_id, created_at = EXCLUDED.created_at`,
			rec.OrgID, idemKey, hash, rec.JobID, rec.CreatedAt)
		return err
	})
	return existing, err
}

// idempotentLookup is the PostgreSQL twin of the bbolt one: the job an
// earlier start with key created, nil when none counts any more, or
// ErrIdempotencyConflict.
func (s *pgExports) idempotentLookup(ctx context.Context, tx pgx.Tx, orgID, key, hash string, now time.Time) (*ExportJob, error) {
	var prevHash, jobID string
	var created time.Time
	err := tx.QueryRow(ctx, "SELECT request_hash, job_id, created_at FROM export_idempotency WHERE org_id = $1 AND key = $2",
		orgID, key).Scan(&prevHash, &jobID, &created)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !now.Before(created.Add(IdempotencyWindow)) {
		return nil, nil
	}
	var rec ExportJob
	switch err := scanRecord(tx.QueryRow(ctx, "SELECT record FROM export_jobs WHERE job_id = $1", jobID), &rec); {
	case errors.Is(err, ErrNoRecord):
		return nil, nil
	case err != nil:
		return nil, err
	}
	if prevHash != hash {
		return nil, ErrIdempotencyConflict
	}
	return &rec, nil
}

// PruneIdempotency implements ExportStore.
func (s *pgExports) PruneIdempotency(now time.Time) error {
	return s.write(func(ctx context.Context, tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "DELETE FROM export_idempotency WHERE created_at <= $1", now.Add(-IdempotencyWindow))
		return err
	})
}
