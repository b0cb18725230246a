package pgstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
)

// putPGExportJob writes rec whole, with the columns queries use taken
// from it.
func putPGExportJob(ctx context.Context, tx pgx.Tx, rec *jobstore.ExportJob) error {
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

// ExportJob implements ExportStore.
func (s *pgExports) ExportJob(ctx context.Context, id string) (*jobstore.ExportJob, error) {
	return s.reads.get(ctx, s.life, s.pool, id)
}

// PollExportJob implements ExportStore: from the memo when it holds the
// job, else as ExportJob.
func (s *pgExports) PollExportJob(ctx context.Context, id string) (*jobstore.ExportJob, error) {
	if rec, ok := s.reads.memo.Get(id); ok {
		return rec, nil
	}
	return s.reads.get(ctx, s.life, s.pool, id)
}

// ExportJobs implements ExportStore.
func (s *pgExports) ExportJobs(ctx context.Context) ([]*jobstore.ExportJob, error) {
	ctx, cancel := opCtx(ctx)
	defer cancel()
	rows, err := s.pool.Query(ctx, "SELECT record FROM export_jobs")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*jobstore.ExportJob
	for rows.Next() {
		var data []byte
		if err := rows.Scan(&data); err != nil {
			return nil, err
		}
		var rec jobstore.ExportJob
		if err := json.Unmarshal(data, &rec); err != nil {
			return nil, fmt.Errorf("decode export job: %w", err)
		}
		out = append(out, &rec)
	}
	return out, rows.Err()
}

// PutExportJob implements ExportStore.
func (s *pgExports) PutExportJob(ctx context.Context, rec *jobstore.ExportJob) error {
	defer s.changed(rec.JobID)
	return s.write(ctx, func(ctx context.Context, tx pgx.Tx) error { return putPGExportJob(ctx, tx, rec) })
}

// DeleteExportJob implements ExportStore.
func (s *pgExports) DeleteExportJob(ctx context.Context, id string) error {
	defer s.changed(id)
	return s.write(ctx, func(ctx context.Context, tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "DELETE FROM export_jobs WHERE job_id = $1", id)
		return err
	})
}

// modify runs edit on the record of id, locked against every other
// writer until the transaction ends, and stores the result.
func (s *pgExports) modify(ctx context.Context, id string, edit func(*jobstore.ExportJob) error) error {
	defer s.changed(id)
	return s.write(ctx, func(ctx context.Context, tx pgx.Tx) error {
		var rec jobstore.ExportJob
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
func (s *pgExports) SetBundleSize(ctx context.Context, id string, size int64) error {
	return s.modify(ctx, id, func(rec *jobstore.ExportJob) error {
		rec.BundleSize = size
		return nil
	})
}

// PruneIdempotency implements ExportStore.
func (s *pgExports) PruneIdempotency(ctx context.Context, now time.Time) error {
	return s.write(ctx, func(ctx context.Context, tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "DELETE FROM export_idempotency WHERE created_at <= $1", now.Add(-jobstore.IdempotencyWindow))
		return err
	})
}

// latestCompletedSQL is LatestCompletedExport's query, on the partial
// index export_jobs_latest_completed (migration 005): $1 the
// organization, $2 the domain, $3 the job to pass over.
const latestCompletedSQL = `SELECT record FROM export_jobs
	WHERE org_id = $1 AND domain = $2 AND status = 'completed' AND job_id <> $3
	  AND (record->>'bundleSize')::bigint > 0
	ORDER BY updated_at DESC, job_id
	LIMIT 1`

// LatestCompletedExport implements ExportStore in one indexed query.
func (s *pgExports) LatestCompletedExport(ctx context.Context, orgID, domain, excluding string) (*jobstore.ExportJob, error) {
	ctx, cancel := opCtx(ctx)
	defer cancel()
	var rec jobstore.ExportJob
	err := scanRecord(s.pool.QueryRow(ctx, latestCompletedSQL, orgID, domain, excluding), &rec)
	switch {
	case errors.Is(err, jobstore.ErrNoRecord):
		return nil, nil
	case err != nil:
		return nil, err
	}
	return &rec, nil
}
