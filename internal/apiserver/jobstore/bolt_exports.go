package jobstore

import (
	"context"
	"encoding/json"
	"errors"

	bolt "go.etcd.io/bbolt"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// PutExportJob implements ExportStore.
func (s *boltExports) PutExportJob(ctx context.Context, rec *ExportJob) error {
	data, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	return s.updateExports(ctx, func(tx *exportTx) error {
		return tx.putJob(rec.JobID, data)
	})
}

// PollExportJob implements ExportStore: one process writes the file, so
// a poll is a read, answered from the memo while the job is unchanged. A
// job polled by many clients, or by one every few milliseconds, is read
// from bbolt once per change rather than once per poll: a read
// transaction and the record's lookup were a fifth of a status read's
// server time, the largest part of it that was not net/http's.
func (s *boltExports) PollExportJob(ctx context.Context, id string) (*ExportJob, error) {
	if rec, ok := s.polls.Get(id); ok {
		return rec, nil
	}
	s0 := s.polls.Begin()
	rec, err := s.ExportJob(ctx, id)
	var read map[string]*ExportJob
	if err == nil {
		read = map[string]*ExportJob{id: rec}
	}
	s.polls.End(s0, read)
	return rec, err
}

// ExportJob implements ExportStore.
func (s *boltExports) ExportJob(ctx context.Context, id string) (*ExportJob, error) {
	var rec *ExportJob
	err := s.view(ctx, func(tx *bolt.Tx) error {
		data := tx.Bucket(bucketExportJobs).Get([]byte(id))
		if data == nil {
			s.decoded.Forget(id)
			return ErrNoRecord
		}
		var err error
		rec, err = s.decoded.Decode(id, data)
		return err
	})
	if err != nil {
		return &ExportJob{}, err
	}
	return rec, nil
}

// ExportJobs implements ExportStore.
func (s *boltExports) ExportJobs(ctx context.Context) ([]*ExportJob, error) {
	var out []*ExportJob
	err := s.view(ctx, func(tx *bolt.Tx) error {
		return tx.Bucket(bucketExportJobs).ForEach(func(_, v []byte) error {
			var rec ExportJob
			if err := json.Unmarshal(v, &rec); err != nil {
				return err
			}
			out = append(out, &rec)
			return nil
		})
	})
	return out, err
}

// DeleteExportJob implements ExportStore.
func (s *boltExports) DeleteExportJob(ctx context.Context, id string) error {
	return s.updateExports(ctx, func(tx *exportTx) error {
		return tx.deleteJob(id)
	})
}

// CreateExportJob checks and inserts in one transaction, so concurrent
// starts cannot slip past a limit together. The organization's totals
// come from the index, which holds the bucket as the writer before this
// one left it.
func (s *boltExports) CreateExportJob(ctx context.Context, rec *ExportJob, c Creation) (existing *ExportJob, err error) {
	idemKey, hash := c.IdempotencyKey, c.RequestHash
	err = s.updateExports(ctx, func(tx *exportTx) error {
		if idemKey != "" {
			prev, err := idempotentLookup(tx.Tx, rec.OrgID, idemKey, hash, rec.CreatedAt)
			if err != nil || prev != nil {
				existing = prev
				return err
			}
		}
		if err := c.Limits.Check(s.index.totals(rec.OrgID)); err != nil {
			return err
		}
		data, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		if err := tx.putJob(rec.JobID, data); err != nil {
			return err
		}
		if idemKey != "" {
			return putIdempotency(tx.Tx, rec.OrgID, idemKey, idempotencyRecord{RequestHash: hash, JobID: rec.JobID, CreatedAt: rec.CreatedAt})
		}
		return nil
	})
	return existing, err
}

// SetBundleSize implements ExportStore.
func (s *boltExports) SetBundleSize(ctx context.Context, id string, size int64) error {
	return s.modifyExportJob(ctx, id, func(rec *ExportJob) error {
		rec.BundleSize = size
		return nil
	})
}

// LatestCompletedExport implements ExportStore: the index names the job
// (bolt_index.go), and only its record is read.
func (s *boltExports) LatestCompletedExport(ctx context.Context, orgID, domain, excluding string) (*ExportJob, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.index.mu.Lock()
	id := s.index.latestArchived(orgID, domain, excluding)
	s.index.mu.Unlock()
	if id == "" {
		return nil, nil
	}
	rec, err := s.ExportJob(ctx, id)
	switch {
	case errors.Is(err, ErrNoRecord):
		return nil, nil // deleted since the index named it
	case err != nil:
		return nil, err
	case rec.Status != api.ExportCompleted || rec.BundleSize == 0:
		return nil, nil // rewritten since (a control-plane requeue)
	}
	return rec, nil
}
