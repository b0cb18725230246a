package httpapi

import "net/http"

// StatusRecorder remembers the status a handler wrote, for the access log
// and the control plane's journal.
type StatusRecorder struct {
	http.ResponseWriter
	Status int // 0 until the handler writes
}

// WriteHeader records the first status written and passes it on.
func (w *StatusRecorder) WriteHeader(code int) {
	if w.Status == 0 {
		w.Status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

// Write records an implicit 200 when no status was written first.
func (w *StatusRecorder) Write(b []byte) (int, error) {
	if w.Status == 0 {
		w.Status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController and ServeContent reach the original.
func (w *StatusRecorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }
