package apiserver

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// jobStore is where the server keeps its state: agent jobs, export jobs
// with their claims and leases, idempotency keys and counters. boltStore
// (one file, one process) is the embedded default; pgStore (PostgreSQL)
// is shared by replicas. Every check-and-write that a limit or a claim
// depends on is one method, so each backend can make it one transaction.
type jobStore interface {
	// createAgentJob stores rec unless the project already has limit jobs
	// created after since; then it returns the creation time of the oldest
	// of those, from which the caller computes Retry-After. It numbers the
	// job's pull request from the project's counter.
	createAgentJob(rec *agentJobRecord, limit int, since time.Time) (oldest time.Time, limited bool, err error)
	agentJob(id string) (*agentJobRecord, error)
	// addAgentMessage appends msg to job id in one transaction: accept
	// sees the stored record first and may refuse (its error is
	// returned as is; errNoRecord when there is no such job); then the
	// project's jobs and messages created after since are counted
	// against limit as createAgentJob does. It returns the record with
	// the message appended.
	addAgentMessage(id string, msg agentMessage, limit int, since time.Time,
		accept func(*agentJobRecord) error) (rec *agentJobRecord, oldest time.Time, limited bool, err error)
	// deleteAgentJobsBefore drops agent jobs created before cutoff.
	deleteAgentJobsBefore(cutoff time.Time) (int, error)

	// createExportJob stores rec with its checks: an earlier start with
	// the same idempotency key returns that job instead (or
	// errIdempotencyConflict), and the organization's limits refuse it
	// with errTooManyActive, errTooManyStored or errTooManyBytes.
	createExportJob(rec *exportJobRecord, idemKey, hash string, lim exportLimits) (existing *exportJobRecord, err error)
	exportJob(id string) (*exportJobRecord, error)
	// exportJobs returns every export job, for recovery and the sweep.
	exportJobs() ([]*exportJobRecord, error)
	// putExportJob overwrites a job record unconditionally: for jobs no
	// worker holds (recovery of a completed job whose files are gone).
	putExportJob(rec *exportJobRecord) error
	// setBundleSize records the size of a completed job's archive.
	setBundleSize(id string, size int64) error
	deleteExportJob(id string) error
	// pruneIdempotency drops keys past idempotencyWindow.
	pruneIdempotency(now time.Time) error

	// claimExport takes the oldest job that is queued, or running under
	// a lease that ended before now, for owner until now+lease: it is
	// marked running, its attempt counted and its progress reset. It
	// returns nil when there is nothing to do.
	claimExport(owner string, now time.Time, lease time.Duration) (*exportJobRecord, error)
	// renewLease extends the lease of the attempt rec describes to until;
	// errLeaseLost when another owner or attempt holds the job now.
	renewLease(rec *exportJobRecord, until time.Time) error
	// completeAttempt writes the outcome of the attempt rec describes,
	// unless the job was taken over since (errLeaseLost): a worker that
	// lost its lease must not overwrite the new owner's result.
	completeAttempt(rec *exportJobRecord) error

	// watch calls wake whenever another process may have made a job
	// claimable, until ctx ends; a store only one process uses has
	// nothing to watch and returns at once.
	watch(ctx context.Context, wake func())

	// ping reports whether the store can be reached, for /readyz.
	ping(ctx context.Context) error

	// faults lets tests make writes fail as a full disk or a lost
	// database would.
	faults() *writeFaults
	close() error
}

var (
	errNoRecord = errors.New("no such record")
	// errLeaseLost says another worker or replica took the job over.
	errLeaseLost = errors.New("the export's lease was lost to another worker")
)

// writeFaults stands in, in tests (export_test.go), for a store that
// refuses writes: a non-nil error from the function fails the write
// before the backend sees it.
type writeFaults struct {
	fail atomic.Pointer[func() error]
}

func (w *writeFaults) check() error {
	if f := w.fail.Load(); f != nil {
		return (*f)()
	}
	return nil
}

// agentJobRecord is what is stored of an agent job. The project's agent
// script is copied in, so a later config change does not rewrite history.
type agentJobRecord struct {
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
	Messages []agentMessage `json:"messages,omitempty"`
}

// agentMessage is one follow-up of an agent job. Like the job, it copies
// the project's agent script as it was when the message arrived. The
// prompt is not kept: the reference agent does not read it, and a job's
// record, rewritten on every message, would otherwise grow by up to 64 KiB
// a message for as long as the job is retained.
type agentMessage struct {
	At       time.Time     `json:"at"`
	Outcome  string        `json:"outcome"`
	Duration time.Duration `json:"duration"`
}

// exportJobRecord is what is stored of a static export job.
type exportJobRecord struct {
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
	// SitePrefix is where the job's site lives in the object store: the
	// prefix of the attempt that completed it. Empty without a store.
	SitePrefix string `json:"sitePrefix,omitempty"`
	// SiteBytes is the size of the rendered site, counted against the
	// organization's maxStoredBytes with BundleSize.
	SiteBytes int64 `json:"siteBytes,omitempty"`
	// Owner is the worker (process and goroutine) holding the job while
	// it runs, until LeaseUntil; with Attempts it fences the outcome.
	Owner      string    `json:"owner,omitempty"`
	LeaseUntil time.Time `json:"leaseUntil,omitzero"`
}

// claimable reports whether a worker may take the job at now.
func (r *exportJobRecord) claimable(now time.Time) bool {
	return r.Status == api.ExportQueued || (r.Status == api.ExportRunning && r.LeaseUntil.Before(now))
}

// exportLimits are the per-organization bounds checked when a job is
// created; zero disables a bound.
type exportLimits struct {
	active int   // queued + running
	stored int   // every job kept, whatever its status
	bytes  int64 // their rendered sites and archives
}

// check refuses one more job for an organization that already has active
// queued or running jobs, stored jobs in all and size bytes stored; both
// stores call it inside the transaction that inserts the job.
func (lim exportLimits) check(active, stored int, size int64) error {
	switch {
	case lim.active > 0 && active >= lim.active:
		return errTooManyActive
	case lim.stored > 0 && stored >= lim.stored:
		return errTooManyStored
	case lim.bytes > 0 && size >= lim.bytes:
		return errTooManyBytes
	}
	return nil
}

// Reasons createExportJob refuses a job.
var (
	errTooManyActive = errors.New("too many active exports")
	errTooManyStored = errors.New("too many stored exports")
	errTooManyBytes  = errors.New("too many stored bytes")
)

// takeOver turns rec into a new attempt owned by owner: running, counted,
// rendered afresh.
func takeOver(rec *exportJobRecord, owner string, now time.Time, lease time.Duration) {
	rec.Status, rec.Progress, rec.PageCount = api.ExportRunning, 0, 0
	rec.Attempts++
	rec.Owner, rec.LeaseUntil, rec.UpdatedAt = owner, now.Add(lease), now.UTC()
	rec.Warnings = nil // a resumed job renders, and warns, afresh
}

// holds reports whether cur is still the attempt mine describes.
func holds(cur, mine *exportJobRecord) bool {
	return cur.Status == api.ExportRunning && cur.Owner == mine.Owner && cur.Attempts == mine.Attempts
}

// extendLease moves cur's lease to until and records the progress mine
// carries, so that a replica other than the renderer, which has no live
// view of the render, answers with progress at most one renewal old.
func extendLease(cur, mine *exportJobRecord, until time.Time) {
	cur.LeaseUntil = until
	if mine.PageCount > cur.PageCount {
		cur.Progress, cur.PageCount, cur.UpdatedAt = mine.Progress, mine.PageCount, mine.UpdatedAt
	}
}
