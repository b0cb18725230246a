package httpapi

import (
	"context"
	"net/http"
	"sync"
)

// Note collects, while a request is served, what only inner handlers
// learn: the route that answered it, the organization it acts for, and
// whether the connection was closed without an answer. The control plane's journal puts one in the
// context; its methods do nothing on a nil note (no journal).
type Note struct {
	mu      sync.Mutex
	route   string
	org     string
	aborted bool
}

type noteKey struct{}

// WithNote returns ctx carrying n.
func WithNote(ctx context.Context, n *Note) context.Context {
	return context.WithValue(ctx, noteKey{}, n)
}

// NoteFrom returns the note of a request, nil when nobody journals it.
func NoteFrom(ctx context.Context) *Note {
	n, _ := ctx.Value(noteKey{}).(*Note)
	return n
}

// SetOrg records the organization the request acts for.
func (n *Note) SetOrg(id string) {
	if n == nil {
		return
	}
	n.mu.Lock()
	n.org = id
	n.mu.Unlock()
}

// NoteRoute records, on the request's note, the pattern of the route
// that next serves; the mux has set it on the request by then.
func NoteRoute(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n := NoteFrom(r.Context()); n != nil {
			n.mu.Lock()
			n.route = r.Pattern
			n.mu.Unlock()
		}
		next.ServeHTTP(w, r)
	})
}

// Route is the pattern of the route that served the request, "" when
// none did (a 404 or 405 of the fallback).
func (n *Note) Route() string {
	if n == nil {
		return ""
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.route
}

// Abort records that the connection is closed without an answer.
func (n *Note) Abort() {
	if n == nil {
		return
	}
	n.mu.Lock()
	n.aborted = true
	n.mu.Unlock()
}

// Read returns the organization and whether the request was aborted.
func (n *Note) Read() (org string, aborted bool) {
	if n == nil {
		return "", false
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.org, n.aborted
}
