package apiserver

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/httpapi"
)

// The handlers of this package answer through internal/apiserver/httpapi,
// which the control plane shares; these short names keep the handlers as
// they read.

// httpError is an error with the status the API answers it with.
type httpError = httpapi.Error

// activeRetryAfter is the Retry-After (seconds) of a start refused for too
// many active exports.
const activeRetryAfter = 10

func errorf(status int, format string, args ...any) error {
	return httpapi.Errorf(status, format, args...)
}

func badRequest(format string, args ...any) error { return httpapi.BadRequest(format, args...) }

func notFound(format string, args ...any) error { return httpapi.NotFound(format, args...) }

func storeError(what string, err error) error { return httpapi.StoreError(what, err) }

func writeJSON(w http.ResponseWriter, status int, v any) { httpapi.WriteJSON(w, status, v) }

func decodeJSON(r *http.Request, v any) error { return httpapi.DecodeJSON(r, v) }

// apiHandler adapts an httpapi.HandlerFunc to http.Handler.
func (s *Server) apiHandler(h httpapi.HandlerFunc) http.Handler {
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
	var sf *httpapi.StoreFailure
	if errors.As(err, &sf) {
		s.log.Error("store write failed", "method", r.Method, "path", r.URL.Path, "error", err)
		s.metrics.StoreFailed("request")
		he = &httpError{Status: http.StatusServiceUnavailable, RetryAfter: httpapi.StoreRetryAfter,
			Msg: "the server could not record the request (its storage failed); nothing was changed, retry later"}
	} else if !errors.As(err, &he) {
		s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "error", err)
		he = &httpError{Status: http.StatusInternalServerError, Msg: "internal server error"}
	}
	if s.strict && !he.Injected {
		// Only statuses the real service documents (httpapi/strict.go);
		// a fault a suite injected answers what the suite asked for.
		he = httpapi.StrictError(s.log, r, he)
	}
	if he.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(he.RetryAfter))
	}
	if he.AuthFailed {
		w.Header().Set("WWW-Authenticate", `Bearer realm="docsadmin", error="invalid_token"`)
	}
	writeJSON(w, he.Status, api.Error{Error: he.Msg})
}
