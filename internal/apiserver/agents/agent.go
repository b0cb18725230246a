package agents

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/httpapi"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
	"github.com/hashicorp/go-hclog"
)

// The reference agent does no real work: each project scripts what its jobs
// do (config `agent`). A job is active for `duration` after it is created,
// then completes with a pull request under the project's repository,
// completes without changes, or fails; with `archiveAfter` a finished job is
// archived that long after it finished. A follow-up message is worked on
// the same way, after whatever the job was still doing (message.go).
// The state is derived from the stored times and the clock on every read,
// so it needs no timers, moves with an injected clock and is the same after
// a restart.

// API answers the agent job and documentation update operations
// (agent.go, message.go, updates.go). It holds no state of its own: the
// records are in the server's store, and their states follow from them
// and the clock.
type API struct {
	cfg   *apiconfig.Config
	store jobstore.Store
	clock clock.Clock
	log   hclog.Logger
	// checker checks that a docs source loads, as an export would.
	checker Checker
	host    Host
	// snapshots and checks are semaphores of the updates' snapshots and
	// build checks; checking holds the ids of updates being checked, and
	// reserved the triggers between their limit check and the store's
	// (snapshot.go).
	snapshots, checks chan struct{}
	checking          sync.Map
	reserved          reservations
}

// Host is what the handlers need of the server around them.
type Host interface {
	// Org is the organization that authenticated the request.
	Org(ctx context.Context) *apiconfig.Organization
	// NewID returns prefix followed by random hex digits.
	NewID(prefix string) (string, error)
	// Expired reports whether a job created at t has outlived the
	// retention.
	Expired(t time.Time) bool
	// Go runs fn in the background until the server closes, which
	// cancels ctx and waits for fn to return.
	Go(fn func(ctx context.Context))
}

// Checker loads a docs source's docs.json as an export would, within its
// limits and until ctx ends; the server's exporter is one.
type Checker interface {
	CheckConfig(ctx context.Context, src fs.FS) error
}

// Options configure an API; every field is required.
type Options struct {
	Config  *apiconfig.Config
	Store   jobstore.Store
	Clock   clock.Clock
	Log     hclog.Logger
	Checker Checker
	Host    Host
}

// New returns the agent and documentation update handlers.
func New(o Options) *API {
	return &API{cfg: o.Config, store: o.Store, clock: o.Clock, log: o.Log, checker: o.Checker, host: o.Host,
		snapshots: make(chan struct{}, maxSnapshots), checks: make(chan struct{}, 1)}
}

func (ag *API) newID(prefix string) (string, error) { return ag.host.NewID(prefix) }

func (ag *API) expired(t time.Time) bool { return ag.host.Expired(t) }

const maxPromptBytes = 64 << 10

// decodePrompt decodes a body that carries a prompt (a new job's or a
// follow-up's) into req, and checks the prompt, which req holds at prompt.
func decodePrompt(r *http.Request, req any, prompt *string) error {
	if err := httpapi.DecodeJSON(r, req); err != nil {
		return err
	}
	if strings.TrimSpace(*prompt) == "" {
		return httpapi.BadRequest("prompt must not be empty")
	}
	if len(*prompt) > maxPromptBytes {
		return httpapi.BadRequest("prompt exceeds %d bytes", maxPromptBytes)
	}
	return nil
}

// CreateAgentJob answers POST /v2/agent/{projectId}/job: a new job of the
// caller's project, within the project's hourly limit.
func (ag *API) CreateAgentJob(w http.ResponseWriter, r *http.Request) error {
	s := ag
	org := ag.host.Org(r.Context())
	project, err := ag.agentProject(org, r.PathValue("projectId"))
	if err != nil {
		return err
	}
	var req api.CreateAgentJobRequest
	if err := decodePrompt(r, &req, &req.Prompt); err != nil {
		return err
	}
	id, err := s.newID("aj_")
	if err != nil {
		return err
	}
	now := s.clock.Now().UTC()
	rec := &jobstore.AgentJob{
		ID: id, OrgID: org.ID, ProjectID: project.ID, Prompt: req.Prompt,
		Repository: project.Repository, Branch: project.Branch,
		Outcome: project.Agent.Outcome, Model: project.Agent.Model,
		Duration:     time.Duration(project.Agent.Duration),
		ArchiveAfter: time.Duration(project.Agent.ArchiveAfter),
		CreatedAt:    now,
	}
	limit := s.cfg.JobsPerHour(project)
	oldest, limited, err := s.store.CreateAgentJob(r.Context(), rec, limit, now.Add(-time.Hour))
	if err != nil {
		return httpapi.StoreError("store agent job", err)
	}
	if limited {
		return agentRateLimited(project, limit, oldest, now)
	}
	w.Header().Set("Location", strings.NewReplacer("{projectId}", project.ID, "{id}", id).Replace(api.PathAgentJob))
	httpapi.WriteJSON(w, http.StatusCreated, agentView(rec, now))
	return nil
}

// GetAgentJob answers GET /v2/agent/{projectId}/job/{id}: the job as it
// stands now, with any forced state laid over it.
func (ag *API) GetAgentJob(w http.ResponseWriter, r *http.Request) error {
	s := ag
	org := ag.host.Org(r.Context())
	project, err := ag.agentProject(org, r.PathValue("projectId"))
	if err != nil {
		return err
	}
	id := r.PathValue("id")
	errMissing := httpapi.NotFound("agent job %q not found in project %q", id, project.ID)
	if !apiconfig.IDPattern.MatchString(id) {
		return errMissing
	}
	rec, err := s.store.AgentJob(r.Context(), id)
	if errors.Is(err, jobstore.ErrNoRecord) {
		return errMissing
	}
	if err != nil {
		return fmt.Errorf("load agent job: %w", err)
	}
	// Another organization's or project's job is indistinguishable from
	// one that does not exist.
	if rec.OrgID != org.ID || rec.ProjectID != project.ID || s.expired(rec.CreatedAt) {
		return errMissing
	}
	httpapi.WriteJSON(w, http.StatusOK, JobView(rec, s.clock.Now()))
	return nil
}

// agentProject resolves a project id of the caller's organization.
func (ag *API) agentProject(org *apiconfig.Organization, id string) (*apiconfig.Project, error) {
	if apiconfig.IDPattern.MatchString(id) {
		if p := org.Project(id); p != nil {
			return p, nil
		}
	}
	return nil, httpapi.NotFound("project %q not found", id)
}

// agentView is the job as the API shows it at time now: active until the
// last of its runs (the prompt, then each follow-up) has finished, then
// as that run ended. The pull request, once one was opened, stays the
// job's: follow-ups push to the same branch.
func agentView(rec *jobstore.AgentJob, now time.Time) api.AgentJob {
	job := api.AgentJob{
		ID:        rec.ID,
		Status:    api.AgentActive,
		Source:    api.AgentSource{Repository: rec.Repository},
		Model:     rec.Model,
		CreatedAt: rec.CreatedAt.UTC(),
	}
	if rec.Branch != "" {
		ref := rec.Branch
		job.Source.Ref = &ref
	}
	runs := agentRuns(rec)
	last := runs[len(runs)-1]
	if now.Before(last.end) {
		return job
	}
	for _, run := range runs {
		if run.outcome == apiconfig.OutcomePullRequest {
			link := fmt.Sprintf("%s/pull/%d", rec.Repository, rec.PRNumber)
			job.PRLink = &link
			break
		}
	}
	if last.outcome == apiconfig.OutcomeFail {
		job.Status = api.AgentFailed
		return job
	}
	job.Status = api.AgentCompleted
	if rec.ArchiveAfter > 0 {
		if at := last.end.Add(rec.ArchiveAfter); !now.Before(at) {
			at = at.UTC()
			job.Status = api.AgentArchived
			job.ArchivedAt = &at
		}
	}
	return job
}

// JobView is agentView with a forced state laid over it. A forced
// state holds until the job's next follow-up message.
func JobView(rec *jobstore.AgentJob, now time.Time) api.AgentJob {
	job := agentView(rec, now)
	ov := rec.Forced
	if ov == nil || len(rec.Messages) > ov.Messages {
		return job
	}
	job.Status, job.ArchivedAt = ov.Status, nil
	switch ov.Status {
	case api.AgentCompleted:
		if ov.PRLink != nil {
			link := *ov.PRLink
			job.PRLink = &link
		} else if job.PRLink == nil && rec.Outcome == apiconfig.OutcomePullRequest {
			link := fmt.Sprintf("%s/pull/%d", rec.Repository, rec.PRNumber)
			job.PRLink = &link
		}
	case api.AgentArchived:
		at := ov.At
		job.ArchivedAt = &at
	}
	return job
}
