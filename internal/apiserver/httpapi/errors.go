package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// Error is an error with the status the API answers it with. Handlers
// return it; the server's handler adapter turns any error into the JSON
// body.
type Error struct {
	Status int
	Msg    string
	// RetryAfter, when positive, becomes a Retry-After header (seconds).
	RetryAfter int
	// AuthFailed adds the WWW-Authenticate challenge RFC 6750 asks for.
	AuthFailed bool
	// Injected marks a fault the control plane injected: its status is
	// the suite's choice, which strict mode leaves alone.
	Injected bool
}

func (e *Error) Error() string { return e.Msg }

// StoreRetryAfter is the Retry-After (seconds) of a request whose store
// write failed.
const StoreRetryAfter = 5

// Errorf builds an Error. Its string arguments are what errors repeat
// of a request (a domain, a field name, a path), so each is cut to
// api.MaxEcho bytes here, once for every handler; pass a message that is
// whole already (one wrapping clipped input) as an error, not a string.
func Errorf(status int, format string, args ...any) error {
	clipped := make([]any, len(args))
	for i, a := range args {
		if s, ok := a.(string); ok {
			a = api.Clip(s)
		}
		clipped[i] = a
	}
	return &Error{Status: status, Msg: fmt.Sprintf(format, clipped...)}
}

// BadRequest is Errorf with 400.
func BadRequest(format string, args ...any) error {
	return Errorf(http.StatusBadRequest, format, args...)
}

// NotFound is Errorf with 404.
func NotFound(format string, args ...any) error {
	return Errorf(http.StatusNotFound, format, args...)
}

// HandlerFunc is the shape of every API handler: it either writes a
// successful answer itself or returns an error for the server to render.
type HandlerFunc func(w http.ResponseWriter, r *http.Request) error

// WriteJSON encodes v into a buffer before sending the header, so that an
// encoding failure can still become a 500 instead of a truncated 200.
func WriteJSON(w http.ResponseWriter, status int, v any) {
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

// WriteRaw sends a JSON document held as bytes.
func WriteRaw(w http.ResponseWriter, doc []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(doc)))
	_, _ = w.Write(doc)
}

// StoreError answers a failed store write (a full disk, most likely): the
// client learns that nothing was recorded and may retry; the cause, which
// names server paths, stays in the log.
func StoreError(what string, err error) error {
	return &StoreFailure{what: what, err: err}
}

// StoreFailure is the error StoreError returns; the server answers it
// with 503 and Retry-After.
type StoreFailure struct {
	what string
	err  error
}

func (e *StoreFailure) Error() string { return e.what + ": " + e.err.Error() }
func (e *StoreFailure) Unwrap() error { return e.err }
