package jobstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// IdempotencyWindow is how long an Idempotency-Key counts: the same key
// with the same request within it returns the job the first start
// created; with another request it is ErrIdempotencyConflict.
const IdempotencyWindow = 24 * time.Hour

// ErrIdempotencyConflict refuses a start whose key an earlier start used
// for another request.
var ErrIdempotencyConflict = errors.New("idempotency key reused with another request")

// idempotencyRecord remembers what a key was first used for.
type idempotencyRecord struct {
	RequestHash string    `json:"requestHash"`
	JobID       string    `json:"jobId"`
	CreatedAt   time.Time `json:"createdAt"`
}

// idempotentLookup returns the job an earlier start with key created, nil
// when there is none (or it is past the window, or the job is gone), and
// ErrIdempotencyConflict when the key was used for another request. It
// runs inside the transaction that creates the job, so two concurrent
// starts with one key cannot both create one.
func idempotentLookup(tx *bolt.Tx, orgID, key, hash string, now time.Time) (*ExportJob, error) {
	raw := tx.Bucket(bucketIdempotency).Get(idemStoreKey(orgID, key))
	if raw == nil {
		return nil, nil
	}
	var ir idempotencyRecord
	if err := json.Unmarshal(raw, &ir); err != nil {
		return nil, fmt.Errorf("decode idempotency record: %w", err)
	}
	if !now.Before(ir.CreatedAt.Add(IdempotencyWindow)) {
		return nil, nil
	}
	data := tx.Bucket(bucketExportJobs).Get([]byte(ir.JobID))
	if data == nil {
		return nil, nil
	}
	if ir.RequestHash != hash {
		return nil, ErrIdempotencyConflict
	}
	var rec ExportJob
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, err
	}
	return &rec, nil
}

func idemStoreKey(orgID, key string) []byte { return []byte(orgID + "\x00" + key) }

func putIdempotency(tx *bolt.Tx, orgID, key string, ir idempotencyRecord) error {
	raw, err := json.Marshal(ir)
	if err != nil {
		return err
	}
	return tx.Bucket(bucketIdempotency).Put(idemStoreKey(orgID, key), raw)
}

// PruneIdempotency drops keys past the window; the sweeper calls it.
func (s *boltExports) PruneIdempotency(ctx context.Context, now time.Time) error {
	return s.update(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketIdempotency)
		var doomed [][]byte
		err := b.ForEach(func(k, v []byte) error {
			var ir idempotencyRecord
			if json.Unmarshal(v, &ir) != nil || !now.Before(ir.CreatedAt.Add(IdempotencyWindow)) {
				doomed = append(doomed, append([]byte(nil), k...))
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range doomed {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
}
