package docsadmintest

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
)

// The control plane's values as a Go suite writes and reads them: plain
// structs with time.Duration for durations, converted to and from the
// wire types the server's OpenAPI document (GET /_control/v1/openapi.json)
// describes.

// The ways a fault reshapes an answer (Fault.Response).
const (
	// Malformed sends the first half of the body followed by
	// "<malformed>", with a matching Content-Length: not JSON.
	Malformed = api.FaultMalformed
	// Truncated announces the whole Content-Length, sends half the body
	// and closes the connection.
	Truncated = api.FaultTruncated
	// Empty sends no body.
	Empty = api.FaultEmpty
)

// Fault is a fault to inject: see Control.Fail. Zero fields are left out;
// a fault that says nothing but Path answers 503.
type Fault struct {
	// Method limits the fault to one upper-case HTTP method ("POST").
	Method string
	// Path is the path it strikes: "*" matches any run of characters,
	// "/" included.
	Path string
	// Organization limits it to one organization's requests (for a
	// bundle download, the job's organization).
	Organization string
	// Status is the status answered: 400 to 599 with an {"error"} body,
	// or any from 200 with Body or Response.
	Status int
	// Error is the message of the {"error"} body.
	Error string
	// Body makes the fault a stub: encoded as JSON, it is the answer's
	// body (with Status, default 200) in place of the real operation's.
	Body any
	// Response reshapes the answer, the fault's own or, without Status
	// and Body, the real one: Malformed, Truncated or Empty.
	Response string
	// BytesPerSecond sends the answer's body that slowly.
	BytesPerSecond int
	// RetryAfter becomes a Retry-After header, in whole seconds rounded
	// up.
	RetryAfter time.Duration
	// Delay holds the request that long before the fault answers (or,
	// with nothing else said, before it goes on).
	Delay time.Duration
	// Reset closes the connection without an answer.
	Reset bool
	// Probability strikes that share of the matching requests (above 0,
	// at most 1); 0 strikes them all.
	Probability float64
	// Seed seeds the probability's draws, so a run can be replayed; 0
	// lets the server pick one (FaultState.Seed shows it).
	Seed int64
	// Times bounds how many requests it strikes; 0: no bound.
	Times int
	// TTL bounds how long it lives (wall time); 0: until removed.
	TTL time.Duration
}

// wire is f as the control plane takes it.
func (f Fault) wire() (api.ControlFault, error) {
	out := api.ControlFault{Method: f.Method, Path: f.Path, Organization: f.Organization, Status: f.Status, Error: f.Error,
		Response: f.Response, BytesPerSecond: f.BytesPerSecond, Reset: f.Reset, Times: f.Times,
		RetryAfter: durationText(f.RetryAfter), Delay: durationText(f.Delay), TTL: durationText(f.TTL)}
	if f.Body != nil {
		b, err := json.Marshal(f.Body)
		if err != nil {
			return out, fmt.Errorf("docsadmintest: fault body: %w", err)
		}
		out.Body = b
	}
	if f.Probability != 0 {
		out.Probability = &f.Probability
	}
	if f.Seed != 0 {
		out.Seed = &f.Seed
	}
	return out, nil
}

func durationText(d time.Duration) string {
	if d == 0 {
		return ""
	}
	return d.String()
}

// FaultState is an active fault as the server lists it.
type FaultState struct {
	// ID names the fault for RemoveFault.
	ID string
	// Fault is what it was created with. A stub's Body is the
	// json.RawMessage the server holds.
	Fault
	// Hits counts the requests it struck.
	Hits int
	// Remaining is how many more requests it strikes; -1 without Times.
	Remaining int
	// ExpiresAt is when its TTL ends; zero without one.
	ExpiresAt time.Time
}

func faultState(w api.ControlFaultState) (FaultState, error) {
	f := w.ControlFault
	st := FaultState{ID: w.ID, Hits: w.Hits, Remaining: -1, Fault: Fault{Method: f.Method, Path: f.Path,
		Organization: f.Organization, Status: f.Status, Error: f.Error, Response: f.Response,
		BytesPerSecond: f.BytesPerSecond, Reset: f.Reset, Times: f.Times}}
	if f.Body != nil {
		st.Body = f.Body
	}
	if f.Probability != nil {
		st.Probability = *f.Probability
	}
	if f.Seed != nil {
		st.Seed = *f.Seed
	}
	if w.Remaining != nil {
		st.Remaining = *w.Remaining
	}
	if w.ExpiresAt != nil {
		st.ExpiresAt = *w.ExpiresAt
	}
	for _, d := range []struct {
		text string
		into *time.Duration
	}{{f.RetryAfter, &st.RetryAfter}, {f.Delay, &st.Delay}, {f.TTL, &st.TTL}} {
		if d.text == "" {
			continue
		}
		v, err := time.ParseDuration(d.text)
		if err != nil {
			return st, fmt.Errorf("docsadmintest: fault %s: %w", w.ID, err)
		}
		*d.into = v
	}
	return st, nil
}

// Request is one journaled request, secrets redacted.
type Request struct {
	// Time is when it arrived, by the server clock.
	Time time.Time
	// Method, Path and Query are as sent (Query without the "?").
	Method, Path, Query string
	// Route is the pattern of the operation that answered
	// ("GET /v1/static-export/jobs/{jobId}"), "" when no route matched.
	Route string
	// Organization is the organization it acted for, "" for none.
	Organization string
	// Headers are its headers, each one's values joined with ", ".
	Headers map[string]string
	// Body is the first 64 KiB of its body; BodyBytes counts all of it.
	Body      string
	BodyBytes int64
	// Status is the status answered, 0 when none was sent.
	Status int
	// ResponseBytes counts the body bytes of the answer sent.
	ResponseBytes int64
	// Duration is the wall time from its arrival to the end of its
	// answer.
	Duration time.Duration
	// Aborted is "client" when the client gave up before the answer was
	// complete, "server" when the server closed the connection (a reset
	// or truncating fault), "" for a whole answer.
	Aborted string
}

func request(w api.ControlRequest) Request {
	return Request{Time: w.Time, Method: w.Method, Path: w.Path, Query: w.Query, Route: w.Route,
		Organization: w.Organization, Headers: w.Headers, Body: w.Body, BodyBytes: w.BodyBytes, Status: w.Status,
		ResponseBytes: w.ResponseBytes, Duration: time.Duration(w.DurationMs * float64(time.Millisecond)), Aborted: w.Aborted}
}

func requests(ws []api.ControlRequest) []Request {
	out := make([]Request, len(ws))
	for i, w := range ws {
		out[i] = request(w)
	}
	return out
}

// Clock is the server clock.
type Clock struct {
	// Now is the time by it.
	Now time.Time
	// Frozen reports whether it stands still.
	Frozen bool
}

// NewOrganization describes an organization to create at runtime, with
// one project and one deployment serving Source.
type NewOrganization struct {
	// ID names it; "" lets the server pick one.
	ID string
	// Plan is "enterprise" or "pro" (no static export); "" takes the
	// server's default.
	Plan string
	// Kind is the deployment's: "cloud", "client-hosted" or
	// "air-gapped"; "" takes the server's default.
	Kind string
	// Domain is the deployment's domain; "" lets the server pick one.
	Domain string
	// BasePath is the path the site is served under ("/docs").
	BasePath string
	// Source is the deployment's docs source.
	Source Source
	// Agent scripts its project's reference agent; nil: a pull request
	// after 5s (for Server.Scope, the server's WithAgent).
	Agent *Agent
	// Persist brings it back after a restart of the server.
	Persist bool
}

// Outcomes of the reference agent (Agent.Outcome).
const (
	// AgentPullRequest completes every job with a pull request.
	AgentPullRequest = apiconfig.OutcomePullRequest
	// AgentNoChanges completes every job without one.
	AgentNoChanges = apiconfig.OutcomeNoChanges
	// AgentFail fails every job.
	AgentFail = apiconfig.OutcomeFail
)

// Agent says what the reference agent does with every agent job of a
// project: after Duration (0: at once, by the server clock) it ends as
// Outcome says ("" is AgentPullRequest).
type Agent struct {
	Outcome  string
	Duration time.Duration
}

func (a Agent) check() error {
	switch a.Outcome {
	case "", AgentPullRequest, AgentNoChanges, AgentFail:
	default:
		return fmt.Errorf("docsadmintest: agent outcome %q: want AgentPullRequest, AgentNoChanges or AgentFail", a.Outcome)
	}
	if a.Duration < 0 {
		return fmt.Errorf("docsadmintest: agent duration %s is negative", a.Duration)
	}
	return nil
}

// Source is a docs source: Files inline (path → content), or Path, a
// directory on the server's machine.
type Source struct {
	Files map[string]string
	Path  string
}

// Organization is a created organization.
type Organization struct {
	// ID names it.
	ID string
	// APIKey is its admin key, shown only here.
	APIKey string
	// ProjectID is its one project.
	ProjectID string
	// Domain is its deployment's domain.
	Domain string
}

// ExportState is an export job state to force: "running" (with
// Progress), "failed" (with Error) or "completed".
type ExportState struct {
	Status   string
	Progress float64
	Error    string
}

// AgentJobState is an agent job state to force: "completed" (with
// PRLink, or the agent's own when ""), "failed" or "archived".
type AgentJobState struct {
	Status string
	PRLink string
}

// ExportJob is an export job as the admin API shows it.
type ExportJob struct {
	JobID     string
	Status    string
	Progress  float64
	PageCount int
	CreatedAt time.Time
	UpdatedAt time.Time
	// Error says why a failed job failed.
	Error string
	// Version is the content version of a completed job's bundle; "" in
	// strict mode, which leaves it out as the real service does.
	Version string
	// Warnings are the first of the export's warnings; WarningCount
	// counts them all, and WarningsByKind counts them by what they are
	// about ("content", "link", "config"...). The three are empty in
	// strict mode.
	Warnings       []string
	WarningCount   int
	WarningsByKind map[string]int
}

func exportJob(w api.ExportJob) ExportJob {
	j := ExportJob{JobID: w.JobID, Status: w.Status, Progress: w.Progress, PageCount: w.PageCount,
		CreatedAt: w.CreatedAt, UpdatedAt: w.UpdatedAt, Error: w.Error, Version: w.Version}
	if w.Warnings != nil {
		j.Warnings, j.WarningCount, j.WarningsByKind = w.Warnings.Messages, w.Warnings.Count, w.Warnings.ByKind
	}
	return j
}

// AgentJob is an agent job as the admin API shows it.
type AgentJob struct {
	ID     string
	Status string
	// Repository and Ref are what the agent works on; Ref is "" when the
	// job names no branch.
	Repository string
	Ref        string
	Model      string
	// PRLink is the pull request the agent opened, "" for none.
	PRLink    string
	CreatedAt time.Time
	// ArchivedAt is when it was archived; zero while it is not.
	ArchivedAt time.Time
}

func agentJob(w api.AgentJob) AgentJob {
	j := AgentJob{ID: w.ID, Status: w.Status, Repository: w.Source.Repository, Model: w.Model, CreatedAt: w.CreatedAt}
	if w.Source.Ref != nil {
		j.Ref = *w.Source.Ref
	}
	if w.PRLink != nil {
		j.PRLink = *w.PRLink
	}
	if w.ArchivedAt != nil {
		j.ArchivedAt = *w.ArchivedAt
	}
	return j
}
