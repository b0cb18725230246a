// Package httpapi holds the HTTP conventions every handler of the
// reference server follows, so the server and its control plane answer
// alike: errors that carry their status (Error, Errorf, StoreError), JSON
// answers encoded before the header is sent (WriteJSON), strict decoding
// of request bodies (DecodeJSON), the statuses strict mode may answer
// (StrictStatus), the note a request carries for the journal (Note), and
// the middleware that needs no server: the body limit (LimitBody), CORS,
// the access log with panic recovery (LogAndRecover), and JSON 404 and 405
// answers for what no route matches (Fallback). Each takes the server's
// ErrorWriter, so every error is answered alike.
//
// It is a leaf: it knows net/http, the wire types of internal/api and a
// logger, never the server, its configuration, its store or the control
// plane that use it.
package httpapi
