package httpapi

import (
	"context"
	"sync"
)

// Note collects, while a request is served, what only inner handlers
// learn: the organization it acts for, and whether the connection was
// closed without an answer. The control plane's journal puts one in the
// context; its methods do nothing on a nil note (no journal).
type Note struct {
	mu      sync.Mutex
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
