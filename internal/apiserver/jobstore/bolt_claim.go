package jobstore

import (
	"context"
	"encoding/json"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// Watch has nothing to do: this process is the only one that writes.
func (s *boltClaims) Watch(context.Context, func()) {}

// ClaimExport walks every job to find the one to claim next (see
// fairer). A claim follows each start and each finished job, so the walk
// is paid once per job; the store holds at most maxStoredExports per
// organization.
func (s *boltClaims) ClaimExport(owner string, now time.Time, lease time.Duration) (*ExportJob, error) {
	var claimed *ExportJob
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketExportJobs)
		var candidates []*ExportJob
		running := map[string]int{}
		err := b.ForEach(func(_, v []byte) error {
			var rec ExportJob
			if err := json.Unmarshal(v, &rec); err != nil {
				return err
			}
			switch {
			case rec.claimable(now):
				candidates = append(candidates, &rec)
			case rec.Status == api.ExportRunning:
				running[rec.OrgID]++ // held by a live lease
			}
			return nil
		})
		if err != nil || len(candidates) == 0 {
			return err
		}
		best := candidates[0]
		for _, c := range candidates[1:] {
			if fairer(c, best, running) {
				best = c
			}
		}
		// Only a claim that writes can fail as a full disk would: idle
		// workers looking for work are not writes.
		if err := s.fault.check(); err != nil {
			return err
		}
		takeOver(best, owner, now, lease)
		data, err := json.Marshal(best)
		if err != nil {
			return err
		}
		claimed = best
		return b.Put([]byte(best.JobID), data)
	})
	if err != nil {
		return nil, err
	}
	return claimed, nil
}

// RenewLease implements ClaimStore.
func (s *boltClaims) RenewLease(mine *ExportJob, until time.Time) error {
	return s.modifyExportJob(mine.JobID, func(cur *ExportJob) error {
		if !Holds(cur, mine) {
			return ErrLeaseLost
		}
		extendLease(cur, mine, until)
		return nil
	})
}

// CompleteAttempt implements ClaimStore.
func (s *boltClaims) CompleteAttempt(mine *ExportJob) error {
	return s.modifyExportJob(mine.JobID, func(cur *ExportJob) error {
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
func (s *boltClaims) ReleaseLeases() error {
	return s.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketExportJobs)
		var fixed [][2][]byte
		err := b.ForEach(func(k, v []byte) error {
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
			if err := b.Put(kv[0], kv[1]); err != nil {
				return err
			}
		}
		return nil
	})
}
