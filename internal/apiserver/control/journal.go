package control

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/httpapi"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
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

// Journal is a ring of the last size requests, and answers the journal
// operations.
type Journal struct {
	clock clock.Clock
	host  Host
	// token and keyPrefix are redacted from what is kept.
	token     string
	keyPrefix string

	mu    sync.Mutex
	buf   []api.ControlRequest
	start int // index of the oldest entry once buf is full
	size  int
	// dropped counts the entries let go to make room since the journal
	// was last emptied; droppedUpTo is the time of the newest of them.
	dropped     int64
	droppedUpTo time.Time
}

func newJournal(size int, c clock.Clock, host Host, token, keyPrefix string) *Journal {
	return &Journal{size: size, clock: c, host: host, token: token, keyPrefix: keyPrefix}
}

func (j *Journal) add(e api.ControlRequest) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if len(j.buf) < j.size {
		j.buf = append(j.buf, e)
		return
	}
	j.dropped++
	j.droppedUpTo = j.buf[j.start].Time
	j.buf[j.start] = e
	j.start = (j.start + 1) % j.size
}

// droppedSince returns how many entries the journal let go and the time
// of the newest of them.
func (j *Journal) droppedSince() (int64, time.Time) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.dropped, j.droppedUpTo
}

// entries returns the journal oldest first, a copy.
func (j *Journal) entries() []api.ControlRequest {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := make([]api.ControlRequest, 0, len(j.buf))
	out = append(out, j.buf[j.start:]...)
	return append(out, j.buf[:j.start]...)
}

// keep replaces the journal with the entries keep picks, in order.
func (j *Journal) keep(pick func(api.ControlRequest) bool) {
	all := j.entries()
	j.mu.Lock()
	defer j.mu.Unlock()
	j.buf, j.start = deleteMatching(all, func(e api.ControlRequest) bool { return !pick(e) }), 0
}

func (j *Journal) clear() {
	j.keep(func(api.ControlRequest) bool { return false })
	j.mu.Lock()
	j.dropped, j.droppedUpTo = 0, time.Time{}
	j.mu.Unlock()
}

func (j *Journal) removeOrg(org string) {
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

// maxDrain bounds how much of a body the handler left unread the journal
// reads before the answer: as much as any operation takes.
const maxDrain = api.MaxRequestBodyBytes

// answerRecorder sees the answer for the journal: its status (through
// StatusRecorder), the body bytes sent, and whether the client was gone
// when the server wrote. Before the first byte of the answer it reads
// what the handler left of the request body, so a request answered
// without reading it (a fault, a 401, an unknown path) is journaled with
// its body.
type answerRecorder struct {
	httpapi.StatusRecorder
	drain    func()
	bytes    int64
	writeErr bool
}

func (w *answerRecorder) WriteHeader(code int) {
	w.drain()
	w.StatusRecorder.WriteHeader(code)
}

func (w *answerRecorder) Write(b []byte) (int, error) {
	w.drain()
	n, err := w.StatusRecorder.Write(b)
	w.bytes += int64(n)
	if err != nil {
		w.writeErr = true
	}
	return n, err
}

// whole reports whether the answer sent all the body its Content-Length
// announced: a client that closes the connection after that did not give
// up on it.
func (w *answerRecorder) whole() bool {
	n, err := strconv.ParseInt(w.Header().Get("Content-Length"), 10, 64)
	return w.Status != 0 && err == nil && n == w.bytes
}

// JournalRequests records every request outside the control plane and
// metrics scrapes (at metricsPath).
func (cp *Plane) JournalRequests(next http.Handler, metricsPath string) http.Handler {
	return cp.journal.record(next, metricsPath)
}

func (j *Journal) record(next http.Handler, metricsPath string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, api.ControlPrefix) || r.URL.Path == metricsPath {
			// The control plane and metrics scrapes are not the client's
			// requests to the API.
			next.ServeHTTP(w, r)
			return
		}
		began := time.Now()
		note := &httpapi.Note{}
		body := &bodyCapture{ReadCloser: r.Body}
		r.Body = body
		drained := false
		rec := &answerRecorder{StatusRecorder: httpapi.StatusRecorder{ResponseWriter: w}, drain: func() {
			// A client that asked to be told to go on (Expect:
			// 100-continue) has not sent a body nobody read.
			if !drained && (body.n > 0 || r.Header.Get("Expect") == "") {
				_, _ = io.Copy(io.Discard, io.LimitReader(body, maxDrain))
			}
			drained = true
		}}
		at := j.clock.Now().UTC()
		// Deferred, so a connection closed by a fault (a panic that
		// net/http catches) is journaled too.
		defer func() {
			rec.drain()
			org, aborted := note.Read()
			e := api.ControlRequest{
				Time: at, Method: r.Method, Path: j.redactPath(r.URL.Path), Query: j.redactQuery(r.URL.RawQuery),
				Status: rec.Status, Organization: org, Headers: j.redactHeaders(r.Header), BodyBytes: body.n,
				Route: note.Route(), ResponseBytes: rec.bytes,
				DurationMs: float64(time.Since(began).Microseconds()) / 1000,
			}
			if e.Route == "" && e.Organization == "" {
				// No route, so no authentication: the key still says whose
				// client sent it.
				e.Organization = j.host.KeyOrg(r)
			}
			switch {
			case aborted:
				e.Aborted = api.AbortedByServer
			case rec.writeErr || (r.Context().Err() != nil && !rec.whole()):
				// The connection closed under the answer: the client
				// gave up waiting or reading.
				e.Aborted = api.AbortedByClient
			case e.Status == 0:
				e.Status = http.StatusOK // net/http sends it for a handler that wrote nothing
			}
			if kept := body.kept; len(kept) > 0 {
				if len(kept) == maxJournalBody {
					// Cut: a secret may straddle the cut, too short
					// after it to be recognised. Every secret is
					// shorter than maxControlToken, so one that does
					// starts within that many bytes of the end.
					kept = kept[:len(kept)-maxControlToken]
				}
				e.Body = j.redactText(string(kept))
			}
			j.add(e)
		}()
		next.ServeHTTP(rec, r.WithContext(httpapi.WithNote(r.Context(), note)))
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

func (j *Journal) redactHeaders(h http.Header) map[string]string {
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
			v = j.redactText(v)
		}
		out[name] = v
	}
	return out
}

func (j *Journal) redactQuery(raw string) string {
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
	return j.redactText(q.Encode())
}

// keyShape finds admin keys of any prefix: "<prefix>_<16-128 letters or
// digits>".
var keyShape = regexp.MustCompile(`\b[a-z][a-z0-9]{1,15}_[A-Za-z0-9]{16,128}\b`)

// redactText masks URLs' secret parts, anything shaped like an admin key,
// and the control token.
func (j *Journal) redactText(v string) string {
	v = redact.Text(v, j.token)
	return keyShape.ReplaceAllStringFunc(v, func(k string) string {
		prefix, _, _ := strings.Cut(k, "_")
		return prefix + "_" + redact.Marker
	})
}

// redactPath masks a path segment that is an admin key of this server's
// shape (its keyPrefix: ids such as se_0123456789abcdef, which the key
// shape of redactText would take too, stay readable) and the control
// token.
func (j *Journal) redactPath(p string) string {
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		if apiconfig.WellFormedKey(j.keyPrefix, seg) {
			segs[i] = j.keyPrefix + "_" + redact.Marker
		}
	}
	return redact.Text(strings.Join(segs, "/"), j.token)
}

// controlJournal answers GET /_control/v1/requests with the entries that
// match every filter given, the newest limit of them, oldest first.
func (j *Journal) controlJournal(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	for k := range q {
		switch k {
		case "method", "path", "organization", "limit", "unmatched":
		default:
			return httpapi.BadRequest("unknown query parameter %q (want method, path, organization, unmatched or limit)", k)
		}
	}
	m := &matcher{ControlMatch: api.ControlMatch{Method: q.Get("method"), Path: q.Get("path"), Organization: q.Get("organization")}}
	if u := q.Get("unmatched"); u != "" {
		b, err := strconv.ParseBool(u)
		if err != nil {
			return httpapi.BadRequest("unmatched %q: want true or false", u)
		}
		m.Unmatched = b
	}
	limit := 0
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 {
			return httpapi.BadRequest("limit %q: want a positive integer", l)
		}
		limit = n
	}
	out := []api.ControlRequest{}
	for _, e := range j.entries() {
		if m.matches(&e) {
			out = append(out, e)
		}
	}
	if limit > 0 && len(out) > limit {
		out = out[len(out)-limit:]
	}
	dropped, _ := j.droppedSince()
	httpapi.WriteJSON(w, http.StatusOK, api.ControlJournal{Requests: out, Size: j.size, Dropped: dropped})
	return nil
}

func (j *Journal) controlClearJournal(w http.ResponseWriter, _ *http.Request) error {
	j.clear()
	w.WriteHeader(http.StatusNoContent)
	return nil
}
