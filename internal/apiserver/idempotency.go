package apiserver

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// The Idempotency-Key header makes a start safe to retry: the same key with the
// same request within jobstore.IdempotencyWindow returns the job the first start
// created; the same key with another request is a 409.
const maxIdempotencyKeyLen = 255

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
