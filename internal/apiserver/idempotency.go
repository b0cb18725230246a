package apiserver

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// The Idempotency-Key header makes a start safe to retry: the same key with the
// same request within idempotencyWindow returns the job the first start
// created; the same key with another request is a 409.
const (
	idempotencyWindow    = 24 * time.Hour
	maxIdempotencyKeyLen = 255
)

// idempotencyRecord remembers what a key was first used for.
type idempotencyRecord struct {
	RequestHash string    `json:"requestHash"`
	JobID       string    `json:"jobId"`
	CreatedAt   time.Time `json:"createdAt"`
}

// idempotencyKey reads and checks the header; "" means none was sent.
func idempotencyKey(r *http.Request) (string, error) {
	k := r.Header.Get(api.IdempotencyHeader)
	if k == "" {
		return "", nil
	}
	if len(k) > maxIdempotencyKeyLen {
		return "", badRequest("%s exceeds %d characters", api.IdempotencyHeader, maxIdempotencyKeyLen)
	}
	for i := 0; i < len(k); i++ {
		if k[i] < 0x21 || k[i] > 0x7e {
			return "", badRequest("%s must be printable ASCII without spaces", api.IdempotencyHeader)
		}
	}
	return k, nil
}

// requestHash identifies a start request by its meaning (the normalised
// domain, label and paths), so formatting differences are the same body.
func requestHash(domain, label string, paths []string) string {
	raw, _ := json.Marshal([]any{domain, label, paths}) // strings and slices always encode
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}

var errIdempotencyConflict = errors.New("idempotency key reused with another request")

// idempotentLookup returns the job an earlier start with key created, nil
// when there is none (or it is past the window, or the job is gone), and
// errIdempotencyConflict when the key was used for another request. It
// runs inside the transaction that creates the job, so two concurrent
// starts with one key cannot both create one.
func idempotentLookup(tx *bolt.Tx, orgID, key, hash string, now time.Time) (*exportJobRecord, error) {
	raw := tx.Bucket(bucketIdempotency).Get(idemStoreKey(orgID, key))
	if raw == nil {
		return nil, nil
	}
	var ir idempotencyRecord
	if err := json.Unmarshal(raw, &ir); err != nil {
		return nil, fmt.Errorf("decode idempotency record: %w", err)
	}
	if !now.Before(ir.CreatedAt.Add(idempotencyWindow)) {
		return nil, nil
	}
	data := tx.Bucket(bucketExportJobs).Get([]byte(ir.JobID))
	if data == nil {
		return nil, nil
	}
	if ir.RequestHash != hash {
		return nil, errIdempotencyConflict
	}
	var rec exportJobRecord
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

// pruneIdempotency drops keys past the window; the sweeper calls it.
func (s *boltStore) pruneIdempotency(now time.Time) error {
	return s.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketIdempotency)
		var doomed [][]byte
		err := b.ForEach(func(k, v []byte) error {
			var ir idempotencyRecord
			if json.Unmarshal(v, &ir) != nil || !now.Before(ir.CreatedAt.Add(idempotencyWindow)) {
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
