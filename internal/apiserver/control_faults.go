package apiserver

import (
	"fmt"
	"math"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
)

// Faults make the admin API and bundle downloads misbehave on purpose, so
// a suite can test its client's retries, timeouts and error handling
// against a server that is otherwise real. A fault matches by method, path
// glob ("*" matches any run of characters, "/" included) and organization,
// and answers with a status, closes the connection, or only delays.

// maxFaultDelay bounds a delay, so a typo cannot hang a suite for hours.
const maxFaultDelay = 5 * time.Minute

// fault is one active fault. ttl and expiry are wall time: they bound how
// long a suite's fault lives, whatever the server clock says.
type fault struct {
	api.ControlFault
	id         string
	retryAfter time.Duration
	delay      time.Duration
	expires    time.Time // zero: no ttl
	hits       int
	remaining  int // with Times: strikes left
}

// faultSet holds the active faults in creation order.
type faultSet struct {
	mu   sync.Mutex
	list []*fault
}

// strike returns the first fault matching the request and counts it, or
// nil. A fault used up or past its ttl is dropped.
func (fs *faultSet) strike(method, path, org string, now time.Time) *fault {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	kept := fs.list[:0]
	var hit *fault
	for _, f := range fs.list {
		if !f.expires.IsZero() && !now.Before(f.expires) {
			continue
		}
		if hit == nil && f.matches(method, path, org) {
			hit = f
			f.hits++
			if f.Times > 0 {
				f.remaining--
				if f.remaining == 0 {
					continue
				}
			}
		}
		kept = append(kept, f)
	}
	clear(fs.list[len(kept):])
	fs.list = kept
	if hit == nil {
		return nil
	}
	c := *hit
	return &c
}

func (f *fault) matches(method, path, org string) bool {
	return (f.Method == "" || strings.EqualFold(f.Method, method)) &&
		(f.Organization == "" || f.Organization == org) && globMatch(f.Path, path)
}

func (fs *faultSet) add(f *fault) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.list = append(fs.list, f)
}

func (fs *faultSet) remove(id string) bool {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for i, f := range fs.list {
		if f.id == id {
			fs.list = append(fs.list[:i], fs.list[i+1:]...)
			return true
		}
	}
	return false
}

func (fs *faultSet) removeOrg(org string) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.list = deleteMatching(fs.list, func(f *fault) bool { return f.Organization == org })
}

func (fs *faultSet) clear() {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.list = nil
}

func (fs *faultSet) states(now time.Time) []api.ControlFaultState {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	out := []api.ControlFaultState{}
	for _, f := range fs.list {
		if !f.expires.IsZero() && !now.Before(f.expires) {
			continue
		}
		st := api.ControlFaultState{ID: f.id, ControlFault: f.ControlFault, Hits: f.hits}
		if f.Times > 0 {
			n := f.remaining
			st.Remaining = &n
		}
		if !f.expires.IsZero() {
			e := f.expires.UTC()
			st.ExpiresAt = &e
		}
		out = append(out, st)
	}
	return out
}

// deleteMatching drops the elements doomed picks, keeping the order.
func deleteMatching[T any](list []T, doomed func(T) bool) []T {
	kept := list[:0]
	for _, v := range list {
		if !doomed(v) {
			kept = append(kept, v)
		}
	}
	clear(list[len(kept):])
	return kept
}

// globMatch matches path against a pattern in which "*" stands for any
// run of characters, slashes included.
func globMatch(pattern, path string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == path
	}
	if !strings.HasPrefix(path, parts[0]) {
		return false
	}
	path = path[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(path, p)
		if i < 0 {
			return false
		}
		path = path[i+len(p):]
	}
	return strings.HasSuffix(path, last)
}

// parseFault checks a fault as a suite sent it.
func (cp *controlPlane) parseFault(req api.ControlFault) (*fault, error) {
	s := cp.srv
	f := &fault{ControlFault: req}
	if !strings.HasPrefix(req.Path, "/") || strings.HasPrefix(req.Path, api.ControlPrefix) {
		return nil, badRequest("path %q: want a path of the admin API or of bundle downloads, starting with \"/\" (\"*\" matches anything)", req.Path)
	}
	if req.Method != "" && strings.IndexFunc(req.Method, func(r rune) bool { return r < 'A' || r > 'Z' }) >= 0 {
		return nil, badRequest("method %q: want an upper-case HTTP method such as \"POST\"", req.Method)
	}
	var err error
	durations := []struct {
		name, val string
		into      *time.Duration
	}{{"retryAfter", req.RetryAfter, &f.retryAfter}, {"delay", req.Delay, &f.delay}, {"ttl", req.TTL, nil}}
	var ttl time.Duration
	for _, d := range durations {
		if d.val == "" {
			continue
		}
		v, perr := time.ParseDuration(d.val)
		if perr != nil || v < 0 {
			return nil, badRequest("%s %q: want a Go duration such as \"2s\"", d.name, d.val)
		}
		if d.into != nil {
			*d.into = v
		} else {
			ttl = v
		}
	}
	switch {
	case f.delay > maxFaultDelay:
		err = badRequest("delay %s exceeds %s", f.delay, maxFaultDelay)
	case req.Times < 0:
		err = badRequest("times must not be negative (0 or absent: every matching request)")
	case req.Reset && (req.Status != 0 || req.Error != "" || req.RetryAfter != ""):
		err = badRequest("reset closes the connection without an answer: status, error and retryAfter cannot be given with it")
	case req.Status != 0 && (req.Status < 400 || req.Status > 599):
		err = badRequest("status %d: want an error status, 400 to 599", req.Status)
	case req.Organization != "" && s.organization(req.Organization) == nil:
		err = notFound("organization %q not found", req.Organization)
	}
	if err != nil {
		return nil, err
	}
	if !req.Reset && req.Status == 0 && f.delay == 0 {
		f.Status = http.StatusServiceUnavailable // a fault with nothing said is an outage
	}
	if f.Status != 0 && f.Error == "" {
		f.Error = fmt.Sprintf("injected fault: %d %s", f.Status, http.StatusText(f.Status))
	}
	if ttl > 0 {
		f.expires = time.Now().Add(ttl)
	}
	f.remaining = req.Times
	return f, nil
}

func (cp *controlPlane) controlAddFault(w http.ResponseWriter, r *http.Request) error {
	s := cp.srv
	var req api.ControlFault
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	f, err := cp.parseFault(req)
	if err != nil {
		return err
	}
	if f.id, err = s.newID("flt_"); err != nil {
		return err
	}
	cp.faults.add(f)
	s.log.Info("control: fault added", "id", f.id, "method", f.Method, "path", f.Path, "status", f.Status, "reset", f.Reset)
	writeJSON(w, http.StatusCreated, api.ControlFaultID{ID: f.id})
	return nil
}

func (cp *controlPlane) controlListFaults(w http.ResponseWriter, _ *http.Request) error {
	writeJSON(w, http.StatusOK, api.ControlFaults{Faults: cp.faults.states(time.Now())})
	return nil
}

func (cp *controlPlane) controlDeleteFault(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	if !cp.faults.remove(id) {
		return notFound("fault %q not found", id)
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// injectFaults stands in front of every admin API handler (after
// authentication, so a fault can be scoped to the caller's organization)
// and of bundle downloads (whose organization is the job's).
func (cp *controlPlane) injectFaults(next http.Handler) http.Handler {
	s := cp.srv
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		org := cp.requestOrg(r)
		f := cp.faults.strike(r.Method, r.URL.Path, org, time.Now())
		if f == nil {
			next.ServeHTTP(w, r)
			return
		}
		if f.delay > 0 {
			if err := clock.Sleep(r.Context(), f.delay); err != nil {
				return // the client gave up; nobody reads an answer
			}
		}
		if f.Reset {
			noteFrom(r.Context()).reset()
			// net/http closes the connection without an answer.
			panic(http.ErrAbortHandler)
		}
		if f.Status == 0 {
			next.ServeHTTP(w, r)
			return
		}
		he := &httpError{status: f.Status, msg: f.Error, injected: true}
		if f.retryAfter > 0 {
			he.retryAfter = max(1, int(math.Ceil(f.retryAfter.Seconds())))
		}
		s.serveError(w, r, he)
	})
}

// requestOrg is the organization a request acts for: the caller's, or
// for a bundle download the job's; "" for the public probes.
func (cp *controlPlane) requestOrg(r *http.Request) string {
	s := cp.srv
	if o := orgFrom(r.Context()); o != nil {
		return o.ID
	}
	id := r.PathValue("jobId")
	if !exportIDPattern.MatchString(id) {
		return ""
	}
	if rec, err := s.store.ExportJob(id); err == nil {
		noteFrom(r.Context()).setOrg(rec.OrgID)
		return rec.OrgID
	}
	return ""
}
