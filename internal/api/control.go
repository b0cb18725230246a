package api

import (
	"encoding/json"
	"time"
)

// The control plane of the reference server (opt-in with a control token):
// paths under ControlPrefix let a test suite reset the server, move its
// clock, inject faults, force job states and read what its client sent.
// The real service has none of this.
const (
	ControlPrefix            = "/_control/"
	PathControlReset         = "/_control/v1/reset"
	PathControlClock         = "/_control/v1/clock"
	PathControlClockAdvance  = "/_control/v1/clock/advance"
	PathControlOrganizations = "/_control/v1/organizations"
	PathControlOrganization  = "/_control/v1/organizations/{id}"
	PathControlExportState   = "/_control/v1/exports/{jobId}/state"
	PathControlExportHold    = "/_control/v1/exports/hold"
	PathControlAgentState    = "/_control/v1/agent-jobs/{projectId}/{id}/state"
	PathControlFaults        = "/_control/v1/faults"
	PathControlFault         = "/_control/v1/faults/{id}"
	PathControlRequests      = "/_control/v1/requests"
	PathControlVerify        = "/_control/v1/requests/verify"
	PathControlOpenAPI       = "/_control/v1/openapi.json"
)

// ControlReset is the body of a reset; without an organization (or without
// a body) the whole server is reset.
type ControlReset struct {
	Organization string `json:"organization,omitempty"`
}

// ControlClock is the server clock as the control plane shows it, and
// what every clock operation answers: reading it, setting it, freezing it
// and moving it forward.
type ControlClock struct {
	Now    time.Time `json:"now"`
	Frozen bool      `json:"frozen"`
}

// ControlSetClock sets the clock: Now moves it (forward or back), Frozen
// stops or restarts it. Either may be left out.
type ControlSetClock struct {
	Now    *time.Time `json:"now,omitempty"`
	Frozen *bool      `json:"frozen,omitempty"`
}

// ControlAdvance moves the clock forward by a Go duration ("90m").
type ControlAdvance struct {
	By string `json:"by"`
}

// ControlNewOrganization creates an organization at runtime, with one
// project and one deployment serving Source.
type ControlNewOrganization struct {
	ID     string `json:"id,omitempty"`
	Plan   string `json:"plan,omitempty"`
	Kind   string `json:"kind,omitempty"`
	Domain string `json:"domain,omitempty"`
	// BasePath is the path the deployment's site is served under
	// ("/docs"); see the deployment's basePath in the server config.
	BasePath string        `json:"basePath,omitempty"`
	Source   ControlSource `json:"source"`
	// Agent scripts the project's reference agent; without it every
	// agent job completes with a pull request after 5s.
	Agent   *ControlAgent `json:"agent,omitempty"`
	Persist bool          `json:"persist,omitempty"`
}

// ControlAgent says what a runtime organization's reference agent does
// with every job: after Duration (a Go duration, "0s" at once) it
// completes with a pull request (Outcome "pullRequest"), completes with
// no changes ("noChanges") or fails ("fail").
type ControlAgent struct {
	Outcome  string `json:"outcome,omitempty"`
	Duration string `json:"duration,omitempty"`
}

// ControlSource is a docs source given inline (Files: path → content) or
// as a directory on the server's machine (Path).
type ControlSource struct {
	Files map[string]string `json:"files,omitempty"`
	Path  string            `json:"path,omitempty"`
}

// ControlOrganization is a created organization: its admin key is shown
// here once and never again.
type ControlOrganization struct {
	ID        string `json:"id"`
	APIKey    string `json:"apiKey"`
	ProjectID string `json:"projectId"`
	Domain    string `json:"domain"`
}

// ControlExportState forces an export job's state: running (with
// Progress), failed (with Error) or completed.
type ControlExportState struct {
	Status   string   `json:"status"`
	Progress *float64 `json:"progress,omitempty"`
	Error    string   `json:"error,omitempty"`
}

// ControlAgentState forces an agent job's state: completed (with PRLink,
// or the agent's own), failed or archived.
type ControlAgentState struct {
	Status string  `json:"status"`
	PRLink *string `json:"prLink,omitempty"`
}

// ControlHold holds (Hold absent or true) or releases an organization's
// exports: held ones stay queued.
type ControlHold struct {
	Organization string `json:"organization"`
	Hold         *bool  `json:"hold,omitempty"`
}

// ControlFault is a fault to inject into matching requests of the admin
// API and bundle downloads. Durations are Go durations ("2s").
//
// Probability (above 0, at most 1) lets a matching request through
// unharmed the rest of the time; Seed makes those draws reproducible
// (without one the server picks one and lists it). Body makes the fault
// a stub: the answer is Status (default 200) with this JSON body instead
// of the real one. Response reshapes the answer, the fault's own or,
// without Status and Body, the real one: "malformed" (a body that is not
// JSON), "truncated" (the connection closes halfway through the
// announced body) or "empty" (no body). BytesPerSecond sends the body
// that slowly.
type ControlFault struct {
	Method         string          `json:"method,omitempty"`
	Path           string          `json:"path"`
	Status         int             `json:"status,omitempty"`
	Error          string          `json:"error,omitempty"`
	Body           json.RawMessage `json:"body,omitempty"`
	Response       string          `json:"response,omitempty"`
	BytesPerSecond int             `json:"bytesPerSecond,omitempty"`
	RetryAfter     string          `json:"retryAfter,omitempty"`
	Delay          string          `json:"delay,omitempty"`
	Reset          bool            `json:"reset,omitempty"`
	Probability    *float64        `json:"probability,omitempty"`
	Seed           *int64          `json:"seed,omitempty"`
	Times          int             `json:"times,omitempty"`
	TTL            string          `json:"ttl,omitempty"`
	Organization   string          `json:"organization,omitempty"`
}

// The ways a fault reshapes an answer (ControlFault.Response).
const (
	FaultMalformed = "malformed"
	FaultTruncated = "truncated"
	FaultEmpty     = "empty"
)

// ControlFaultState is an active fault, as listed and as answered to its
// creation (with the seed the server picked when it picked one): what it was created with, how
// often it has struck, how many more times it will (Remaining, absent
// when unlimited) and when it ends (absent without a ttl).
type ControlFaultState struct {
	ID string `json:"id"`
	ControlFault
	Hits      int        `json:"hits"`
	Remaining *int       `json:"remaining,omitempty"`
	ExpiresAt *time.Time `json:"expiresAt,omitempty"`
}

// ControlFaults lists the active faults, oldest first.
type ControlFaults struct {
	Faults []ControlFaultState `json:"faults"`
}

// ControlJournal is what the request journal holds, oldest first. Size is
// how many requests it keeps; Dropped counts those it let go to make room
// since it was last emptied.
type ControlJournal struct {
	Requests []ControlRequest `json:"requests"`
	Size     int              `json:"size"`
	Dropped  int64            `json:"dropped"`
}

// Who closed a connection before its answer was complete
// (ControlRequest.Aborted).
const (
	AbortedByClient = "client"
	AbortedByServer = "server"
)

// ControlRequest is one journaled request, credentials and link
// signatures redacted. Body holds at most the first 64 KiB the server
// read; BodyBytes counts all of them (an unread body is read, up to
// 1 MiB, before the answer). Status is the status sent, 0 when none was:
// Aborted then says who closed the connection. ResponseBytes counts the
// body bytes sent and DurationMs the wall time from the request's arrival
// to the end of its answer.
type ControlRequest struct {
	Time         time.Time         `json:"time"`
	Method       string            `json:"method"`
	Path         string            `json:"path"`
	Query        string            `json:"query"`
	Status       int               `json:"status"`
	Organization string            `json:"organization"`
	Headers      map[string]string `json:"headers"`
	BodyBytes    int64             `json:"bodyBytes"`
	Body         string            `json:"body,omitempty"`
	// Route is the pattern of the operation that answered
	// ("POST /v1/static-export/jobs"), "" when no route matched (the
	// server's 404 or 405).
	Route         string  `json:"route"`
	ResponseBytes int64   `json:"responseBytes"`
	DurationMs    float64 `json:"durationMs"`
	// Aborted is AbortedByClient when the client closed the connection
	// before the answer was complete (it gave up), AbortedByServer when
	// the server did (a reset or truncating fault, or --strict with no
	// documented status), and "" for a whole answer.
	Aborted string `json:"aborted,omitempty"`
}

// ControlMatch selects journaled requests: every field given must hold.
// Path is a glob ("*" matches any run of characters); Route is a
// pattern as ControlRequest.Route shows it; Body names top-level fields
// of a JSON body and the values they must equal; Since (inclusive) and
// Until (exclusive) are server clock times; Unmatched picks the requests
// no route matched.
type ControlMatch struct {
	Method       string                     `json:"method,omitempty"`
	Path         string                     `json:"path,omitempty"`
	Route        string                     `json:"route,omitempty"`
	Organization string                     `json:"organization,omitempty"`
	Status       int                        `json:"status,omitempty"`
	Body         map[string]json.RawMessage `json:"body,omitempty"`
	Since        *time.Time                 `json:"since,omitempty"`
	Until        *time.Time                 `json:"until,omitempty"`
	Unmatched    bool                       `json:"unmatched,omitempty"`
}

// ControlVerify is a check of the journal, of one of three kinds: Match
// with a count (Count exactly, 0 for never; AtLeast and AtMost; none of
// them: at least once), a Sequence of requests received in this order
// (others may come between), or Only: no request but those matching one
// of these. Within narrows the requests looked at (absent: all).
type ControlVerify struct {
	Within   *ControlMatch  `json:"within,omitempty"`
	Match    *ControlMatch  `json:"match,omitempty"`
	Count    *int           `json:"count,omitempty"`
	AtLeast  *int           `json:"atLeast,omitempty"`
	AtMost   *int           `json:"atMost,omitempty"`
	Sequence []ControlMatch `json:"sequence,omitempty"`
	Only     []ControlMatch `json:"only,omitempty"`
}

// ControlVerification is the outcome of a ControlVerify. Report says
// what was wanted and lists what was received; when the check does not
// hold (a 409) Error repeats it. Requests are those the check is about:
// the matching ones, the steps of a sequence found, or the requests
// Only did not allow.
type ControlVerification struct {
	OK       bool             `json:"ok"`
	Error    string           `json:"error,omitempty"`
	Report   string           `json:"report"`
	Count    int              `json:"count"`
	Requests []ControlRequest `json:"requests"`
}
