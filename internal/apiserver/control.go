package apiserver

import (
	"crypto/sha256"
	"crypto/subtle"
	_ "embed"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
)

// The control plane turns the reference server into a test double for
// other projects' suites: reset, a clock they drive, injected faults,
// forced job states, runtime organizations and a journal of what their
// client sent. It exists only when a control token is configured; without
// one every /_control/ path is the same 404 as any unknown path. The
// control token opens nothing but the control plane, and admin keys open
// nothing of it.

// EnvControlToken sets --control-token.
const EnvControlToken = "DOCSADMIN_CONTROL_TOKEN" //nolint:gosec // the name of a variable, not a credential

// ControlConfig is the `control:` section of the configuration.
type ControlConfig struct {
	// Token enables the control plane; requests to it must carry
	// "Authorization: Bearer <token>".
	Token string `yaml:"token"`
	// JournalSize is how many requests the journal keeps (default 1000).
	JournalSize int `yaml:"journalSize"`
}

const (
	defaultJournalSize = 1000
	maxJournalSize     = 100000
	minControlToken    = 16
	maxControlToken    = 256
)

// controlPlane is the state of the control plane; nil on a Server
// without a control token.
type controlPlane struct {
	// srv is the server the control plane drives: its store, clock,
	// organizations and workers.
	srv     *Server
	digest  [sha256.Size]byte
	token   string // only to redact it from the journal
	clock   *clock.Adjustable
	journal *journal
	faults  faultSet

	mu sync.Mutex
	// held organizations keep their new exports queued.
	held map[string]bool
	// revoked are jobs deleted by a reset, with its time: their links
	// answer 403. Holds and revocations are kept in the data dir
	// (control_state.go).
	revoked map[string]time.Time
}

// checkControlToken refuses a token that is too short to be a secret or
// that could be confused with an admin key of cfg.
func checkControlToken(cfg *Config, token string) error {
	if len(token) < minControlToken || len(token) > maxControlToken {
		return fmt.Errorf("control token: want %d to %d characters", minControlToken, maxControlToken)
	}
	for i := 0; i < len(token); i++ {
		if token[i] < 0x21 || token[i] > 0x7e {
			return errors.New("control token: want printable ASCII without spaces")
		}
	}
	d := sha256.Sum256([]byte(token))
	for _, o := range cfg.Organizations {
		for _, k := range o.keyDigests {
			if subtle.ConstantTimeCompare(d[:], k[:]) == 1 {
				return fmt.Errorf("control token: it is also an admin key of organization %q; the two must differ", o.ID)
			}
		}
	}
	return nil
}

// newControlPlane makes s's clock adjustable and sets up the control
// plane's state.
func (s *Server) newControlPlane(token string, journalSize int) error {
	if err := checkControlToken(s.cfg, token); err != nil {
		return err
	}
	if journalSize == 0 {
		journalSize = s.cfg.Control.JournalSize
	}
	if journalSize == 0 {
		journalSize = defaultJournalSize
	}
	if journalSize < 0 || journalSize > maxJournalSize {
		return fmt.Errorf("control journal size %d: want 1 to %d", journalSize, maxJournalSize)
	}
	adj := clock.NewAdjustable(s.clock)
	s.clock = adj
	s.control = &controlPlane{
		srv: s, digest: sha256.Sum256([]byte(token)), token: token, clock: adj, journal: newJournal(journalSize),
		held: map[string]bool{}, revoked: map[string]time.Time{},
	}
	return nil
}

// controlRouteTable is the control plane's list of operations, registered
// only when it is enabled; its OpenAPI document is checked against it.
var controlRouteTable = []struct {
	Route
	body    bool
	handler func(*controlPlane, http.ResponseWriter, *http.Request) error
}{
	{Route{http.MethodPost, api.PathControlReset}, true, (*controlPlane).controlReset},
	{Route{http.MethodGet, api.PathControlClock}, false, (*controlPlane).controlGetClock},
	{Route{http.MethodPost, api.PathControlClock}, true, (*controlPlane).controlSetClock},
	{Route{http.MethodPost, api.PathControlClockAdvance}, true, (*controlPlane).controlAdvance},
	{Route{http.MethodPost, api.PathControlOrganizations}, true, (*controlPlane).controlCreateOrganization},
	{Route{http.MethodDelete, api.PathControlOrganization}, false, (*controlPlane).controlDeleteOrganization},
	{Route{http.MethodPost, api.PathControlExportState}, true, (*controlPlane).controlExportState},
	{Route{http.MethodPost, api.PathControlExportHold}, true, (*controlPlane).controlHold},
	{Route{http.MethodPost, api.PathControlAgentState}, true, (*controlPlane).controlAgentState},
	{Route{http.MethodPost, api.PathControlFaults}, true, (*controlPlane).controlAddFault},
	{Route{http.MethodGet, api.PathControlFaults}, false, (*controlPlane).controlListFaults},
	{Route{http.MethodDelete, api.PathControlFault}, false, (*controlPlane).controlDeleteFault},
	{Route{http.MethodGet, api.PathControlRequests}, false, (*controlPlane).controlJournal},
	{Route{http.MethodDelete, api.PathControlRequests}, false, (*controlPlane).controlClearJournal},
	{Route{http.MethodGet, api.PathControlOpenAPI}, false, func(_ *controlPlane, w http.ResponseWriter, _ *http.Request) error {
		writeRaw(w, controlOpenAPIDoc)
		return nil
	}},
}

// ControlRoutes returns the control plane's operations, a copy.
func ControlRoutes() []Route {
	out := make([]Route, len(controlRouteTable))
	for i, rt := range controlRouteTable {
		out[i] = rt.Route
	}
	return out
}

// controlOpenAPIDoc describes controlRouteTable; a test keeps them in step.
//
//go:embed control_openapi.json
var controlOpenAPIDoc []byte

// writeRaw sends a JSON document held as bytes.
func writeRaw(w http.ResponseWriter, doc []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(doc)))
	_, _ = w.Write(doc)
}

// registerControl adds the control plane's routes to mux, each behind the
// control token.
func (cp *controlPlane) registerControl(mux *http.ServeMux, patterns map[string]bool) {
	s := cp.srv
	for _, rt := range controlRouteTable {
		h := s.apiHandler(func(w http.ResponseWriter, r *http.Request) error { return rt.handler(cp, w, r) })
		if rt.body {
			h = s.limitBody(h)
		}
		pattern := rt.Method + " " + rt.Pattern
		mux.Handle(pattern, cp.requireControl(h))
		patterns[pattern] = true
	}
}

// requireControl admits requests carrying the control token. The digests
// are compared in constant time; an admin key is just another wrong token.
func (cp *controlPlane) requireControl(next http.Handler) http.Handler {
	s := cp.srv
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := r.Header.Get("Authorization")
		scheme, token, ok := strings.Cut(h, " ")
		msg := ""
		switch {
		case h == "":
			msg = "missing Authorization header: send \"Authorization: Bearer <control token>\""
		case !ok || !strings.EqualFold(scheme, "Bearer"):
			msg = "malformed Authorization header: want \"Bearer <control token>\""
		default:
			d := sha256.Sum256([]byte(strings.TrimSpace(token)))
			if subtle.ConstantTimeCompare(d[:], cp.digest[:]) != 1 {
				msg = "invalid control token (admin API keys are not accepted here)"
			}
		}
		if msg != "" {
			s.serveError(w, r, &httpError{status: http.StatusUnauthorized, authFailed: true, msg: msg})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// decodeOptional decodes a body that may be left out entirely.
func decodeOptional(r *http.Request, v any) error {
	if r.ContentLength == 0 {
		return nil
	}
	return decodeJSON(r, v)
}

// farFuture is the lease of a job the control plane pins (held, or forced
// running): no worker claims it before the control plane lets it go, and
// a restart keeps it pinned.
var farFuture = jobstore.Pinned

// Owners of pinned jobs, in place of a worker's name.
const (
	holdOwner = "control:hold"
	pinOwner  = "control:state"
)

// controlReset puts the server, or one organization, back as it started.
func (cp *controlPlane) controlReset(w http.ResponseWriter, r *http.Request) error {
	s := cp.srv
	var req api.ControlReset
	if err := decodeOptional(r, &req); err != nil {
		return err
	}
	if req.Organization != "" {
		if s.organization(req.Organization) == nil {
			return notFound("organization %q not found", req.Organization)
		}
		if err := cp.resetOrganization(req.Organization); err != nil {
			return err
		}
		s.log.Info("control: organization reset", "organization", req.Organization)
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
	if err := cp.resetAll(); err != nil {
		return err
	}
	s.log.Info("control: server reset")
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// resetOrganization deletes one organization's jobs (their links answer
// 403 from now on), its faults, hold and journal entries; a runtime
// organization itself stays.
func (cp *controlPlane) resetOrganization(orgID string) error {
	s := cp.srv
	if err := cp.deleteExports(func(rec *jobstore.ExportJob) bool { return rec.OrgID == orgID }); err != nil {
		return err
	}
	if _, err := s.store.DeleteOrgAgentJobs(orgID); err != nil {
		return storeError("delete agent jobs", err)
	}
	if _, err := s.store.DeleteOrgUpdates(orgID); err != nil {
		return storeError("delete documentation updates", err)
	}
	c := cp
	c.faults.removeOrg(orgID)
	c.journal.removeOrg(orgID)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held[orgID] {
		delete(c.held, orgID)
		if err := cp.saveControlStateLocked(); err != nil {
			return storeError("release the hold", err)
		}
	}
	return nil
}

// resetAll deletes every job, idempotency key, fault, hold, forced state,
// journal entry and runtime organization, and gives the clock back to the
// wall.
func (cp *controlPlane) resetAll() error {
	s := cp.srv
	if err := cp.deleteExports(func(*jobstore.ExportJob) bool { return true }); err != nil {
		return err
	}
	if _, err := s.store.DeleteAgentJobsBefore(farFuture); err != nil {
		return storeError("delete agent jobs", err)
	}
	if _, err := s.store.DeleteUpdatesBefore(farFuture); err != nil {
		return storeError("delete documentation updates", err)
	}
	if err := s.store.PruneIdempotency(farFuture); err != nil {
		return storeError("delete idempotency keys", err)
	}
	if err := cp.removeRuntimeOrganizations(); err != nil {
		return err
	}
	c := cp
	c.faults.clear()
	c.journal.clear()
	c.mu.Lock()
	c.held = map[string]bool{}
	err := cp.saveControlStateLocked()
	c.mu.Unlock()
	if err != nil {
		return storeError("release the holds", err)
	}
	c.clock.Reset()
	return nil
}

// deleteExports deletes the export jobs doomed picks, records and files,
// and revokes their links.
func (cp *controlPlane) deleteExports(doomed func(*jobstore.ExportJob) bool) error {
	s := cp.srv
	jobs, err := s.store.ExportJobs()
	if err != nil {
		return fmt.Errorf("list export jobs: %w", err)
	}
	var ids []string
	for _, rec := range jobs {
		if doomed(rec) {
			ids = append(ids, rec.JobID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	// The revocations are on disk before the jobs go, so no restart can
	// find a job neither stored nor revoked.
	c := cp
	now := s.clock.Now().UTC()
	c.mu.Lock()
	for _, id := range ids {
		c.revoked[id] = now
	}
	err = cp.saveControlStateLocked()
	c.mu.Unlock()
	if err != nil {
		return storeError("revoke the links of deleted jobs", err)
	}
	for _, id := range ids {
		if err := s.runner.removeExport(id); err != nil {
			return storeError("delete export job "+id, err)
		}
	}
	return nil
}

// linkRevoked reports whether a reset deleted the job a link points to;
// never on a server without a control plane (a nil cp).
func (cp *controlPlane) linkRevoked(jobID string) bool {
	if cp == nil {
		return false
	}
	cp.mu.Lock()
	defer cp.mu.Unlock()
	_, revoked := cp.revoked[jobID]
	return revoked
}

func (cp *controlPlane) controlGetClock(w http.ResponseWriter, _ *http.Request) error {
	s := cp.srv
	writeJSON(w, http.StatusOK, api.ControlClock{Now: s.clock.Now().UTC(), Frozen: cp.clock.Frozen()})
	return nil
}

func (cp *controlPlane) controlSetClock(w http.ResponseWriter, r *http.Request) error {
	s := cp.srv
	var req api.ControlSetClock
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	c := cp.clock
	if req.Frozen != nil && *req.Frozen {
		c.Freeze(true)
	}
	if req.Now != nil {
		c.Set(*req.Now)
	}
	if req.Frozen != nil && !*req.Frozen {
		c.Freeze(false)
	}
	s.log.Info("control: clock set", "now", c.Now().UTC(), "frozen", c.Frozen())
	s.runner.wakeWorkers()
	writeJSON(w, http.StatusOK, api.ControlClock{Now: c.Now().UTC(), Frozen: c.Frozen()})
	return nil
}

// maxAdvance keeps an advance within what time.Time can add.
const maxAdvance = 100 * 365 * 24 * time.Hour

func (cp *controlPlane) controlAdvance(w http.ResponseWriter, r *http.Request) error {
	s := cp.srv
	var req api.ControlAdvance
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	d, err := time.ParseDuration(req.By)
	if err != nil || d <= 0 || d > maxAdvance {
		return badRequest("by %q: want a positive Go duration such as \"90m\" (at most 100 years); to go back, POST %s with \"now\"",
			req.By, api.PathControlClock)
	}
	now := cp.clock.Advance(d)
	s.log.Info("control: clock advanced", "by", d, "now", now.UTC())
	s.runner.wakeWorkers()
	writeJSON(w, http.StatusOK, api.ControlNow{Now: now.UTC()})
	return nil
}
