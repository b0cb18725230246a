package docsadmintest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// Error is an answer of the control plane other than success.
type Error struct {
	Status  int
	Message string
}

func (e *Error) Error() string {
	return fmt.Sprintf("docsadmin control plane: %d: %s", e.Status, e.Message)
}

// Control is a client of a reference server's control plane. Its methods
// are safe for concurrent use.
type Control struct {
	base  string
	token string
	http  *http.Client
	// org limits the operations to one organization (Scope); "" for
	// none.
	org string
}

// NewControl returns a client of the control plane of the server at
// baseURL, started with --control-token token.
func NewControl(baseURL, token string) *Control {
	return &Control{base: strings.TrimSuffix(baseURL, "/"), token: token, http: &http.Client{Timeout: 3 * time.Minute}}
}

// scoped returns c limited to organization org.
func (c *Control) scoped(org string) *Control {
	s := *c
	s.org = org
	return &s
}

// scope returns org, or the organization c is limited to when org is "".
func (c *Control) scope(org string) string {
	if org == "" {
		return c.org
	}
	return org
}

// Reset deletes every job, link, fault, hold, forced state, journal entry
// and runtime organization, and gives the clock back to the wall. On a
// Scope's Control it is ResetOrganization of the scope's organization.
func (c *Control) Reset(ctx context.Context) error {
	if c.org != "" {
		return c.ResetOrganization(ctx, c.org)
	}
	return c.do(ctx, http.MethodPost, api.PathControlReset, nil, nil)
}

// ResetOrganization deletes one organization's jobs (their links answer
// 403), faults, hold and journal entries.
func (c *Control) ResetOrganization(ctx context.Context, id string) error {
	return c.do(ctx, http.MethodPost, api.PathControlReset, api.ControlReset{Organization: id}, nil)
}

// Clock reads the server clock.
func (c *Control) Clock(ctx context.Context) (Clock, error) {
	return c.clockOp(ctx, http.MethodGet, api.PathControlClock, nil)
}

// Advance moves the server clock forward by d and returns it as the server
// answers: links expire, agent jobs finish and limits reset as if d had
// passed. A frozen clock stays frozen.
func (c *Control) Advance(ctx context.Context, d time.Duration) (Clock, error) {
	return c.clockOp(ctx, http.MethodPost, api.PathControlClockAdvance, api.ControlAdvance{By: d.String()})
}

// Freeze stops the server clock where it is and returns it.
func (c *Control) Freeze(ctx context.Context) (Clock, error) {
	frozen := true
	return c.clockOp(ctx, http.MethodPost, api.PathControlClock, api.ControlSetClock{Frozen: &frozen})
}

// Unfreeze lets the server clock run on from where it stands and returns
// it.
func (c *Control) Unfreeze(ctx context.Context) (Clock, error) {
	frozen := false
	return c.clockOp(ctx, http.MethodPost, api.PathControlClock, api.ControlSetClock{Frozen: &frozen})
}

// SetClock moves the server clock to t, forward or back, and returns it;
// a frozen clock stays frozen at t.
func (c *Control) SetClock(ctx context.Context, t time.Time) (Clock, error) {
	return c.clockOp(ctx, http.MethodPost, api.PathControlClock, api.ControlSetClock{Now: &t})
}

// clockOp sends one clock operation; each answers the clock.
func (c *Control) clockOp(ctx context.Context, method, path string, body any) (Clock, error) {
	var out api.ControlClock
	err := c.do(ctx, method, path, body, &out)
	return Clock{Now: out.Now, Frozen: out.Frozen}, err
}

// Fail injects a fault into the matching requests of the admin API and of
// bundle downloads and returns its id: a status (default 503) with an
// error message and Retry-After, a stub's body, a malformed, truncated,
// empty or slow answer, a closed connection (Reset), or a delay, for a
// share of the requests (Probability). Times bounds how many requests it
// strikes, TTL how long it lives. It returns the fault as the server
// holds it: its ID (for RemoveFault) and, for a Probability without a
// Seed, the seed the server picked, to replay the run with.
func (c *Control) Fail(ctx context.Context, f Fault) (FaultState, error) {
	f.Organization = c.scope(f.Organization)
	w, err := f.wire()
	if err != nil {
		return FaultState{}, err
	}
	var out api.ControlFaultState
	if err := c.do(ctx, http.MethodPost, api.PathControlFaults, w, &out); err != nil {
		return FaultState{}, err
	}
	return faultState(out)
}

// Faults lists the active faults, oldest first (on a Scope's Control,
// those of its organization).
func (c *Control) Faults(ctx context.Context) ([]FaultState, error) {
	var out api.ControlFaults
	if err := c.do(ctx, http.MethodGet, api.PathControlFaults, nil, &out); err != nil {
		return nil, err
	}
	states := make([]FaultState, 0, len(out.Faults))
	for _, w := range out.Faults {
		if c.org != "" && w.Organization != c.org {
			continue
		}
		st, err := faultState(w)
		if err != nil {
			return nil, err
		}
		states = append(states, st)
	}
	return states, nil
}

// RemoveFault removes a fault.
func (c *Control) RemoveFault(ctx context.Context, id string) error {
	return c.do(ctx, http.MethodDelete, api.FillPath(api.PathControlFault, map[string]string{"id": id}), nil, nil)
}

// Hold keeps an organization's new exports queued until Release ("" on
// a Scope's Control: its organization).
func (c *Control) Hold(ctx context.Context, organization string) error {
	return c.do(ctx, http.MethodPost, api.PathControlExportHold, api.ControlHold{Organization: c.scope(organization)}, nil)
}

// Release lets an organization's held exports run ("" on a Scope's
// Control: its organization).
func (c *Control) Release(ctx context.Context, organization string) error {
	hold := false
	return c.do(ctx, http.MethodPost, api.PathControlExportHold, api.ControlHold{Organization: c.scope(organization), Hold: &hold}, nil)
}

// SetExportState forces an export job's state: running (with Progress),
// failed (with Error), or completed (rendered for real if it was not),
// and returns the job as the admin API now shows it.
func (c *Control) SetExportState(ctx context.Context, jobID string, st ExportState) (ExportJob, error) {
	w := api.ControlExportState{Status: st.Status, Error: st.Error}
	if st.Progress != 0 {
		w.Progress = &st.Progress
	}
	var out api.ExportJob
	err := c.do(ctx, http.MethodPost, api.FillPath(api.PathControlExportState, map[string]string{"jobId": jobID}), w, &out)
	return exportJob(out), err
}

// SetAgentJobState forces an agent job's state: completed, failed or
// archived, and returns the job as the admin API now shows it; the state
// holds until the job gets another follow-up message. projectID is the
// job's project.
func (c *Control) SetAgentJobState(ctx context.Context, projectID, id string, st AgentJobState) (AgentJob, error) {
	path := api.FillPath(api.PathControlAgentState, map[string]string{"projectId": projectID, "id": id})
	w := api.ControlAgentState{Status: st.Status}
	if st.PRLink != "" {
		w.PRLink = &st.PRLink
	}
	var out api.AgentJob
	err := c.do(ctx, http.MethodPost, path, w, &out)
	return agentJob(out), err
}

// JournalFilter selects journaled requests; empty fields select all (on
// a Scope's Control, an empty Organization is its organization). Path
// may hold "*" for any run of characters.
type JournalFilter struct {
	Method, Path, Organization string
	// Unmatched selects the requests no route matched.
	Unmatched bool
	// Limit keeps the newest Limit requests; 0 keeps all.
	Limit int
}

// Journal returns the journaled requests that match f, oldest first.
func (c *Control) Journal(ctx context.Context, f JournalFilter) ([]Request, error) {
	p, err := c.ReadJournal(ctx, f)
	return p.Requests, err
}

// JournalPage is the journal as the server returns it.
type JournalPage struct {
	// Requests are those that matched the filter, oldest first.
	Requests []Request
	// Size is how many requests the journal keeps (WithJournalSize).
	Size int
	// Dropped counts the requests it let go to make room since it was
	// last emptied.
	Dropped int64
}

// ReadJournal returns the journaled requests that match f with the
// journal's size and how many requests it let go.
func (c *Control) ReadJournal(ctx context.Context, f JournalFilter) (JournalPage, error) {
	q := url.Values{}
	for k, v := range map[string]string{"method": f.Method, "path": f.Path, "organization": c.scope(f.Organization)} {
		if v != "" {
			q.Set(k, v)
		}
	}
	if f.Unmatched {
		q.Set("unmatched", "true")
	}
	if f.Limit > 0 {
		q.Set("limit", strconv.Itoa(f.Limit))
	}
	path := api.PathControlRequests
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	var out api.ControlJournal
	err := c.do(ctx, http.MethodGet, path, nil, &out)
	return JournalPage{Requests: requests(out.Requests), Size: out.Size, Dropped: out.Dropped}, err
}

// ClearJournal empties the journal, every organization's requests: on a
// Scope's Control too (Reset clears only the scope's).
func (c *Control) ClearJournal(ctx context.Context) error {
	return c.do(ctx, http.MethodDelete, api.PathControlRequests, nil, nil)
}

// NewOrganization creates an organization with one project and one
// deployment of o.Source, isolated from every other organization, and
// returns its id, admin key, project and domain.
func (c *Control) NewOrganization(ctx context.Context, o NewOrganization) (Organization, error) {
	w := api.ControlNewOrganization{ID: o.ID, Plan: o.Plan, Kind: o.Kind, Domain: o.Domain, BasePath: o.BasePath,
		Source: api.ControlSource{Files: o.Source.Files, Path: o.Source.Path}, Persist: o.Persist}
	if a := o.Agent; a != nil {
		if err := a.check(); err != nil {
			return Organization{}, err
		}
		w.Agent = &api.ControlAgent{Outcome: a.Outcome, Duration: a.Duration.String()}
	}
	var out api.ControlOrganization
	err := c.do(ctx, http.MethodPost, api.PathControlOrganizations, w, &out)
	return Organization{ID: out.ID, APIKey: out.APIKey, ProjectID: out.ProjectID, Domain: out.Domain}, err
}

// DeleteOrganization deletes a runtime organization with its jobs.
func (c *Control) DeleteOrganization(ctx context.Context, id string) error {
	return c.do(ctx, http.MethodDelete, api.FillPath(api.PathControlOrganization, map[string]string{"id": id}), nil, nil)
}

// do sends one request and decodes a 2xx answer into out (when not nil);
// any other answer is an *Error.
func (c *Control) do(ctx context.Context, method, path string, body, out any) error {
	_, err := c.send(ctx, method, path, body, out)
	return err
}

// send is do that also decodes the answers of the statuses in also into
// out, for operations whose non-2xx answer carries a result (a
// verification that does not hold); it returns the status.
func (c *Control) send(ctx context.Context, method, path string, body, out any, also ...int) (int, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, fmt.Errorf("docsadmin control plane: %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, fmt.Errorf("docsadmin control plane: %s %s: %w", method, path, err)
	}
	if resp.StatusCode/100 != 2 && !slices.Contains(also, resp.StatusCode) {
		var e api.Error
		if json.Unmarshal(data, &e) != nil || e.Error == "" {
			e.Error = strings.TrimSpace(string(data))
		}
		return resp.StatusCode, &Error{Status: resp.StatusCode, Message: e.Error}
	}
	if out == nil {
		return resp.StatusCode, nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return resp.StatusCode, fmt.Errorf("docsadmin control plane: %s %s: decode: %w", method, path, err)
	}
	return resp.StatusCode, nil
}
