package httpapi

import (
	"net/http"
	"path"
	"strings"
)

// Fallback answers what mux would answer in plain text (404, 405, a
// redirect to a cleaned path) as JSON errors instead; patterns are the
// ones registered on it, and none may be a subtree ("/dir/"). A path
// that mux would clean answers 404 rather than redirect, unless its
// cleaned form is a registered route: ids never contain "..".
//
// Fallback registers "/" on mux itself, so that mux matches a request
// once: a canonical path that no route matches reaches that catch-all,
// which asks a second mux holding the same patterns (probe) whether the
// path exists under another method. Matching twice, to tell a route
// from a miss before serving it, was a tenth of a status read's time.
// Paths mux would redirect take the slower way of asking probe first.
func Fallback(mux *http.ServeMux, patterns map[string]bool, serveError ErrorWriter) http.Handler {
	probe := http.NewServeMux()
	for p := range patterns {
		if strings.HasSuffix(p, "/") {
			// mux would redirect "/dir" to it past the catch-all.
			panic("httpapi.Fallback: subtree pattern " + p)
		}
		probe.Handle(p, http.NotFoundHandler()) // only its pattern is used
	}
	miss := func(w http.ResponseWriter, r *http.Request, h http.Handler) {
		answer := NewDiscardWriter()
		h.ServeHTTP(answer, r)
		if answer.Status() == http.StatusMethodNotAllowed {
			allow := answer.Header().Get("Allow")
			w.Header().Set("Allow", allow)
			serveError(w, r, Errorf(http.StatusMethodNotAllowed, "method %s is not allowed on %s (allowed: %s)",
				r.Method, r.URL.Path, allow))
			return
		}
		serveError(w, r, NotFound("no such endpoint: %s %s", r.Method, r.URL.Path))
	}
	mux.Handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, _ := probe.Handler(r)
		miss(w, r, h)
	}))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodConnect && canonical(r.URL.EscapedPath()) {
			mux.ServeHTTP(w, r)
			return
		}
		h, pattern := probe.Handler(r)
		if patterns[pattern] {
			mux.ServeHTTP(w, r) // its redirect to the cleaned path
			return
		}
		miss(w, r, h)
	})
}

// canonical reports whether p is a path ServeMux serves as it is, rather
// than redirect to its cleaned form: rooted, without empty, "." or ".."
// segments, a trailing slash allowed. It never allocates.
func canonical(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	if p == "/" || p[len(p)-1] != '/' {
		return path.Clean(p) == p
	}
	c := path.Clean(p) // drops the trailing slash
	return c != "/" && c == p[:len(p)-1]
}

// DiscardWriter is a response writer that keeps the status and headers
// of an answer and drops its body: Fallback reads the mux's own answer
// through it, and benchmarks serve handlers into it.
type DiscardWriter struct {
	header http.Header
	status int
}

// NewDiscardWriter returns a DiscardWriter with an empty header map.
func NewDiscardWriter() *DiscardWriter { return &DiscardWriter{header: http.Header{}} }

// Status is the status written, 0 before any.
func (w *DiscardWriter) Status() int { return w.status }

// Header is the answer's header map.
func (w *DiscardWriter) Header() http.Header { return w.header }

// WriteHeader keeps the first status written.
func (w *DiscardWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}

// Write drops b, after an implicit 200 as net/http writes one.
func (w *DiscardWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return len(b), nil
}
