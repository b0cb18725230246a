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

// createExportSQL is CreateExportJob's check-and-insert as one statement.
// It runs after the organization's advisory lock in the same implicit
// transaction, so its snapshot, taken once the lock is held, sees every
// start that held the lock before. prev is the job an earlier start with
// the key created, while the key counts and the job is kept; c counts the
// organization's jobs; the job is inserted, its key recorded and the
// other replicas told only when there is no prev and every limit passes.
// The caller tells the outcomes apart from what it returns.
//
// $1 organization, $2 key (” for none), $3 the oldest key creation that
// still counts, $4–$6 the limits (0: none), $7–$10 the job's id, status,
// creation time and record, $11 the request's hash, $12 the channel,
// $13–$16 the job's other columns (a job the control plane holds is
// created running, owned and leased), $17 the notification's payload
// (startPayload).
const createExportSQL = `WITH prev AS (
		SELECT i.request_hash, j.record FROM export_idempotency i JOIN export_jobs j ON j.job_id = i.job_id
		WHERE $2::text <> '' AND i.org_id = $1 AND i.key = $2 AND i.created_at > $3::timestamptz),
	c AS (
		SELECT count(*) FILTER (WHERE status IN ('queued', 'running')) AS active, count(*) AS stored,
		       coalesce(sum(stored_bytes), 0)::bigint AS size
		FROM export_jobs WHERE org_id = $1),
	ins AS (
		INSERT INTO export_jobs (job_id, org_id, status, created_at, attempts, owner, lease_until, stored_bytes, record)
		SELECT $7::text, $1::text, $8::text, $9::timestamptz, $13::integer, $14::text, $15::timestamptz, $16::bigint, $10::jsonb
		FROM c
		WHERE NOT EXISTS (SELECT 1 FROM prev)
		  AND ($4::bigint = 0 OR c.active < $4) AND ($5::bigint = 0 OR c.stored < $5) AND ($6::bigint = 0 OR c.size < $6)
		RETURNING job_id),
	idem AS (
		INSERT INTO export_idempotency (org_id, key, request_hash, job_id, created_at)
		SELECT $1, $2, $11::text, job_id, $9 FROM ins WHERE $2 <> ''
		ON CONFLICT (org_id, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, job_id = EXCLUDED.job_id,
			created_at = EXCLUDED.created_at),
	told AS (SELECT pg_notify($12::text, $17::text) FROM ins)
	SELECT (SELECT request_hash FROM prev), (SELECT record FROM prev), c.active, c.stored, c.size,
	       (SELECT count(*) FROM ins), (SELECT count(*) FROM told)
	FROM c`

// CreateExportJob takes the organization's advisory lock and checks and
// inserts in one round trip: the lock and createExportSQL go as one batch,
// which PostgreSQL runs as one implicit transaction, so the lock is held
// until the insert commits. A transaction that asked for the lock, the
// key, the counts, then inserted, recorded the key and notified took six
// to eight round trips, and a start waits for each of them.
func (s *pgExports) CreateExportJob(ctx context.Context, rec *jobstore.ExportJob, c jobstore.Creation) (existing *jobstore.ExportJob, err error) {
	idemKey, hash, lim := c.IdempotencyKey, c.RequestHash, c.Limits
	if err := s.fault.Check(); err != nil {
		return nil, err
	}
	var lease *time.Time
	if !rec.LeaseUntil.IsZero() {
		lease = &rec.LeaseUntil
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	ctx, cancel := opCtx(ctx)
	defer cancel()
	b := &pgx.Batch{}
	b.Queue("SELECT pg_advisory_xact_lock($1, hashtext($2))", lockExportOrg, rec.OrgID)
	var (
		prevHash          *string
		prevRecord        []byte
		active, stored    int
		size              int64
		inserted, notices int
	)
	b.Queue(createExportSQL, rec.OrgID, idemKey, rec.CreatedAt.Add(-jobstore.IdempotencyWindow),
		lim.Active, lim.Stored, lim.Bytes, rec.JobID, rec.Status, rec.CreatedAt, data, hash, exportChannel,
		rec.Attempts, rec.Owner, lease, rec.SiteBytes+rec.BundleSize, startPayload(s.instance, c.ClaimedHere)).
		QueryRow(func(row pgx.Row) error {
			return row.Scan(&prevHash, &prevRecord, &active, &stored, &size, &inserted, &notices)
		})
	if err := s.pool.SendBatch(ctx, b).Close(); err != nil {
		return nil, err
	}
	switch {
	case prevHash != nil && *prevHash != hash:
		return nil, jobstore.ErrIdempotencyConflict
	case prevHash != nil:
		var prev jobstore.ExportJob
		if err := json.Unmarshal(prevRecord, &prev); err != nil {
			return nil, fmt.Errorf("decode export job: %w", err)
		}
		return &prev, nil
	case inserted == 1:
		return nil, nil
	}
	if err := lim.Check(active, stored, size); err != nil {
		return nil, err
	}
	return nil, errors.New("create export job: not inserted, though within the limits")
}
