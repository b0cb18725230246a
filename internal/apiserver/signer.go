package apiserver

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"time"
)

// Query parameters of a presigned bundle link.
const (
	paramExpires   = "expires"
	paramSignature = "signature"
	paramKeyID     = "kid"
)

var (
	errLinkExpired   = errors.New("link has expired")
	errLinkSignature = errors.New("link signature does not match")
)

// signer issues and checks presigned bundle links: an HMAC-SHA256 over the
// job, the file, the expiry and the key id, keyed by a secret of the key
// ring in the data dir, so links survive a restart and a key can be
// rotated. Nothing in a link can be changed without breaking its signature.
type signer struct {
	ring *keyRing
}

func (s *signer) mac(k signingKey, jobID, file string, expires int64) []byte {
	m := hmac.New(sha256.New, k.Key)
	// The legacy key signed without a key id; its links must still verify.
	if k.ID == legacyKeyID {
		_, _ = fmt.Fprintf(m, "GET\n%s\n%s\n%d", jobID, file, expires) // hashes do not fail
	} else {
		_, _ = fmt.Fprintf(m, "GET\n%s\n%s\n%d\n%s", jobID, file, expires, k.ID)
	}
	return m.Sum(nil)
}

// sign returns the query string of a link to file of jobID valid until
// expires (whole seconds: the link carries no finer time).
func (s *signer) sign(jobID, file string, expires time.Time) url.Values {
	k := s.ring.current()
	exp := expires.Unix()
	v := url.Values{
		paramExpires:   {strconv.FormatInt(exp, 10)},
		paramSignature: {hex.EncodeToString(s.mac(k, jobID, file, exp))},
	}
	if k.ID != legacyKeyID {
		v.Set(paramKeyID, k.ID)
	}
	return v
}

// verify checks a presented link at time now. The signature is compared in
// constant time and checked before expiry, so a forged link never learns
// whether its expiry would have been acceptable. A link naming a key that
// is no longer in the ring (dropped after a leak) fails like a forgery.
func (s *signer) verify(jobID, file string, q url.Values, now time.Time) error {
	kid := q.Get(paramKeyID)
	if kid == "" {
		kid = legacyKeyID
	}
	k, ok := s.ring.find(kid)
	if !ok {
		return errLinkSignature
	}
	exp, err := strconv.ParseInt(q.Get(paramExpires), 10, 64)
	if err != nil {
		return errLinkSignature
	}
	sig, err := hex.DecodeString(q.Get(paramSignature))
	if err != nil || !hmac.Equal(sig, s.mac(k, jobID, file, exp)) {
		return errLinkSignature
	}
	if now.Unix() >= exp {
		return errLinkExpired
	}
	return nil
}

// randomHex returns n random bytes as hex, for ids and keys.
func randomHex(r io.Reader, n int) (string, error) {
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}
