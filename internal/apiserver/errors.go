package apiserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// httpError is an error with the status the API answers it with. Handlers
// return it; apiHandler turns any error into the JSON body.
type httpError struct {
	status int
	msg    string
	// retryAfter, when positive, becomes a Retry-After header (seconds).
	retryAfter int
	// authFailed adds the WWW-Authenticate challenge RFC 6750 asks for.
	authFailed bool
	// injected marks a fault the control plane injected: its status is
	// the suite's choice, which strict mode leaves alone.
	injected bool
}

func (e *httpError) Error() string { return e.msg }

// Retry-After (seconds) of a start refused for too many active exports,
// and of a request whose store write failed.
const (
	activeRetryAfter = 10
	storeRetryAfter  = 5
)

// errorf builds an httpError. Its string arguments are what errors repeat
// of a request (a domain, a field name, a path), so each is cut to
// api.MaxEcho bytes here, once for every handler; pass a message that is
// whole already (one wrapping clipped input) as an error, not a string.
func errorf(status int, format string, args ...any) error {
	clipped := make([]any, len(args))
	for i, a := range args {
		if s, ok := a.(string); ok {
			a = api.Clip(s)
		}
		clipped[i] = a
	}
	return &httpError{status: status, msg: fmt.Sprintf(format, clipped...)}
}

func badRequest(format string, args ...any) error {
	return errorf(http.StatusBadRequest, format, args...)
}

func notFound(format string, args ...any) error {
	return errorf(http.StatusNotFound, format, args...)
}

// handlerFunc is the shape of every API handler: it either writes a
// successful answer itself or returns an error for serveError to render.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// apiHandler adapts a handlerFunc to http.Handler.
func (s *Server) apiHandler(h handlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			s.serveError(w, r, err)
		}
	})
}

// serveError writes err as {"error": "..."}. Errors that carry no status are
// our own faults: they are logged in full and the client sees a generic 500.
func (s *Server) serveError(w http.ResponseWriter, r *http.Request, err error) {
	var he *httpError
	var sf *storeFailure
	if errors.As(err, &sf) {
		s.log.Error("store write failed", "method", r.Method, "path", r.URL.Path, "error", err)
		s.metrics.storeFailed("request")
		he = &httpError{status: http.StatusServiceUnavailable, retryAfter: storeRetryAfter,
			msg: "the server could not record the request (its storage failed); nothing was changed, retry later"}
	} else if !errors.As(err, &he) {
		s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "error", err)
		he = &httpError{status: http.StatusInternalServerError, msg: "internal server error"}
	}
	if s.strict && !he.injected {
		// Only statuses the real service documents (strict.go); a fault
		// a suite injected answers what the suite asked for.
		he = s.strictError(r, he)
	}
	if he.retryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(he.retryAfter))
	}
	if he.authFailed {
		w.Header().Set("WWW-Authenticate", `Bearer realm="docsadmin", error="invalid_token"`)
	}
	writeJSON(w, he.status, api.Error{Error: he.msg})
}

// writeJSON encodes v into a buffer before sending the header, so that an
// encoding failure can still become a 500 instead of a truncated 200.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"error":"internal server error"}` + "\n")
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// storeError answers a failed store write (a full disk, most likely): the
// client learns that nothing was recorded and may retry; the cause, which
// names server paths, stays in the log.
func storeError(what string, err error) error {
	return &storeFailure{what: what, err: err}
}

type storeFailure struct {
	what string
	err  error
}

func (e *storeFailure) Error() string { return e.what + ": " + e.err.Error() }
func (e *storeFailure) Unwrap() error { return e.err }
