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
	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
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

// nosniff is the X-Content-Type-Options value of every answer; net/http
// only reads it, and Header.Set and Add replace rather than change it.
var nosniff = []string{"nosniff"}

// LogAndRecover logs one line per request and turns a panic into a JSON
// 500. The query string is never logged: on a bundle link it is the
// signature, and the path alone says what was asked.
func LogAndRecover(log hclog.Logger, serveError ErrorWriter, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The clock is read only for the debug line: it was a twentieth
		// of a status read's time.
		var start time.Time
		debug := log.IsDebug()
		if debug {
			start = time.Now()
		}
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
			if debug {
				log.Debug("request", "method", r.Method, "path", r.URL.EscapedPath(), "status", rec.Status,
					"duration", time.Since(start).Round(time.Microsecond))
			}
		}()
		rec.Header()["X-Content-Type-Options"] = nosniff // canonical key, shared value: no allocation
		next.ServeHTTP(rec, r)
	})
}

// Date stamps every answer's Date header from clk, the clock the server
// signs links and ages jobs by. Clients compare it with their own clock
// (client.ServerNow) to decide a link's renewal by the time it expires
// at; net/http's own Date reads the wall clock, which is the wrong answer
// once a test or the control plane moves clk. With the wall clock itself
// there is nothing to correct, and net/http's stamp costs nothing.
func Date(clk clock.Clock, next http.Handler) http.Handler {
	if _, wall := clk.(clock.Real); wall || clk == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Date", clk.Now().UTC().Format(http.TimeFormat))
		next.ServeHTTP(w, r)
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
