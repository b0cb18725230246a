package agents

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/httpapi"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
)

// maxPendingMessages bounds the follow-ups a job holds that the agent has
// not finished yet. One more is refused with 429 and a Retry-After of when
// the first of them will be done: the reference documents 429 for this
// operation, so a client made for it already knows to back off, where a
// 409 would be an answer it was never told about.
const maxPendingMessages = 10

// SendAgentMessage queues a follow-up for an agent job. The agent takes it
// up once it has finished what it was doing (the prompt and any earlier
// follow-ups), so the job stays active until all of them are done.
func (ag *API) SendAgentMessage(w http.ResponseWriter, r *http.Request) error {
	s := ag
	org := ag.host.Org(r.Context())
	project, err := ag.agentProject(org, r.PathValue("projectId"))
	if err != nil {
		return err
	}
	var req api.SendAgentMessageRequest
	if err := decodePrompt(r, &req, &req.Prompt); err != nil {
		return err
	}
	id := r.PathValue("id")
	errMissing := httpapi.NotFound("agent job %q not found in project %q", id, project.ID)
	if !apiconfig.IDPattern.MatchString(id) {
		return errMissing
	}
	now := s.clock.Now().UTC()
	msg := jobstore.AgentMessage{At: now, Outcome: project.Agent.Outcome, Duration: time.Duration(project.Agent.Duration)}
	// accept runs inside the store's transaction, so two messages racing
	// for the last pending slot cannot both get it.
	accept := func(rec *jobstore.AgentJob) error {
		// Another organization's or project's job is indistinguishable
		// from one that does not exist.
		if rec.OrgID != org.ID || rec.ProjectID != project.ID || s.expired(rec.CreatedAt) {
			return errMissing
		}
		if JobView(rec, now).Status == api.AgentArchived {
			return httpapi.BadRequest("agent job %q is archived and takes no more messages; create a new job", id)
		}
		if pending := pendingMessages(rec, now); len(pending) >= maxPendingMessages {
			wait := retryAfterSeconds(pending[0].end.Sub(now))
			return &httpapi.Error{Status: http.StatusTooManyRequests, RetryAfter: wait,
				Msg: fmt.Sprintf("agent job %q already has %d follow-up messages waiting; retry in %d s", id, len(pending), wait)}
		}
		return nil
	}
	limit := s.cfg.JobsPerHour(project)
	rec, oldest, limited, err := s.store.AddAgentMessage(r.Context(), id, msg, limit, now.Add(-time.Hour), accept)
	var herr *httpapi.Error
	switch {
	case errors.Is(err, jobstore.ErrNoRecord):
		return errMissing
	case errors.As(err, &herr):
		return err
	case err != nil:
		return httpapi.StoreError("store agent message", err)
	case limited:
		return agentRateLimited(project, limit, oldest, now)
	}
	httpapi.WriteJSON(w, http.StatusOK, agentView(rec, now))
	return nil
}

// agentRateLimited is the 429 for a project that has had limit agent jobs
// and follow-ups in the hour up to now, the oldest of them at oldest.
func agentRateLimited(project *apiconfig.Project, limit int, oldest, now time.Time) error {
	wait := retryAfterSeconds(oldest.Add(time.Hour).Sub(now))
	return &httpapi.Error{Status: http.StatusTooManyRequests, RetryAfter: wait,
		Msg: fmt.Sprintf("rate limit exceeded: project %q allows %d agent jobs per hour (follow-up messages count as jobs); retry in %d s",
			project.ID, limit, wait)}
}

// retryAfterSeconds rounds d up to whole seconds, at least one.
func retryAfterSeconds(d time.Duration) int {
	return max(1, int(math.Ceil(d.Seconds())))
}

// agentRun is one piece of the agent's work on a job: the prompt, or a
// follow-up message.
type agentRun struct {
	start, end time.Time
	outcome    string
}

// agentRuns lays a job's work out in time. The agent works on one thing
// at a time: a follow-up starts when it arrives or when the work before it
// ends, whichever is later.
func agentRuns(rec *jobstore.AgentJob) []agentRun {
	runs := make([]agentRun, 0, 1+len(rec.Messages))
	runs = append(runs, agentRun{start: rec.CreatedAt, end: rec.CreatedAt.Add(rec.Duration), outcome: rec.Outcome})
	for _, m := range rec.Messages {
		start := m.At
		if prev := runs[len(runs)-1].end; prev.After(start) {
			start = prev
		}
		runs = append(runs, agentRun{start: start, end: start.Add(m.Duration), outcome: m.Outcome})
	}
	return runs
}

// pendingMessages are the runs of follow-ups not finished at now, in
// order.
func pendingMessages(rec *jobstore.AgentJob, now time.Time) []agentRun {
	runs := agentRuns(rec)[1:]
	for i, run := range runs {
		if now.Before(run.end) {
			return runs[i:]
		}
	}
	return nil
}
