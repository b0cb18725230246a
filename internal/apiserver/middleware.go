package apiserver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/httpapi"
)

type ctxKey int

const (
	orgKey ctxKey = iota
	noteKey
)

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

// limitBody enforces the 1 MiB cap and insists that any body is JSON.
func (s *Server) limitBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > api.MaxRequestBodyBytes {
			s.serveError(w, r, errorf(http.StatusRequestEntityTooLarge, "request body exceeds %d bytes", api.MaxRequestBodyBytes))
			return
		}
		if r.ContentLength < 0 {
			// A chunked body may still be empty; only a body that has
			// content must be JSON.
			br := bufio.NewReader(r.Body)
			if _, err := br.Peek(1); errors.Is(err, io.EOF) {
				r.ContentLength = 0
			}
			r.Body = struct {
				io.Reader
				io.Closer
			}{br, r.Body}
		}
		if r.ContentLength != 0 {
			ct := r.Header.Get("Content-Type")
			mt, _, err := mime.ParseMediaType(ct)
			if err != nil || mt != "application/json" {
				s.serveError(w, r, errorf(http.StatusUnsupportedMediaType, "content type %q is not supported: send application/json", ct))
				return
			}
		}
		r.Body = http.MaxBytesReader(w, r.Body, api.MaxRequestBodyBytes)
		next.ServeHTTP(w, r)
	})
}

// logAndRecover logs one line per request and turns a panic into a JSON
// 500. The query string is never logged: on a bundle link it is the
// signature, and the path alone says what was asked.
func (s *Server) logAndRecover(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &httpapi.StatusRecorder{ResponseWriter: w}
		defer func() {
			if p := recover(); p != nil {
				// http.ErrAbortHandler aborts the response on purpose:
				// let net/http see it.
				if err, ok := p.(error); ok && errors.Is(err, http.ErrAbortHandler) {
					panic(p)
				}
				s.log.Error("handler panicked", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(p))
				if rec.Status == 0 {
					s.serveError(rec, r, errors.New("panic"))
				}
			}
			// Guarded: the arguments alone cost four allocations per
			// request when debug logging is off.
			if s.log.IsDebug() {
				s.log.Debug("request", "method", r.Method, "path", r.URL.EscapedPath(), "status", rec.Status,
					"duration", time.Since(start).Round(time.Microsecond))
			}
		}()
		rec.Header().Set("X-Content-Type-Options", "nosniff")
		next.ServeHTTP(rec, r)
	})
}

// cors lets browsers on the configured origins call the API and read its
// answers: an API playground in a bundle opened from file:// sends
// "Origin: null", one on a docs site its own origin. Without configured
// origins nothing changes, and a preflight is refused with 403.
func (s *Server) cors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin == "" {
			next.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		h.Add("Vary", "Origin")
		allowed := apiconfig.OriginAllowed(s.cfg.CORSAllowedOrigins, origin)
		if allowed {
			h.Set("Access-Control-Allow-Origin", origin)
			h.Set("Access-Control-Expose-Headers", "Retry-After, Content-Length")
		}
		if r.Method != http.MethodOptions || r.Header.Get("Access-Control-Request-Method") == "" {
			next.ServeHTTP(w, r)
			return
		}
		if !allowed {
			s.serveError(w, r, errorf(http.StatusForbidden, "origin %q may not call this API: list it in the server's corsAllowedOrigins", origin))
			return
		}
		h.Set("Access-Control-Allow-Methods", "GET, POST")
		h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type")
		h.Set("Access-Control-Max-Age", "600")
		w.WriteHeader(http.StatusNoContent)
	})
}
