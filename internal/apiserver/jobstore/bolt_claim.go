package jobstore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// Watch has nothing to do: this process is the only one that writes.
func (s *boltClaims) Watch(context.Context, func()) {}

// ClaimExport implements ClaimStore. The index picks the job from the
// open ones (see before), and only that record is read and written: a
// claim follows each start and each finished job, and idle workers
// claim too. A claim that finds nothing begins no transaction, which
// for bbolt would still have written and synced the file.
func (s *boltClaims) ClaimExport(ctx context.Context, owner string, now time.Time, lease time.Duration) (*ExportJob, bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	s.index.mu.Lock()
	defer s.index.mu.Unlock()
	id, more := s.index.next(now)
	if id == "" {
		return nil, false, s.index.idleClaim()
	}
	var claimed *ExportJob
	err := s.index.commit(s.db, func(tx *exportTx) error {
		data := tx.jobs.Get([]byte(id))
		if data == nil {
			return fmt.Errorf("claim export job %s: indexed but not stored", id)
		}
		var rec ExportJob
		if err := json.Unmarshal(data, &rec); err != nil {
			return err
		}
		if !rec.Claimable(now) {
			// The index and the bucket disagree: a claim on the index's
			// word would take a job that someone holds.
			return fmt.Errorf("claim export job %s: the index holds it claimable, the store does not", id)
		}
		// Only a claim that writes can fail as a full disk would: idle
		// workers looking for work are not writes.
		if err := s.fault.Check(); err != nil {
			return err
		}
		TakeOver(&rec, owner, now, lease)
		data, err := json.Marshal(&rec)
		if err != nil {
			return err
		}
		claimed = &rec
		return tx.putJob(id, data)
	})
	if err != nil {
		return nil, false, err
	}
	return claimed, more, nil
}

// RenewLease implements ClaimStore.
func (s *boltClaims) RenewLease(ctx context.Context, mine *ExportJob, until time.Time) error {
	return s.modifyExportJob(ctx, mine.JobID, func(cur *ExportJob) error {
		if !Holds(cur, mine) {
			return ErrLeaseLost
		}
		ExtendLease(cur, mine, until)
		return nil
	})
}

// CompleteAttempt implements ClaimStore.
func (s *boltClaims) CompleteAttempt(ctx context.Context, mine *ExportJob) error {
	return s.modifyExportJob(ctx, mine.JobID, func(cur *ExportJob) error {
		if !Holds(cur, mine) {
			return ErrLeaseLost
		}
		*cur = *mine
		cur.Owner, cur.LeaseUntil = "", time.Time{}
		return nil
	})
}

// ReleaseLeases ends the leases of jobs a previous process left running.
// Only one process opens the file (bbolt locks it), so they are orphans:
// the next claim resumes them at once rather than after their lease. A
// job the control plane pinned is no orphan and stays pinned.
func (s *boltClaims) ReleaseLeases(ctx context.Context) error {
	return s.updateExports(ctx, func(tx *exportTx) error {
		var fixed [][2][]byte
		err := tx.jobs.ForEach(func(k, v []byte) error {
			var rec ExportJob
			if err := json.Unmarshal(v, &rec); err != nil {
				return err
			}
			if rec.Status != api.ExportRunning || rec.LeaseUntil.IsZero() || rec.LeaseUntil.Equal(Pinned) {
				return nil
			}
			rec.LeaseUntil = time.Time{}
			data, err := json.Marshal(&rec)
			fixed = append(fixed, [2][]byte{append([]byte(nil), k...), data})
			return err
		})
		if err != nil {
			return err
		}
		for _, kv := range fixed {
			if err := tx.putJob(string(kv[0]), kv[1]); err != nil {
				return err
			}
		}
		return nil
	})
}
