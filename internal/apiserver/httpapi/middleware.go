package httpapi

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// ErrorWriter answers err as the server answers every error: the status it
// carries, or a logged 500 (the server's serveError).
type ErrorWriter func(w http.ResponseWriter, r *http.Request, err error)

// LimitBody enforces the 1 MiB cap and insists that any body is JSON.
func LimitBody(serveError ErrorWriter, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > api.MaxRequestBodyBytes {
			serveError(w, r, Errorf(http.StatusRequestEntityTooLarge, "request body exceeds %d bytes", api.MaxRequestBodyBytes))
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
				serveError(w, r, Errorf(http.StatusUnsupportedMediaType, "content type %q is not supported: send application/json", ct))
				return
			}
		}
		r.Body = http.MaxBytesReader(w, r.Body, api.MaxRequestBodyBytes)
		next.ServeHTTP(w, r)
	})
}

// LogAndRecover logs one line per request and turns a panic into a JSON
// 500. The query string is never logged: on a bundle link it is the
// signature, and the path alone says what was asked.
func LogAndRecover(log hclog.Logger, serveError ErrorWriter, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &StatusRecorder{ResponseWriter: w}
		defer func() {
			if p := recover(); p != nil {
				// http.ErrAbortHandler aborts the response on purpose:
				// let net/http see it.
				if err, ok := p.(error); ok && errors.Is(err, http.ErrAbortHandler) {
					panic(p)
				}
				log.Error("handler panicked", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(p))
				if rec.Status == 0 {
					serveError(rec, r, errors.New("panic"))
				}
			}
			// Guarded: the arguments alone cost four allocations per
			// request when debug logging is off.
			if log.IsDebug() {
				log.Debug("request", "method", r.Method, "path", r.URL.EscapedPath(), "status", rec.Status,
					"duration", time.Since(start).Round(time.Microsecond))
			}
		}()
		rec.Header().Set("X-Content-Type-Options", "nosniff")
		next.ServeHTTP(rec, r)
	})
}

// CORS lets browsers on the allowed origins call the API and read its
// answers: an API playground in a bundle opened from file:// sends
// "Origin: null", one on a docs site its own origin. When allowed says no,
// nothing changes, and a preflight is refused with 403.
func CORS(allowed func(origin string) bool, serveError ErrorWriter, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin == "" {
			next.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		h.Add("Vary", "Origin")
		ok := allowed(origin)
		if ok {
			h.Set("Access-Control-Allow-Origin", origin)
			h.Set("Access-Control-Expose-Headers", "Retry-After, Content-Length")
		}
		if r.Method != http.MethodOptions || r.Header.Get("Access-Control-Request-Method") == "" {
			next.ServeHTTP(w, r)
			return
		}
		if !ok {
			serveError(w, r, Errorf(http.StatusForbidden, "origin %q may not call this API: list it in the server's corsAllowedOrigins", origin))
			return
		}
		h.Set("Access-Control-Allow-Methods", "GET, POST")
		h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type")
		h.Set("Access-Control-Max-Age", "600")
		w.WriteHeader(http.StatusNoContent)
	})
}

// Fallback answers what mux would answer in plain text (404, 405, a
// redirect to a cleaned path) as JSON errors instead; patterns are the
// ones registered on it. A path that is not in canonical form is a 404
// rather than a redirect: ids never contain "..".
func Fallback(mux *http.ServeMux, patterns map[string]bool, serveError ErrorWriter) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, pattern := mux.Handler(r)
		if patterns[pattern] {
			mux.ServeHTTP(w, r)
			return
		}
		probe := &statusProbe{header: http.Header{}}
		h.ServeHTTP(probe, r)
		if probe.status == http.StatusMethodNotAllowed {
			allow := probe.header.Get("Allow")
			w.Header().Set("Allow", allow)
			serveError(w, r, Errorf(http.StatusMethodNotAllowed, "method %s is not allowed on %s (allowed: %s)",
				r.Method, r.URL.Path, allow))
			return
		}
		serveError(w, r, NotFound("no such endpoint: %s %s", r.Method, r.URL.Path))
	})
}

// statusProbe keeps the status and headers the mux's own answer would
// have had and discards its plain-text body.
type statusProbe struct {
	header http.Header
	status int
}

func (p *statusProbe) Header() http.Header { return p.header }

func (p *statusProbe) WriteHeader(code int) {
	if p.status == 0 {
		p.status = code
	}
}

func (p *statusProbe) Write(b []byte) (int, error) {
	p.WriteHeader(http.StatusOK)
	return len(b), nil
}
