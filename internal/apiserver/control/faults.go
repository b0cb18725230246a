package control

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/httpapi"
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
	// rng draws whether a matching request is struck, when Probability
	// is below 1; seeded with Seed, so a suite can replay the draws.
	rng *rand.Rand
}

// Faults holds the active faults in creation order and answers the
// fault operations.
type Faults struct {
	orgs *Orgs
	host Host
	log  hclog.Logger
	// random seeds the faults created without a seed.
	random io.Reader

	mu   sync.Mutex
	list []*fault
}

// strike returns the first fault matching the request and counts it, or
// nil. A fault used up or past its ttl is dropped.
func (fs *Faults) strike(method, path, org string, now time.Time) *fault {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	kept := fs.list[:0]
	var hit *fault
	for _, f := range fs.list {
		if !f.expires.IsZero() && !now.Before(f.expires) {
			continue
		}
		if hit == nil && f.matches(method, path, org) && f.draw() {
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

// draw decides whether a matching request is struck: always, or with
// the fault's probability.
func (f *fault) draw() bool {
	return f.rng == nil || f.rng.Float64() < *f.Probability
}

func (f *fault) matches(method, path, org string) bool {
	return (f.Method == "" || strings.EqualFold(f.Method, method)) &&
		(f.Organization == "" || f.Organization == org) && globMatch(f.Path, path)
}

func (fs *Faults) add(f *fault) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.list = append(fs.list, f)
}

func (fs *Faults) remove(id string) bool {
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

func (fs *Faults) removeOrg(org string) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.list = deleteMatching(fs.list, func(f *fault) bool { return f.Organization == org })
}

func (fs *Faults) clear() {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.list = nil
}

func (fs *Faults) states(now time.Time) []api.ControlFaultState {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	out := []api.ControlFaultState{}
	for _, f := range fs.list {
		if !f.expires.IsZero() && !now.Before(f.expires) {
			continue
		}
		out = append(out, f.state())
	}
	return out
}

// state is f as the control plane shows it; the caller holds fs.mu or
// has not shared f yet.
func (f *fault) state() api.ControlFaultState {
	st := api.ControlFaultState{ID: f.id, ControlFault: f.ControlFault, Hits: f.hits}
	if f.Times > 0 {
		n := f.remaining
		st.Remaining = &n
	}
	if !f.expires.IsZero() {
		e := f.expires.UTC()
		st.ExpiresAt = &e
	}
	return st
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
func (fs *Faults) parseFault(req api.ControlFault) (*fault, error) {
	f := &fault{ControlFault: req}
	if !strings.HasPrefix(req.Path, "/") || strings.HasPrefix(req.Path, api.ControlPrefix) {
		return nil, httpapi.BadRequest("path %q: want a path of the admin API or of bundle downloads, starting with \"/\" (\"*\" matches anything)", req.Path)
	}
	if req.Method != "" && strings.IndexFunc(req.Method, func(r rune) bool { return r < 'A' || r > 'Z' }) >= 0 {
		return nil, httpapi.BadRequest("method %q: want an upper-case HTTP method such as \"POST\"", req.Method)
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
			return nil, httpapi.BadRequest("%s %q: want a Go duration such as \"2s\"", d.name, d.val)
		}
		if d.into != nil {
			*d.into = v
		} else {
			ttl = v
		}
	}
	shapes := req.Body != nil || req.Response != "" || req.BytesPerSecond != 0
	switch {
	case f.delay > maxFaultDelay:
		err = httpapi.BadRequest("delay %s exceeds %s", f.delay, maxFaultDelay)
	case req.Times < 0:
		err = httpapi.BadRequest("times must not be negative (0 or absent: every matching request)")
	case req.Reset && (req.Status != 0 || req.Error != "" || req.RetryAfter != "" || shapes):
		err = httpapi.BadRequest("reset closes the connection without an answer: status, error, retryAfter, body, response and bytesPerSecond cannot be given with it")
	case req.Status != 0 && (req.Body != nil || req.Response != "") && (req.Status < 200 || req.Status > 599):
		err = httpapi.BadRequest("status %d: want 200 to 599", req.Status)
	case req.Status != 0 && req.Body == nil && req.Response == "" && (req.Status < 400 || req.Status > 599):
		err = httpapi.BadRequest("status %d: want an error status, 400 to 599 (any from 200 with a body or a response)", req.Status)
	case req.Body != nil && req.Error != "":
		err = httpapi.BadRequest("body is the whole answer: error cannot be given with it")
	case req.Error != "" && req.Status != 0 && req.Status < 400:
		err = httpapi.BadRequest("error goes with an error status, 400 to 599")
	case req.Response != "" && req.Response != api.FaultMalformed && req.Response != api.FaultTruncated && req.Response != api.FaultEmpty:
		err = httpapi.BadRequest("response %q: want %q, %q or %q", req.Response, api.FaultMalformed, api.FaultTruncated, api.FaultEmpty)
	case req.BytesPerSecond < 0:
		err = httpapi.BadRequest("bytesPerSecond must be positive")
	case req.Probability != nil && (!(*req.Probability > 0) || *req.Probability > 1):
		err = httpapi.BadRequest("probability %v: want more than 0 and at most 1", *req.Probability)
	case req.Organization != "" && fs.orgs.Find(req.Organization) == nil:
		err = httpapi.NotFound("organization %q not found", req.Organization)
	}
	if err != nil {
		return nil, err
	}
	if req.Body != nil && req.Status == 0 {
		f.Status = http.StatusOK // a stub answers as a success unless told
	}
	if !req.Reset && f.Status == 0 && f.delay == 0 && !shapes {
		f.Status = http.StatusServiceUnavailable // a fault with nothing said is an outage
	}
	if req.Probability != nil && *req.Probability < 1 {
		if err := fs.seed(f); err != nil {
			return nil, err
		}
	}
	if f.Status >= 400 && f.Body == nil && f.Error == "" {
		f.Error = fmt.Sprintf("injected fault: %d %s", f.Status, http.StatusText(f.Status))
	}
	if ttl > 0 {
		f.expires = time.Now().Add(ttl)
	}
	f.remaining = req.Times
	return f, nil
}

// seed gives f its draws: from its Seed, or from a seed the server picks
// and shows in the fault's Seed, so a run can be replayed.
func (fs *Faults) seed(f *fault) error {
	if f.Seed == nil {
		var s int64
		if err := binary.Read(fs.random, binary.LittleEndian, &s); err != nil {
			return fmt.Errorf("seed a fault: %w", err)
		}
		s &= math.MaxInt64 // a non-negative seed reads better in a list
		f.Seed = &s
	}
	f.rng = rand.New(rand.NewPCG(uint64(*f.Seed), 0)) //nolint:gosec // G404: a test double's reproducible draws, no secret
	return nil
}

func (fs *Faults) controlAddFault(w http.ResponseWriter, r *http.Request) error {
	var req api.ControlFault
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		return err
	}
	f, err := fs.parseFault(req)
	if err != nil {
		return err
	}
	if f.id, err = fs.host.NewID("flt_"); err != nil {
		return err
	}
	created := f.state() // before add: from then on a request may strike it
	fs.add(f)
	fs.log.Info("control: fault added", "id", f.id, "method", f.Method, "path", f.Path, "status", f.Status, "reset", f.Reset,
		"response", f.Response, "stub", f.Body != nil, "bytesPerSecond", f.BytesPerSecond)
	httpapi.WriteJSON(w, http.StatusCreated, created)
	return nil
}

func (fs *Faults) controlListFaults(w http.ResponseWriter, _ *http.Request) error {
	httpapi.WriteJSON(w, http.StatusOK, api.ControlFaults{Faults: fs.states(time.Now())})
	return nil
}

func (fs *Faults) controlDeleteFault(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	if !fs.remove(id) {
		return httpapi.NotFound("fault %q not found", id)
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// InjectFaults stands in front of every admin API handler (after
// authentication, so a fault can be scoped to the caller's organization)
// and of bundle downloads (whose organization is the job's).
func (cp *Plane) InjectFaults(next http.Handler) http.Handler { return cp.faults.inject(next) }

func (fs *Faults) inject(next http.Handler) http.Handler {
	s := fs.host
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		org := s.RequestOrg(r)
		f := fs.strike(r.Method, r.URL.Path, org, time.Now())
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
			httpapi.NoteFrom(r.Context()).Abort()
			// net/http closes the connection without an answer.
			panic(http.ErrAbortHandler)
		}
		answer := next
		if f.Status != 0 {
			answer = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fs.answer(f, w, r) })
		}
		if f.Response == "" && f.BytesPerSecond == 0 {
			answer.ServeHTTP(w, r)
			return
		}
		reshape(f, w, r, answer)
	})
}

// answer is the fault's own answer: its stub body, or its error.
func (fs *Faults) answer(f *fault, w http.ResponseWriter, r *http.Request) {
	retryAfter := 0
	if f.retryAfter > 0 {
		retryAfter = max(1, int(math.Ceil(f.retryAfter.Seconds())))
	}
	if f.Body != nil || f.Status < 400 {
		// A stub, or a success status whose body response reshapes:
		// no error to tell.
		if retryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(retryAfter))
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(f.Body)))
		w.WriteHeader(f.Status)
		_, _ = w.Write(f.Body)
		return
	}
	fs.host.ServeError(w, r, &httpapi.Error{Status: f.Status, Msg: f.Error, Injected: true, RetryAfter: retryAfter})
}
