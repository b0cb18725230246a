package pgstore

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
)

// pgAgentLimited counts the project's jobs and follow-up messages created
// after since; with limit of them or more it reports the oldest one's
// time. The caller holds the project's advisory lock.
func pgAgentLimited(ctx context.Context, tx pgx.Tx, projectID string, limit int, since time.Time) (oldest time.Time, limited bool, err error) {
	var n int
	var first *time.Time
	err = tx.QueryRow(ctx, `SELECT count(*), min(created_at) FROM (
			SELECT created_at FROM agent_jobs WHERE project_id = $1 AND created_at >= $2
			UNION ALL
			SELECT created_at FROM agent_messages WHERE project_id = $1 AND created_at >= $2) AS requests`,
		projectID, since).Scan(&n, &first)
	if err != nil {
		return time.Time{}, false, err
	}
	if first != nil {
		oldest = *first
	}
	return oldest, n >= limit, nil
}

// AddAgentMessage locks the project before the job's row, the order
// CreateAgentJob takes the project lock in too, so the two cannot
// deadlock.
func (s *pgAgents) AddAgentMessage(ctx context.Context, id string, msg jobstore.AgentMessage, limit int, since time.Time,
	accept func(*jobstore.AgentJob) error,
) (rec *jobstore.AgentJob, oldest time.Time, limited bool, err error) {
	err = s.write(ctx, func(ctx context.Context, tx pgx.Tx) error {
		var projectID string
		if err := tx.QueryRow(ctx, "SELECT project_id FROM agent_jobs WHERE id = $1", id).Scan(&projectID); err != nil {
			if errors.Is(err, pgx.ErrNoRows) {
				return jobstore.ErrNoRecord
			}
			return err
		}
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1, hashtext($2))", lockAgentProject, projectID); err != nil {
			return err
		}
		rec = &jobstore.AgentJob{}
		if err := scanRecord(tx.QueryRow(ctx, "SELECT record FROM agent_jobs WHERE id = $1 FOR UPDATE", id), rec); err != nil {
			return err
		}
		if err := accept(rec); err != nil {
			return err
		}
		var err error
		if oldest, limited, err = pgAgentLimited(ctx, tx, rec.ProjectID, limit, since); err != nil || limited {
			return err
		}
		rec.Messages = append(rec.Messages, msg)
		data, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "UPDATE agent_jobs SET record = $2 WHERE id = $1", id, data); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, "INSERT INTO agent_messages (job_id, seq, project_id, created_at) VALUES ($1, $2, $3, $4)",
			id, len(rec.Messages), rec.ProjectID, msg.At)
		return err
	})
	return rec, oldest, limited, err
}

// CreateAgentJob implements AgentStore.
func (s *pgAgents) CreateAgentJob(ctx context.Context, rec *jobstore.AgentJob, limit int, since time.Time) (oldest time.Time, limited bool, err error) {
	err = s.write(ctx, func(ctx context.Context, tx pgx.Tx) error {
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

// AgentJob implements AgentStore.
func (s *pgAgents) AgentJob(ctx context.Context, id string) (*jobstore.AgentJob, error) {
	ctx, cancel := opCtx(ctx)
	defer cancel()
	var rec jobstore.AgentJob
	return &rec, scanRecord(s.pool.QueryRow(ctx, "SELECT record FROM agent_jobs WHERE id = $1", id), &rec)
}

// ForceAgentState implements AgentStore.
func (s *pgAgents) ForceAgentState(ctx context.Context, id string, f *jobstore.AgentForced) (rec *jobstore.AgentJob, err error) {
	err = s.write(ctx, func(ctx context.Context, tx pgx.Tx) error {
		rec = &jobstore.AgentJob{}
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

// scanRecord decodes the JSON record in row's first column into v, and
// scans the columns after it into also; ErrNoRecord when there is no row.
func scanRecord(row pgx.Row, v any, also ...any) error {
	var data []byte
	if err := row.Scan(append([]any{&data}, also...)...); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return jobstore.ErrNoRecord
		}
		return err
	}
	return json.Unmarshal(data, v)
}

// DeleteAgentJobsBefore implements AgentStore.
func (s *pgAgents) DeleteAgentJobsBefore(ctx context.Context, cutoff time.Time) (int, error) {
	return s.deleteRows(ctx, "DELETE FROM agent_jobs WHERE created_at < $1", cutoff)
}

// DeleteOrgAgentJobs implements AgentStore.
func (s *pgAgents) DeleteOrgAgentJobs(ctx context.Context, orgID string) (int, error) {
	return s.deleteRows(ctx, "DELETE FROM agent_jobs WHERE record->>'orgId' = $1", orgID)
}
