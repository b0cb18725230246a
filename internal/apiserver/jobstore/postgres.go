package jobstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/redact"
)

// Postgres is the Store that replicas share. Every check-and-write runs
// in one transaction that first takes a transaction-scoped advisory lock
// keyed by what the check counts (the organization for export limits and
// idempotency keys, the project for the agent-job hourly limit): starts
// for one organization queue behind each other on every replica, others
// run in parallel. An advisory lock rather than SELECT … FOR UPDATE on an
// organization row because organizations live in the configuration, not
// the database: there is no row to lock, and a lock on "no rows yet"
// would not stop two first inserts. The lock ends with the transaction,
// so a replica that dies mid-start holds nothing.
type Postgres struct {
	pool  *pgxpool.Pool
	fault WriteFaults
	// reads coalesces concurrent export job reads (postgres_reads.go).
	reads pgExportReads
	// statements counts the statements sent (postgres_count.go).
	statements statementCounter
}

var _ Store = (*Postgres)(nil)

// Classes of the two-key advisory locks; the second key is hashtext of
// the organization or project id. A hash collision only makes two
// organizations wait for each other, never lets a check race.
const (
	lockExportOrg    int32 = 0x646f6301
	lockAgentProject int32 = 0x646f6302
)

// defaultPoolConns is the connection pool's size unless the URL sets it.
const defaultPoolConns = 16

// pgOpTimeout bounds each store call, so a database that stops answering
// turns into an error (503, a retried write) rather than a hung request.
const pgOpTimeout = 15 * time.Second

// OpenPostgres connects, checks the database answers and applies the
// schema migrations.
func OpenPostgres(ctx context.Context, url string) (*Postgres, error) {
	ctx, cancel := context.WithTimeout(ctx, pgOpTimeout)
	defer cancel()
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// The parse error may quote the URL, password and all.
		return nil, fmt.Errorf("database URL %s does not parse", redact.URL(url))
	}
	// pgxpool's default (4 on two cores) would make API requests queue
	// behind the workers and their lease renewals; a URL's own
	// pool_max_conns wins.
	if !strings.Contains(url, "pool_max_conns") {
		cfg.MaxConns = defaultPoolConns
	}
	p := &Postgres{}
	cfg.ConnConfig.Tracer = &p.statements
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect to database %s: %w", redact.URL(url), redact.Error(err))
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("connect to database %s: %w", redact.URL(url), redact.Error(err))
	}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("migrate database: %w", err)
	}
	p.pool = pool
	return p, nil
}

// Close implements Store.
func (s *Postgres) Close() error {
	s.pool.Close()
	return nil
}

// Faults implements Store.
func (s *Postgres) Faults() *WriteFaults { return &s.fault }

// Ping implements Store.
func (s *Postgres) Ping(ctx context.Context) error { return s.pool.Ping(ctx) }

// write runs fn in one transaction, or fails the way a lost database
// would when a test says so.
func (s *Postgres) write(fn func(ctx context.Context, tx pgx.Tx) error) error {
	if err := s.fault.check(); err != nil {
		return err
	}
	return s.tx(fn)
}

func opCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), pgOpTimeout)
}

// CreateAgentJob implements Store.
func (s *Postgres) CreateAgentJob(rec *AgentJob, limit int, since time.Time) (oldest time.Time, limited bool, err error) {
	err = s.write(func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1, hashtext($2))", lockAgentProject, rec.ProjectID); err != nil {
			return err
		}
		if oldest, limited, err = pgAgentLimited(ctx, tx, rec.ProjectID, limit, since); err != nil || limited {
			return err
		}
		var next int64
		if err := tx.QueryRow(ctx, `INSERT INTO counters (name, value) VALUES ($1, 1)
			ON CONFLICT (name) DO UPDATE SET value = counters.value + 1 RETURNING value`, "pr/"+rec.ProjectID).Scan(&next); err != nil {
			return err
		}
		rec.PRNumber = uint64(next) //nolint:gosec // G115: counts up from 1, never negative
		data, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, "INSERT INTO agent_jobs (id, project_id, created_at, record) VALUES ($1, $2, $3, $4)",
			rec.ID, rec.ProjectID, rec.CreatedAt, data)
		return err
	})
	return oldest, limited, err
}

// AgentJob implements Store.
func (s *Postgres) AgentJob(id string) (*AgentJob, error) {
	ctx, cancel := opCtx()
	defer cancel()
	var rec AgentJob
	return &rec, scanRecord(s.pool.QueryRow(ctx, "SELECT record FROM agent_jobs WHERE id = $1", id), &rec)
}

// ForceAgentState implements Store.
func (s *Postgres) ForceAgentState(id string, f *AgentForced) (rec *AgentJob, err error) {
	err = s.write(func(ctx context.Context, tx pgx.Tx) error {
		rec = &AgentJob{}
		if err := scanRecord(tx.QueryRow(ctx, "SELECT record FROM agent_jobs WHERE id = $1 FOR UPDATE", id), rec); err != nil {
			return err
		}
		rec.Forced = f
		data, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, "UPDATE agent_jobs SET record = $2 WHERE id = $1", id, data)
		return err
	})
	return rec, err
}

// scanRecord decodes the one JSON record row returns, or ErrNoRecord.
func scanRecord(row pgx.Row, v any) error {
	var data []byte
	if err := row.Scan(&data); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return ErrNoRecord
		}
		return err
	}
	return json.Unmarshal(data, v)
}

// DeleteAgentJobsBefore implements Store.
func (s *Postgres) DeleteAgentJobsBefore(cutoff time.Time) (int, error) {
	return s.deleteAgentJobs("DELETE FROM agent_jobs WHERE created_at < $1", cutoff)
}

// DeleteOrgAgentJobs implements Store.
func (s *Postgres) DeleteOrgAgentJobs(orgID string) (int, error) {
	return s.deleteAgentJobs("DELETE FROM agent_jobs WHERE record->>'orgId' = $1", orgID)
}

// deleteAgentJobs runs a DELETE of agent jobs and counts them.
func (s *Postgres) deleteAgentJobs(query string, arg any) (int, error) {
	n := 0
	err := s.write(func(ctx context.Context, tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, query, arg)
		n = int(tag.RowsAffected())
		return err
	})
	return n, err
}

// CreateExportJob implements Store.
func (s *Postgres) CreateExportJob(rec *ExportJob, idemKey, hash string, lim Limits) (existing *ExportJob, err error) {
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
func (s *Postgres) idempotentLookup(ctx context.Context, tx pgx.Tx, orgID, key, hash string, now time.Time) (*ExportJob, error) {
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

// PruneIdempotency implements Store.
func (s *Postgres) PruneIdempotency(now time.Time) error {
	return s.write(func(ctx context.Context, tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "DELETE FROM export_idempotency WHERE created_at <= $1", now.Add(-IdempotencyWindow))
		return err
	})
}
