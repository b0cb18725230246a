package apiserver

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/httpapi"
)

type ctxKey int

const orgKey ctxKey = iota

// orgFrom returns the organization requireAuth put in the context.
func orgFrom(ctx context.Context) *apiconfig.Organization {
	o, _ := ctx.Value(orgKey).(*apiconfig.Organization)
	return o
}

// requireAuth admits requests that carry "Authorization: Bearer <key>" for
// a configured key. A missing, malformed or unknown key gets the same 401,
// so the answer tells nothing about which keys exist.
func (s *Server) requireAuth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := r.Header.Get("Authorization")
		scheme, key, ok := strings.Cut(h, " ")
		if h == "" {
			s.serveError(w, r, &httpError{Status: http.StatusUnauthorized, AuthFailed: true,
				Msg: "missing Authorization header: send \"Authorization: Bearer <admin API key>\""})
			return
		}
		if !ok || !strings.EqualFold(scheme, "Bearer") {
			s.serveError(w, r, &httpError{Status: http.StatusUnauthorized, AuthFailed: true,
				Msg: "malformed Authorization header: want \"Bearer <admin API key>\""})
			return
		}
		org := s.authenticate(strings.TrimSpace(key))
		if org == nil {
			s.serveError(w, r, &httpError{Status: http.StatusUnauthorized, AuthFailed: true,
				Msg: "invalid admin API key"})
			return
		}
		httpapi.NoteFrom(r.Context()).SetOrg(org.ID) // for the control plane's journal
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), orgKey, org)))
	})
}

// maxKeyLen holds any well-formed key (apiconfig.WellFormedKey: a prefix
// and at most 128 characters) on the stack; a longer one still works.
const maxKeyLen = 192

// authenticate finds the organization owning a presented key. Every
// configured key digest is compared, in constant time, so neither timing
// nor order tells a caller how close a guess came.
func (s *Server) authenticate(key string) *apiconfig.Organization {
	if !apiconfig.WellFormedKey(s.cfg.KeyPrefix, key) {
		return nil
	}
	// Hashed from a buffer on the stack: []byte(key) allocates for any
	// key longer than 32 bytes, which is every well-formed one.
	var buf [maxKeyLen]byte
	d := sha256.Sum256(append(buf[:0], key...))
	var found *apiconfig.Organization
	for _, o := range s.orgs.All() {
		for _, k := range o.KeyDigests {
			if subtle.ConstantTimeCompare(d[:], k[:]) == 1 {
				found = o
			}
		}
	}
	return found
}
