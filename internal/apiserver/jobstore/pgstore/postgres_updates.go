package pgstore

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
)

// lockUpdateProject is the advisory lock class under which a project's
// updates are counted and inserted, so two triggers cannot both take the
// last slot or start behind the same update.
const lockUpdateProject int32 = 0x646f6303

// CreateUpdate implements UpdateStore.
func (s *pgUpdates) CreateUpdate(ctx context.Context, rec *jobstore.Update, limit int, now time.Time, prepare func(prev *jobstore.Update)) (firstEnd time.Time, limited bool, err error) {
	err = s.write(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1, hashtext($2))", lockUpdateProject, rec.ProjectID); err != nil {
			return err
		}
		var running int
		var first *time.Time
		if err := tx.QueryRow(ctx, "SELECT count(*), min(ends_at) FROM doc_updates WHERE project_id = $1 AND ends_at > $2",
			rec.ProjectID, now).Scan(&running, &first); err != nil {
			return err
		}
		if limit > 0 && running >= limit {
			firstEnd, limited = *first, true
			return nil
		}
		// Each update ends after the one before it: the latest ends last.
		var prev *jobstore.Update
		var u jobstore.Update
		err := scanRecord(tx.QueryRow(ctx, "SELECT record FROM doc_updates WHERE project_id = $1 ORDER BY ends_at DESC LIMIT 1",
			rec.ProjectID), &u)
		switch {
		case err == nil:
			prev = &u
		case !errors.Is(err, jobstore.ErrNoRecord):
			return err
		}
		prepare(prev)
		data, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, "INSERT INTO doc_updates (id, org_id, project_id, created_at, ends_at, record) VALUES ($1, $2, $3, $4, $5, $6)",
			rec.ID, rec.OrgID, rec.ProjectID, rec.CreatedAt, rec.EndAt, data)
		return err
	})
	return firstEnd, limited, err
}

// RunningUpdates implements UpdateStore.
func (s *pgUpdates) RunningUpdates(ctx context.Context, projectID string, now time.Time) (running int, firstEnd time.Time, err error) {
	ctx, cancel := opCtx(ctx)
	defer cancel()
	var first *time.Time
	if err := s.pool.QueryRow(ctx, "SELECT count(*), min(ends_at) FROM doc_updates WHERE project_id = $1 AND ends_at > $2",
		projectID, now).Scan(&running, &first); err != nil {
		return 0, time.Time{}, err
	}
	if first != nil {
		firstEnd = *first
	}
	return running, firstEnd, nil
}

// FinishUpdateCheck implements UpdateStore. The record is rewritten in
// the database, so two replicas finishing the same check agree.
func (s *pgUpdates) FinishUpdateCheck(ctx context.Context, id, failure string) error {
	return s.write(ctx, func(ctx context.Context, tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE doc_updates SET record = (record - 'pending') || jsonb_build_object('failure', $2::text) WHERE id = $1`,
			id, failure)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return jobstore.ErrNoRecord
		}
		return nil
	})
}

// Update implements UpdateStore.
func (s *pgUpdates) Update(ctx context.Context, id string) (*jobstore.Update, error) {
	ctx, cancel := opCtx(ctx)
	defer cancel()
	var rec jobstore.Update
	return &rec, scanRecord(s.pool.QueryRow(ctx, "SELECT record FROM doc_updates WHERE id = $1", id), &rec)
}

// DeleteUpdatesBefore implements UpdateStore.
func (s *pgUpdates) DeleteUpdatesBefore(ctx context.Context, cutoff time.Time) (int, error) {
	return s.deleteRows(ctx, "DELETE FROM doc_updates WHERE created_at < $1", cutoff)
}

// DeleteOrgUpdates implements UpdateStore.
func (s *pgUpdates) DeleteOrgUpdates(ctx context.Context, orgID string) (int, error) {
	return s.deleteRows(ctx, "DELETE FROM doc_updates WHERE org_id = $1", orgID)
}
