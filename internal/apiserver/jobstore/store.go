package jobstore

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// Store is where the server keeps its state: agent jobs, export jobs
// with their claims and leases, idempotency keys, counters and
// documentation updates, one interface per kind of record. Bolt (one
// file, one process) is the embedded default; Postgres (PostgreSQL) is
// shared by replicas. Every check-and-write that a limit or a claim
// depends on is one method, so each backend can make it one transaction.
type Store interface {
	AgentStore
	ExportStore
	ClaimStore
	UpdateStore

	// Ping reports whether the store can be reached, for /readyz.
	Ping(ctx context.Context) error

	// Faults lets tests make writes fail as a full disk or a lost
	// database would.
	Faults() *WriteFaults
	Close() error
}

// AgentStore keeps agent jobs with their follow-up messages and the
// projects' pull request counters.
type AgentStore interface {
	// CreateAgentJob stores rec unless the project already has limit jobs
	// created after since; then it returns the creation time of the oldest
	// of those, from which the caller computes Retry-After. It numbers the
	// job's pull request from the project's counter.
	CreateAgentJob(ctx context.Context, rec *AgentJob, limit int, since time.Time) (oldest time.Time, limited bool, err error)
	AgentJob(ctx context.Context, id string) (*AgentJob, error)
	// AddAgentMessage appends msg to job id in one transaction: accept
	// sees the stored record first and may refuse (its error is
	// returned as is; ErrNoRecord when there is no such job); then the
	// project's jobs and messages created after since are counted
	// against limit as createAgentJob does. It returns the record with
	// the message appended.
	AddAgentMessage(ctx context.Context, id string, msg AgentMessage, limit int, since time.Time,
		accept func(*AgentJob) error) (rec *AgentJob, oldest time.Time, limited bool, err error)
	// ForceAgentState sets, or with nil clears, the state the control
	// plane forced on agent job id, in the job's record, and returns the
	// record; ErrNoRecord when there is no such job.
	ForceAgentState(ctx context.Context, id string, f *AgentForced) (*AgentJob, error)
	// DeleteAgentJobsBefore drops agent jobs created before cutoff.
	DeleteAgentJobsBefore(ctx context.Context, cutoff time.Time) (int, error)
	// DeleteOrgAgentJobs drops every agent job of an organization, for a
	// reset through the control plane.
	DeleteOrgAgentJobs(ctx context.Context, orgID string) (int, error)
}

// ExportStore keeps export job records, with the organizations' limits
// and the idempotency keys checked when one is created.
type ExportStore interface {
	// CreateExportJob stores rec with its checks: an earlier start with
	// the same idempotency key returns that job instead (or
	// ErrIdempotencyConflict), and the organization's limits refuse it
	// with ErrTooManyActive, ErrTooManyStored or ErrTooManyBytes.
	CreateExportJob(ctx context.Context, rec *ExportJob, c Creation) (existing *ExportJob, err error)
	// ExportJob reads a job as the store holds it now: every write
	// committed before the call, on any replica, is in it.
	ExportJob(ctx context.Context, id string) (*ExportJob, error)
	// PollExportJob reads a job for a status poll, where a read that
	// trails a write is answered by the next poll: on PostgreSQL it may
	// come from memory and lag a write committed on another replica by
	// the time that write's notification takes to arrive (well under a
	// millisecond on one network; postgres_memo.go). This replica's own
	// writes are in it as soon as they return, as with ExportJob.
	PollExportJob(ctx context.Context, id string) (*ExportJob, error)
	// ExportJobs returns every export job, for recovery and the sweep.
	ExportJobs(ctx context.Context) ([]*ExportJob, error)
	// LatestCompletedExport returns the export job of orgID's domain
	// that completed with an archive (BundleSize above zero) last, by
	// UpdatedAt (the lowest id among equals), other than job excluding;
	// nil when there is none. A new export copies that archive's
	// unchanged entries; neither backend reads every job to find it.
	LatestCompletedExport(ctx context.Context, orgID, domain, excluding string) (*ExportJob, error)
	// PutExportJob overwrites a job record unconditionally: for jobs no
	// worker holds (recovery of a completed job whose files are gone).
	PutExportJob(ctx context.Context, rec *ExportJob) error
	// SetBundleSize records the size of a completed job's archive.
	SetBundleSize(ctx context.Context, id string, size int64) error
	DeleteExportJob(ctx context.Context, id string) error
	// PruneIdempotency drops keys past IdempotencyWindow.
	PruneIdempotency(ctx context.Context, now time.Time) error
}

// ClaimStore hands export jobs to workers: who renders a job, until when,
// and whose outcome counts.
type ClaimStore interface {
	// ClaimExport takes the oldest job that is queued, or running under
	// a lease that ended before now, for owner until now+lease: it is
	// marked running, its attempt counted and its progress reset. It
	// returns nil when there is nothing to do. more says whether other
	// jobs were claimable beside the one claimed, so that the caller
	// wakes another worker only when there is work for it: a claim that
	// finds nothing costs a statement on PostgreSQL.
	ClaimExport(ctx context.Context, owner string, now time.Time, lease time.Duration) (claimed *ExportJob, more bool, err error)
	// RenewLease extends the lease of the attempt rec describes to until;
	// ErrLeaseLost when another owner or attempt holds the job now.
	RenewLease(ctx context.Context, rec *ExportJob, until time.Time) error
	// CompleteAttempt writes the outcome of the attempt rec describes,
	// unless the job was taken over since (ErrLeaseLost): a worker that
	// lost its lease must not overwrite the new owner's result.
	CompleteAttempt(ctx context.Context, rec *ExportJob) error

	// Watch calls wake whenever another process may have made a job
	// claimable, until ctx ends; a store only one process uses has
	// nothing to watch and returns at once.
	Watch(ctx context.Context, wake func())
}

var (
	// ErrNoRecord says there is no job with the id asked for.
	ErrNoRecord = errors.New("no such record")
	// ErrLeaseLost says another worker or replica took the job over.
	ErrLeaseLost = errors.New("the export's lease was lost to another worker")
)

// WriteFaults stands in, in tests, for a store that refuses writes: a
// non-nil error from the function given to Fail fails the write before
// the backend sees it.
type WriteFaults struct {
	fail atomic.Pointer[func() error]
	// quiet is held, shared, by the writes whenNone runs: Fail waits
	// for them, so none that began without a fault outlives its install.
	quiet sync.RWMutex
}

// Fail makes every later write call f first and fail with its error, if
// any; nil makes writes succeed again.
func (w *WriteFaults) Fail(f func() error) {
	w.quiet.Lock()
	defer w.quiet.Unlock()
	if f == nil {
		w.fail.Store(nil)
		return
	}
	w.fail.Store(&f)
}

// WhenNone runs fn, and reports true, unless a test has made writes
// fail; Fail waits until fn returns. It is for a write that decides in
// the database whether it writes at all (a claim finds a job or not),
// so that only one that does is counted and failed, as a store that
// checks first and writes after would.
func (w *WriteFaults) WhenNone(fn func()) bool {
	w.quiet.RLock()
	defer w.quiet.RUnlock()
	if w.fail.Load() != nil {
		return false
	}
	fn()
	return true
}

// Check returns the failure a test has set for the next write, if any.
func (w *WriteFaults) Check() error {
	if f := w.fail.Load(); f != nil {
		return (*f)()
	}
	return nil
}

// AgentJob is what is stored of an agent job. The project's agent
// script is copied in, so a later config change does not rewrite history.
type AgentJob struct {
	ID           string        `json:"id"`
	OrgID        string        `json:"orgId"`
	ProjectID    string        `json:"projectId"`
	Prompt       string        `json:"prompt"`
	Repository   string        `json:"repository"`
	Branch       string        `json:"branch"`
	Outcome      string        `json:"outcome"`
	Model        string        `json:"model"`
	Duration     time.Duration `json:"duration"`
	ArchiveAfter time.Duration `json:"archiveAfter"`
	PRNumber     uint64        `json:"prNumber"`
	CreatedAt    time.Time     `json:"createdAt"`
	// Messages are the follow-ups sent to the job, oldest first.
	Messages []AgentMessage `json:"messages,omitempty"`
	// Forced is a state the control plane forced, kept with the job so
	// that it survives a restart and goes when the job goes.
	Forced *AgentForced `json:"forced,omitempty"`
}

// AgentForced is an agent job state forced by the control plane. It
// holds until the job gets another follow-up message: Messages counts
// those it had when forced.
type AgentForced struct {
	Status   string    `json:"status"`
	PRLink   *string   `json:"prLink,omitempty"`
	At       time.Time `json:"at"`
	Messages int       `json:"messages"`
}

// Pinned is the lease of a job the control plane pinned (held, or forced
// running): a lease that never ends, so no worker claims the job, and
// one that ReleaseLeases keeps, so the pin survives a restart.
var Pinned = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)

// AgentMessage is one follow-up of an agent job. Like the job, it copies
// the project's agent script as it was when the message arrived. The
// prompt is not kept: the reference agent does not read it, and a job's
// record, rewritten on every message, would otherwise grow by up to 64 KiB
// a message for as long as the job is retained.
type AgentMessage struct {
	At       time.Time     `json:"at"`
	Outcome  string        `json:"outcome"`
	Duration time.Duration `json:"duration"`
}

// ExportJob is what is stored of a static export job.
type ExportJob struct {
	JobID     string    `json:"jobId"`
	OrgID     string    `json:"orgId"`
	Domain    string    `json:"domain"`
	Label     string    `json:"label,omitempty"`
	Paths     []string  `json:"paths,omitempty"`
	Status    string    `json:"status"`
	Progress  float64   `json:"progress"`
	PageCount int       `json:"pageCount"`
	Error     string    `json:"error,omitempty"`
	Attempts  int       `json:"attempts"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
	// Version is the export's content hash from its manifest.
	Version string `json:"version,omitempty"`
	// Warnings of the last attempt, nil when there were none.
	Warnings *api.ExportWarnings `json:"warnings,omitempty"`
	// BundleSize is set once the archive has been built and synced.
	BundleSize int64 `json:"bundleSize,omitempty"`
	// SitePrefix is where the job's objects live in the object store:
	// the prefix of the attempt that completed it, holding its archive
	// (or, written by older servers, its site in pieces). Empty without
	// a store.
	SitePrefix string `json:"sitePrefix,omitempty"`
	// SiteBytes is the size of the rendered site where it is kept (on
	// local disk, or in pieces by older servers' object stores; zero
	// where the store holds only the archive), counted against the
	// organization's maxStoredBytes with BundleSize.
	SiteBytes int64 `json:"siteBytes,omitempty"`
	// Owner is the worker (process and goroutine) holding the job while
	// it runs, until LeaseUntil; with Attempts it fences the outcome.
	Owner      string    `json:"owner,omitempty"`
	LeaseUntil time.Time `json:"leaseUntil,omitzero"`
}

// Claimable reports whether a worker may take the job at now.
func (r *ExportJob) Claimable(now time.Time) bool {
	return r.Status == api.ExportQueued || (r.Status == api.ExportRunning && r.LeaseUntil.Before(now))
}

// Creation is what CreateExportJob checks beside the record, and whom it
// tells of the new job.
type Creation struct {
	// IdempotencyKey names the request ("" for none); a later start with
	// the same key and RequestHash is the same request.
	IdempotencyKey, RequestHash string
	Limits                      Limits
	// ClaimedHere says an idle worker of the creating server was promised
	// the job: the other replicas are not woken for it, since theirs
	// would race that worker for it and all but one find nothing.
	ClaimedHere bool
}

// Limits are the per-organization bounds checked when a job is
// created; zero disables a bound.
type Limits struct {
	Active int   // queued + running
	Stored int   // every job kept, whatever its status
	Bytes  int64 // their rendered sites and archives
}

// Check refuses one more job for an organization that already has active
// queued or running jobs, stored jobs in all and size bytes stored; both
// stores call it inside the transaction that inserts the job.
func (lim Limits) Check(active, stored int, size int64) error {
	switch {
	case lim.Active > 0 && active >= lim.Active:
		return ErrTooManyActive
	case lim.Stored > 0 && stored >= lim.Stored:
		return ErrTooManyStored
	case lim.Bytes > 0 && size >= lim.Bytes:
		return ErrTooManyBytes
	}
	return nil
}

// Reasons CreateExportJob refuses a job.
var (
	ErrTooManyActive = errors.New("too many active exports")
	ErrTooManyStored = errors.New("too many stored exports")
	ErrTooManyBytes  = errors.New("too many stored bytes")
)

// TakeOver turns rec into a new attempt owned by owner: running, counted,
// rendered afresh.
func TakeOver(rec *ExportJob, owner string, now time.Time, lease time.Duration) {
	rec.Status, rec.Progress, rec.PageCount = api.ExportRunning, 0, 0
	rec.Attempts++
	rec.Owner, rec.LeaseUntil, rec.UpdatedAt = owner, now.Add(lease), now.UTC()
	rec.Warnings = nil // a resumed job renders, and warns, afresh
}

// Holds reports whether cur is still the attempt mine describes.
func Holds(cur, mine *ExportJob) bool {
	return cur.Status == api.ExportRunning && cur.Owner == mine.Owner && cur.Attempts == mine.Attempts
}

// ExtendLease moves cur's lease to until and records the progress mine
// carries, so that a replica other than the renderer, which has no live
// view of the render, answers with progress at most one renewal old.
func ExtendLease(cur, mine *ExportJob, until time.Time) {
	cur.LeaseUntil = until
	if mine.PageCount > cur.PageCount {
		cur.Progress, cur.PageCount, cur.UpdatedAt = mine.Progress, mine.PageCount, mine.UpdatedAt
	}
}

// PoolStats are the PostgreSQL connection pool's figures, for metrics.
type PoolStats struct {
	// Acquires counts connections taken from the pool, one per query or
	// transaction: the store's round trips, give or take a statement.
	Acquires int64
	// Waits counts acquisitions that found every connection taken;
	// AcquireTime is the time all acquisitions took, mostly such waits.
	Waits       int64
	AcquireTime time.Duration
	InUse       int32
	Idle        int32
	Max         int32
	// PollsFromMemory counts the status polls answered from the memo of
	// job records, without a round trip; ChangesHeard says whether the
	// connection that keeps it told of changes listens now (while it
	// does not, every poll is a query).
	PollsFromMemory int64
	ChangesHeard    bool
}
