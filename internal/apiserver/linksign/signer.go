package linksign

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
	// ErrLinkExpired is a link whose signature holds but whose time is up.
	ErrLinkExpired = errors.New("link has expired")
	// ErrLinkSignature is a link that was not signed by a key of the ring
	// for what it asks: forged, altered, or signed by a dropped key.
	ErrLinkSignature = errors.New("link signature does not match")
)

// Signer issues and checks presigned bundle links: an HMAC-SHA256 over the
// job, the file, the expiry and the key id, keyed by a secret of the key
// ring in the data dir, so links survive a restart and a key can be
// rotated. Nothing in a link can be changed without breaking its signature.
type Signer struct {
	// Ring holds the keys: the current one signs, all of them verify.
	Ring *KeyRing
}

func (s *Signer) mac(k signingKey, jobID, file string, expires int64) []byte {
	m := hmac.New(sha256.New, k.Key)
	// The legacy key signed without a key id; its links must still verify.
	if k.ID == legacyKeyID {
		_, _ = fmt.Fprintf(m, "GET\n%s\n%s\n%d", jobID, file, expires) // hashes do not fail
	} else {
		_, _ = fmt.Fprintf(m, "GET\n%s\n%s\n%d\n%s", jobID, file, expires, k.ID)
	}
	return m.Sum(nil)
}

// Sign returns the query string of a link to file of jobID valid until
// expires (whole seconds: the link carries no finer time).
func (s *Signer) Sign(jobID, file string, expires time.Time) url.Values {
	k := s.Ring.current()
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

// Verify checks a presented link at time now. The signature is compared in
// constant time and checked before expiry, so a forged link never learns
// whether its expiry would have been acceptable. A link naming a key that
// is no longer in the ring (dropped after a leak) fails like a forgery.
func (s *Signer) Verify(jobID, file string, q url.Values, now time.Time) error {
	kid := q.Get(paramKeyID)
	if kid == "" {
		kid = legacyKeyID
	}
	k, ok := s.Ring.find(kid)
	if !ok {
		return ErrLinkSignature
	}
	exp, err := strconv.ParseInt(q.Get(paramExpires), 10, 64)
	if err != nil {
		return ErrLinkSignature
	}
	sig, err := hex.DecodeString(q.Get(paramSignature))
	if err != nil || !hmac.Equal(sig, s.mac(k, jobID, file, exp)) {
		return ErrLinkSignature
	}
	if now.Unix() >= exp {
		return ErrLinkExpired
	}
	return nil
}

// RandomHex returns n random bytes as hex, for ids and keys.
func RandomHex(r io.Reader, n int) (string, error) {
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}
