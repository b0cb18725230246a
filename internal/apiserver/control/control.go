package control

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/httpapi"
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

const (
	defaultJournalSize = 1000
	maxJournalSize     = 100000
	minControlToken    = 16
	maxControlToken    = 256
)

// Plane is the state of the control plane; nil on a server without a
// control token.
type Plane struct {
	host    Host
	cfg     *apiconfig.Config
	dataDir string
	linkTTL time.Duration
	random  io.Reader
	log     hclog.Logger
	orgs    *Orgs
	digest  [sha256.Size]byte
	clock   clockControl
	journal *Journal
	faults  *Faults

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
func checkControlToken(cfg *apiconfig.Config, token string) error {
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
		for _, k := range o.KeyDigests {
			if subtle.ConstantTimeCompare(d[:], k[:]) == 1 {
				return fmt.Errorf("control token: it is also an admin key of organization %q; the two must differ", o.ID)
			}
		}
	}
	return nil
}

// New checks the token and the journal size, makes the clock adjustable
// and sets up the control plane's state. Call LoadState once the job store
// and the runtime organizations are loaded.
func New(o Options) (*Plane, error) {
	token, journalSize := o.Token, o.JournalSize
	if err := checkControlToken(o.Config, token); err != nil {
		return nil, err
	}
	if journalSize == 0 {
		journalSize = o.Config.Control.JournalSize
	}
	if journalSize == 0 {
		journalSize = defaultJournalSize
	}
	if journalSize < 0 || journalSize > maxJournalSize {
		return nil, fmt.Errorf("control journal size %d: want 1 to %d", journalSize, maxJournalSize)
	}
	adj := clock.NewAdjustable(o.Clock)
	return &Plane{
		host: o.Host, cfg: o.Config, dataDir: o.DataDir, linkTTL: o.LinkTTL, random: o.Random, log: o.Log, orgs: o.Orgs,
		digest: sha256.Sum256([]byte(token)), clock: clockControl{clock: adj, log: o.Log, host: o.Host},
		journal: newJournal(journalSize, adj, o.Host, token, o.Config.KeyPrefix),
		faults:  &Faults{orgs: o.Orgs, host: o.Host, log: o.Log, random: o.Random},
		held:    map[string]bool{}, revoked: map[string]time.Time{},
	}, nil
}

// Clock is the clock the control plane drives; the server reads the time
// from it.
func (cp *Plane) Clock() clock.Clock { return cp.clock.clock }

// controlRouteTable is the control plane's list of operations, registered
// only when it is enabled; its OpenAPI document is checked against it.
var controlRouteTable = []struct {
	Route
	body    bool
	handler func(*Plane, http.ResponseWriter, *http.Request) error
}{
	{Route{http.MethodPost, api.PathControlReset}, true, (*Plane).controlReset},
	{Route{http.MethodGet, api.PathControlClock}, false, clockOp((*clockControl).controlGetClock)},
	{Route{http.MethodPost, api.PathControlClock}, true, clockOp((*clockControl).controlSetClock)},
	{Route{http.MethodPost, api.PathControlClockAdvance}, true, clockOp((*clockControl).controlAdvance)},
	{Route{http.MethodPost, api.PathControlOrganizations}, true, (*Plane).controlCreateOrganization},
	{Route{http.MethodDelete, api.PathControlOrganization}, false, (*Plane).controlDeleteOrganization},
	{Route{http.MethodPost, api.PathControlExportState}, true, (*Plane).controlExportState},
	{Route{http.MethodPost, api.PathControlExportHold}, true, (*Plane).controlHold},
	{Route{http.MethodPost, api.PathControlAgentState}, true, (*Plane).controlAgentState},
	{Route{http.MethodPost, api.PathControlFaults}, true, faultOp((*Faults).controlAddFault)},
	{Route{http.MethodGet, api.PathControlFaults}, false, faultOp((*Faults).controlListFaults)},
	{Route{http.MethodDelete, api.PathControlFault}, false, faultOp((*Faults).controlDeleteFault)},
	{Route{http.MethodGet, api.PathControlRequests}, false, journalOp((*Journal).controlJournal)},
	{Route{http.MethodDelete, api.PathControlRequests}, false, journalOp((*Journal).controlClearJournal)},
	{Route{http.MethodPost, api.PathControlVerify}, true, journalOp((*Journal).controlVerify)},
	{Route{http.MethodGet, api.PathControlOpenAPI}, false, func(_ *Plane, w http.ResponseWriter, _ *http.Request) error {
		httpapi.WriteRaw(w, controlOpenAPIDoc)
		return nil
	}},
}

// Routes returns the control plane's operations, a copy.
func Routes() []Route {
	out := make([]Route, len(controlRouteTable))
	for i, rt := range controlRouteTable {
		out[i] = rt.Route
	}
	return out
}

// controlOpenAPIDoc describes controlRouteTable; a test keeps them in step.
//
//go:embed openapi.json
var controlOpenAPIDoc []byte

// Register adds the control plane's routes to mux, each behind the
// control token, and notes their patterns.
func (cp *Plane) Register(mux *http.ServeMux, patterns map[string]bool) {
	s := cp.host
	for _, rt := range controlRouteTable {
		h := s.Handle(func(w http.ResponseWriter, r *http.Request) error { return rt.handler(cp, w, r) })
		if rt.body {
			h = s.LimitBody(h)
		}
		pattern := rt.Method + " " + rt.Pattern
		mux.Handle(pattern, cp.requireControl(h))
		patterns[pattern] = true
	}
}

// requireControl admits requests carrying the control token. The digests
// are compared in constant time; an admin key is just another wrong token.
func (cp *Plane) requireControl(next http.Handler) http.Handler {
	s := cp.host
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
			s.ServeError(w, r, &httpapi.Error{Status: http.StatusUnauthorized, AuthFailed: true, Msg: msg})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// farFuture is the lease of a job the control plane pins (held, or forced
// running): no worker claims it before the control plane lets it go, and
// a restart keeps it pinned.
var farFuture = jobstore.Pinned

// Owners of pinned jobs, in place of a worker's name. The admin API shows
// a job of HoldOwner as queued: it has not started.
const (
	HoldOwner = "control:hold"
	pinOwner  = "control:state"
)

// controlReset puts the server, or one organization, back as it started.
func (cp *Plane) controlReset(w http.ResponseWriter, r *http.Request) error {
	var req api.ControlReset
	if err := httpapi.DecodeOptional(r, &req); err != nil {
		return err
	}
	if req.Organization != "" {
		if cp.orgs.Find(req.Organization) == nil {
			return httpapi.NotFound("organization %q not found", req.Organization)
		}
		if err := cp.resetOrganization(r.Context(), req.Organization); err != nil {
			return err
		}
		cp.log.Info("control: organization reset", "organization", req.Organization)
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
	if err := cp.resetAll(r.Context()); err != nil {
		return err
	}
	cp.log.Info("control: server reset")
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// resetOrganization deletes one organization's jobs (their links answer
// 403 from now on), its faults, hold and journal entries; a runtime
// organization itself stays.
func (cp *Plane) resetOrganization(ctx context.Context, orgID string) error {
	s := cp.host.Store()
	if err := cp.deleteExports(ctx, func(rec *jobstore.ExportJob) bool { return rec.OrgID == orgID }); err != nil {
		return err
	}
	if _, err := s.DeleteOrgAgentJobs(ctx, orgID); err != nil {
		return httpapi.StoreError("delete agent jobs", err)
	}
	if _, err := s.DeleteOrgUpdates(ctx, orgID); err != nil {
		return httpapi.StoreError("delete documentation updates", err)
	}
	c := cp
	c.faults.removeOrg(orgID)
	c.journal.removeOrg(orgID)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held[orgID] {
		delete(c.held, orgID)
		if err := cp.saveControlStateLocked(); err != nil {
			return httpapi.StoreError("release the hold", err)
		}
	}
	return nil
}

// resetAll deletes every job, idempotency key, fault, hold, forced state,
// journal entry and runtime organization, and gives the clock back to the
// wall.
func (cp *Plane) resetAll(ctx context.Context) error {
	s := cp.host.Store()
	if err := cp.deleteExports(ctx, func(*jobstore.ExportJob) bool { return true }); err != nil {
		return err
	}
	if _, err := s.DeleteAgentJobsBefore(ctx, farFuture); err != nil {
		return httpapi.StoreError("delete agent jobs", err)
	}
	if _, err := s.DeleteUpdatesBefore(ctx, farFuture); err != nil {
		return httpapi.StoreError("delete documentation updates", err)
	}
	if err := s.PruneIdempotency(ctx, farFuture); err != nil {
		return httpapi.StoreError("delete idempotency keys", err)
	}
	if err := cp.removeRuntimeOrganizations(ctx); err != nil {
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
		return httpapi.StoreError("release the holds", err)
	}
	c.clock.clock.Reset()
	return nil
}

// deleteExports deletes the export jobs doomed picks, records and files,
// and revokes their links.
func (cp *Plane) deleteExports(ctx context.Context, doomed func(*jobstore.ExportJob) bool) error {
	jobs, err := cp.host.Store().ExportJobs(ctx)
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
	now := cp.clock.clock.Now().UTC()
	c.mu.Lock()
	for _, id := range ids {
		c.revoked[id] = now
	}
	err = cp.saveControlStateLocked()
	c.mu.Unlock()
	if err != nil {
		return httpapi.StoreError("revoke the links of deleted jobs", err)
	}
	for _, id := range ids {
		if err := cp.host.RemoveExport(ctx, id); err != nil {
			return httpapi.StoreError("delete export job "+id, err)
		}
	}
	return nil
}

// LinkRevoked reports whether a reset deleted the job a link points to;
// never on a server without a control plane (a nil cp).
func (cp *Plane) LinkRevoked(jobID string) bool {
	if cp == nil {
		return false
	}
	cp.mu.Lock()
	defer cp.mu.Unlock()
	_, revoked := cp.revoked[jobID]
	return revoked
}

// clockControl answers the clock operations.
type clockControl struct {
	clock *clock.Adjustable
	log   hclog.Logger
	host  Host
}

func (cc *clockControl) controlGetClock(w http.ResponseWriter, _ *http.Request) error {
	httpapi.WriteJSON(w, http.StatusOK, api.ControlClock{Now: cc.clock.Now().UTC(), Frozen: cc.clock.Frozen()})
	return nil
}

func (cc *clockControl) controlSetClock(w http.ResponseWriter, r *http.Request) error {
	var req api.ControlSetClock
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		return err
	}
	c := cc.clock
	if req.Frozen != nil && *req.Frozen {
		c.Freeze(true)
	}
	if req.Now != nil {
		c.Set(*req.Now)
	}
	if req.Frozen != nil && !*req.Frozen {
		c.Freeze(false)
	}
	cc.log.Info("control: clock set", "now", c.Now().UTC(), "frozen", c.Frozen())
	cc.host.WakeWorkers()
	httpapi.WriteJSON(w, http.StatusOK, api.ControlClock{Now: c.Now().UTC(), Frozen: c.Frozen()})
	return nil
}

// maxAdvance keeps an advance within what time.Time can add.
const maxAdvance = 100 * 365 * 24 * time.Hour

func (cc *clockControl) controlAdvance(w http.ResponseWriter, r *http.Request) error {
	var req api.ControlAdvance
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		return err
	}
	d, err := time.ParseDuration(req.By)
	if err != nil || d <= 0 || d > maxAdvance {
		return httpapi.BadRequest("by %q: want a positive Go duration such as \"90m\" (at most 100 years); to go back, POST %s with \"now\"",
			req.By, api.PathControlClock)
	}
	now := cc.clock.Advance(d)
	cc.log.Info("control: clock advanced", "by", d, "now", now.UTC())
	cc.host.WakeWorkers()
	httpapi.WriteJSON(w, http.StatusOK, api.ControlClock{Now: now.UTC(), Frozen: cc.clock.Frozen()})
	return nil
}
