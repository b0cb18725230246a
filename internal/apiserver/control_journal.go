package apiserver

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/redact"
)

// The journal keeps the last requests of the admin API and bundle
// downloads in memory, so a suite can check what its client sent. Nothing
// secret goes in: credentials in headers, link signatures in queries and
// anything shaped like an admin key or the control token in a body are
// replaced with redact.Marker before an entry is stored. Requests to the
// control plane itself are not journaled.

// maxJournalBody is how much of a request body an entry keeps.
const maxJournalBody = 64 << 10

// requestNote collects, while a request is served, what only inner
// handlers learn: the organization it acts for, and whether a fault
// closed the connection. Its methods do nothing on a nil note (no
// journal).
type requestNote struct {
	mu      sync.Mutex
	org     string
	aborted bool
}

func noteFrom(ctx context.Context) *requestNote {
	n, _ := ctx.Value(noteKey).(*requestNote)
	return n
}

func (n *requestNote) setOrg(id string) {
	if n == nil {
		return
	}
	n.mu.Lock()
	n.org = id
	n.mu.Unlock()
}

func (n *requestNote) reset() {
	if n == nil {
		return
	}
	n.mu.Lock()
	n.aborted = true
	n.mu.Unlock()
}

// journal is a ring of the last size requests.
type journal struct {
	mu    sync.Mutex
	buf   []api.ControlRequest
	start int // index of the oldest entry once buf is full
	size  int
}

func newJournal(size int) *journal { return &journal{size: size} }

func (j *journal) add(e api.ControlRequest) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if len(j.buf) < j.size {
		j.buf = append(j.buf, e)
		return
	}
	j.buf[j.start] = e
	j.start = (j.start + 1) % j.size
}

// entries returns the journal oldest first, a copy.
func (j *journal) entries() []api.ControlRequest {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := make([]api.ControlRequest, 0, len(j.buf))
	out = append(out, j.buf[j.start:]...)
	return append(out, j.buf[:j.start]...)
}

// keep replaces the journal with the entries keep picks, in order.
func (j *journal) keep(pick func(api.ControlRequest) bool) {
	all := j.entries()
	j.mu.Lock()
	defer j.mu.Unlock()
	j.buf, j.start = deleteMatching(all, func(e api.ControlRequest) bool { return !pick(e) }), 0
}

func (j *journal) clear() { j.keep(func(api.ControlRequest) bool { return false }) }

func (j *journal) removeOrg(org string) {
	j.keep(func(e api.ControlRequest) bool { return e.Organization != org })
}

// bodyCapture keeps the first maxJournalBody bytes the server reads of a
// body and counts them all.
type bodyCapture struct {
	io.ReadCloser
	kept []byte
	n    int64
}

func (b *bodyCapture) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n += int64(n)
	if room := maxJournalBody - len(b.kept); room > 0 {
		b.kept = append(b.kept, p[:min(n, room)]...)
	}
	return n, err
}

// journalRequests records every request outside the control plane.
func (cp *controlPlane) journalRequests(next http.Handler) http.Handler {
	s := cp.srv
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, api.ControlPrefix) || r.URL.Path == PathMetrics {
			// The control plane and metrics scrapes are not the client's
			// requests to the API.
			next.ServeHTTP(w, r)
			return
		}
		note := &requestNote{}
		body := &bodyCapture{ReadCloser: r.Body}
		r.Body = body
		rec := &statusRecorder{ResponseWriter: w}
		at := s.clock.Now().UTC()
		// Deferred, so a connection closed by a fault (a panic that
		// net/http catches) is journaled too.
		defer func() {
			note.mu.Lock()
			e := api.ControlRequest{
				Time: at, Method: r.Method, Path: cp.redactPath(r.URL.Path), Query: cp.redactQuery(r.URL.RawQuery),
				Status: rec.status, Organization: note.org, Headers: cp.redactHeaders(r.Header), BodyBytes: body.n,
			}
			if note.aborted {
				e.Status = 0
			}
			note.mu.Unlock()
			if kept := body.kept; len(kept) > 0 {
				if len(kept) == maxJournalBody {
					// Cut: a secret may straddle the cut, too short
					// after it to be recognised. Every secret is
					// shorter than maxControlToken, so one that does
					// starts within that many bytes of the end.
					kept = kept[:len(kept)-maxControlToken]
				}
				e.Body = cp.redactText(string(kept))
			}
			cp.journal.add(e)
		}()
		next.ServeHTTP(rec, r.WithContext(context.WithValue(r.Context(), noteKey, note)))
	})
}

// secretHeaders carry credentials whole; authHeaders carry a scheme
// worth keeping before the credential.
var (
	secretHeaders = map[string]bool{"Cookie": true, "X-Api-Key": true, "X-Amz-Security-Token": true}
	authHeaders   = map[string]bool{"Authorization": true, "Proxy-Authorization": true}
	// secretParams are query parameters that make a link valid.
	secretParams = map[string]bool{"signature": true, "x-amz-signature": true, "x-amz-credential": true, "x-amz-security-token": true}
)

func (cp *controlPlane) redactHeaders(h http.Header) map[string]string {
	out := make(map[string]string, len(h))
	for name, vals := range h {
		v := strings.Join(vals, ", ")
		switch {
		case authHeaders[name]:
			if scheme, _, ok := strings.Cut(v, " "); ok {
				v = scheme + " " + redact.Marker
			} else {
				v = redact.Marker
			}
		case secretHeaders[name]:
			v = redact.Marker
		default:
			v = cp.redactText(v)
		}
		out[name] = v
	}
	return out
}

func (cp *controlPlane) redactQuery(raw string) string {
	if raw == "" {
		return ""
	}
	q, err := url.ParseQuery(raw)
	if err != nil {
		return redact.Marker
	}
	for k := range q {
		if secretParams[strings.ToLower(k)] {
			q[k] = []string{redact.Marker}
		}
	}
	return cp.redactText(q.Encode())
}

// keyShape finds admin keys of any prefix: "<prefix>_<16-128 letters or
// digits>".
var keyShape = regexp.MustCompile(`\b[a-z][a-z0-9]{1,15}_[A-Za-z0-9]{16,128}\b`)

// redactText masks URLs' secret parts, anything shaped like an admin key,
// and the control token.
func (cp *controlPlane) redactText(v string) string {
	v = redact.Text(v, cp.token)
	return keyShape.ReplaceAllStringFunc(v, func(k string) string {
		prefix, _, _ := strings.Cut(k, "_")
		return prefix + "_" + redact.Marker
	})
}

// redactPath masks a path segment that is an admin key of this server's
// shape (its keyPrefix: ids such as se_0123456789abcdef, which the key
// shape of redactText would take too, stay readable) and the control
// token.
func (cp *controlPlane) redactPath(p string) string {
	s := cp.srv
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		if wellFormedKey(s.cfg.KeyPrefix, seg) {
			segs[i] = s.cfg.KeyPrefix + "_" + redact.Marker
		}
	}
	return redact.Text(strings.Join(segs, "/"), cp.token)
}

// controlJournal answers GET /_control/v1/requests with the entries that
// match every filter given, the newest limit of them, oldest first.
func (cp *controlPlane) controlJournal(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	for k := range q {
		switch k {
		case "method", "path", "organization", "limit":
		default:
			return badRequest("unknown query parameter %q (want method, path, organization or limit)", k)
		}
	}
	method, path, org := q.Get("method"), q.Get("path"), q.Get("organization")
	limit := 0
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 {
			return badRequest("limit %q: want a positive integer", l)
		}
		limit = n
	}
	out := []api.ControlRequest{}
	for _, e := range cp.journal.entries() {
		if (method == "" || strings.EqualFold(method, e.Method)) && (path == "" || globMatch(path, e.Path)) &&
			(org == "" || org == e.Organization) {
			out = append(out, e)
		}
	}
	if limit > 0 && len(out) > limit {
		out = out[len(out)-limit:]
	}
	writeJSON(w, http.StatusOK, api.ControlJournal{Requests: out})
	return nil
}

func (cp *controlPlane) controlClearJournal(w http.ResponseWriter, _ *http.Request) error {
	cp.journal.clear()
	w.WriteHeader(http.StatusNoContent)
	return nil
}
