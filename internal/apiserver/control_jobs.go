package apiserver

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
)

// Forced job states. An export is forced through its stored record: a
// job held or forced running is stored as running under a lease no worker
// will take (farFuture), so it stays put across workers and replicas
// until the control plane lets it go; a worker rendering it when it was
// forced loses its lease and its outcome is discarded. "completed" is
// never faked: a job without a rendered site is rendered for real (the
// request waits for it), so its bundle downloads like any other.

// maxForcedRender bounds how long a forced completion waits for the render.
const maxForcedRender = 2 * time.Minute

// maxErrorLen bounds a forced error message.
const maxErrorLen = 4096

func (cp *controlPlane) controlExportState(w http.ResponseWriter, r *http.Request) error {
	s := cp.srv
	var req api.ControlExportState
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	id := r.PathValue("jobId")
	rec, err := s.exports.loadExport(id)
	if err != nil {
		return err
	}
	if req.Progress != nil && req.Status != api.ExportRunning {
		return badRequest("progress is only for status %q", api.ExportRunning)
	}
	if req.Error != "" && req.Status != api.ExportFailed {
		return badRequest("error is only for status %q", api.ExportFailed)
	}
	now := s.clock.Now().UTC()
	rec.UpdatedAt = now
	switch req.Status {
	case api.ExportRunning:
		progress := 0.0
		if req.Progress != nil {
			progress = *req.Progress
		}
		if progress < 0 || progress > 99 {
			return badRequest("progress %v: want 0 to 99 (100 is completed)", progress)
		}
		rec.Status, rec.Progress, rec.Error = api.ExportRunning, progress, ""
		rec.Owner, rec.LeaseUntil = pinOwner, farFuture
	case api.ExportFailed:
		msg := req.Error
		if msg == "" {
			msg = "the export failed (forced by the control plane)"
		}
		if len(msg) > maxErrorLen {
			return badRequest("error exceeds %d bytes", maxErrorLen)
		}
		rec.Status, rec.Error, rec.Owner, rec.LeaseUntil = api.ExportFailed, msg, "", time.Time{}
	case api.ExportCompleted:
		return cp.forceCompleted(w, r, rec)
	default:
		return badRequest("status %q: want running, failed or completed", req.Status)
	}
	if err := s.store.PutExportJob(rec); err != nil {
		return storeError("store export job", err)
	}
	s.log.Info("control: export state forced", "job", id, "status", rec.Status)
	writeJSON(w, http.StatusOK, s.exports.exportView(rec))
	return nil
}

// forceCompleted completes a job: at once if its site was rendered (it
// was completed before a forced state), else by queueing it for a worker
// and waiting for the render.
func (cp *controlPlane) forceCompleted(w http.ResponseWriter, r *http.Request, rec *jobstore.ExportJob) error {
	s := cp.srv
	if rec.Version != "" && cp.siteExists(rec) {
		rec.Status, rec.Progress, rec.Error, rec.Owner, rec.LeaseUntil = api.ExportCompleted, 100, "", "", time.Time{}
		if err := s.store.PutExportJob(rec); err != nil {
			return storeError("store export job", err)
		}
		writeJSON(w, http.StatusOK, s.exports.exportView(rec))
		return nil
	}
	// A job a worker has queued or is rendering is left to it; anything
	// else (held, forced, failed, or completed with its files gone) is
	// queued afresh.
	working := (rec.Status == api.ExportQueued && rec.Owner == "") ||
		(rec.Status == api.ExportRunning && rec.Owner != holdOwner && rec.Owner != pinOwner)
	if !working {
		rec.Status, rec.Progress, rec.Error, rec.Owner, rec.LeaseUntil, rec.Attempts = api.ExportQueued, 0, "", "", time.Time{}, 0
		if err := s.store.PutExportJob(rec); err != nil {
			return storeError("store export job", err)
		}
		s.runner.wakeWorkers()
	}
	deadline := time.Now().Add(maxForcedRender)
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		cur, err := s.exports.loadExport(rec.JobID)
		if err != nil {
			return err
		}
		switch {
		case cur.Status == api.ExportCompleted && cur.Owner == "":
			writeJSON(w, http.StatusOK, s.exports.exportView(cur))
			return nil
		case cur.Status == api.ExportFailed:
			return errorf(http.StatusConflict, "the job was rendered for real and failed: %s", cur.Error)
		case cur.Owner == holdOwner || cur.Owner == pinOwner:
			return errorf(http.StatusConflict, "the job was held or forced again while it rendered")
		case time.Now().After(deadline):
			return errorf(http.StatusGatewayTimeout, "the job did not finish rendering within %s; it goes on", maxForcedRender)
		}
		if err := clock.Sleep(r.Context(), wait); err != nil {
			return errorf(http.StatusServiceUnavailable, "the request ended while the job rendered; it goes on")
		}
	}
}

// siteExists reports whether a job's rendered site is still there.
func (cp *controlPlane) siteExists(rec *jobstore.ExportJob) bool {
	s := cp.srv
	if s.objects != nil {
		return rec.SitePrefix != ""
	}
	_, err := os.Stat(s.runner.siteDir(rec.JobID))
	return err == nil
}

// controlHold holds or releases an organization's exports.
func (cp *controlPlane) controlHold(w http.ResponseWriter, r *http.Request) error {
	s := cp.srv
	var req api.ControlHold
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	if s.organization(req.Organization) == nil {
		return notFound("organization %q not found", req.Organization)
	}
	hold := req.Hold == nil || *req.Hold
	c := cp
	c.mu.Lock()
	if hold {
		c.held[req.Organization] = true
	} else {
		delete(c.held, req.Organization)
	}
	err := cp.saveControlStateLocked()
	c.mu.Unlock()
	if err != nil {
		return storeError("store the hold", err)
	}
	if !hold {
		if err := cp.releaseHeld(req.Organization); err != nil {
			return err
		}
	}
	s.log.Info("control: exports held", "organization", req.Organization, "hold", hold)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// isHeld reports whether new exports of org are to be held; never on a
// server without a control plane (a nil cp).
func (cp *controlPlane) isHeld(org string) bool {
	if cp == nil {
		return false
	}
	cp.mu.Lock()
	defer cp.mu.Unlock()
	return cp.held[org]
}

// holdNew marks a job about to be created as held, if its organization is.
func (cp *controlPlane) holdNew(rec *jobstore.ExportJob) {
	if cp.isHeld(rec.OrgID) {
		rec.Status, rec.Owner, rec.LeaseUntil = api.ExportRunning, holdOwner, farFuture
	}
}

// releaseHeld queues an organization's held jobs for the workers.
func (cp *controlPlane) releaseHeld(org string) error {
	s := cp.srv
	jobs, err := s.store.ExportJobs()
	if err != nil {
		return fmt.Errorf("list export jobs: %w", err)
	}
	for _, rec := range jobs {
		if rec.OrgID == org && rec.Owner == holdOwner {
			rec.Status, rec.Owner, rec.LeaseUntil = api.ExportQueued, "", time.Time{}
			if err := s.store.PutExportJob(rec); err != nil {
				return storeError("store export job", err)
			}
		}
	}
	s.runner.wakeWorkers()
	return nil
}

func (cp *controlPlane) controlAgentState(w http.ResponseWriter, r *http.Request) error {
	s := cp.srv
	var req api.ControlAgentState
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	projectID, id := r.PathValue("projectId"), r.PathValue("id")
	errMissing := notFound("agent job %q not found in project %q", id, projectID)
	if !idPattern.MatchString(id) {
		return errMissing
	}
	rec, err := s.store.AgentJob(id)
	if errors.Is(err, jobstore.ErrNoRecord) || (err == nil && rec.ProjectID != projectID) {
		return errMissing
	}
	if err != nil {
		return fmt.Errorf("load agent job: %w", err)
	}
	switch req.Status {
	case api.AgentCompleted, api.AgentFailed, api.AgentArchived:
	default:
		return badRequest("status %q: want completed, failed or archived", req.Status)
	}
	if req.PRLink != nil && req.Status != api.AgentCompleted {
		return badRequest("prLink is only for status %q", api.AgentCompleted)
	}
	// The forced state is part of the job's record, like the state a
	// message moves: it survives a restart and goes with the job.
	now := s.clock.Now().UTC()
	rec, err = s.store.ForceAgentState(id, &jobstore.AgentForced{
		Status: req.Status, PRLink: req.PRLink, At: now, Messages: len(rec.Messages)})
	if errors.Is(err, jobstore.ErrNoRecord) {
		return errMissing
	}
	if err != nil {
		return storeError("store agent job state", err)
	}
	s.log.Info("control: agent job state forced", "job", id, "status", req.Status)
	writeJSON(w, http.StatusOK, agentJobView(rec, now))
	return nil
}

// agentJobView is agentView with a forced state laid over it. A forced
// state holds until the job's next follow-up message.
func agentJobView(rec *jobstore.AgentJob, now time.Time) api.AgentJob {
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
		} else if job.PRLink == nil && rec.Outcome == OutcomePullRequest {
			link := fmt.Sprintf("%s/pull/%d", rec.Repository, rec.PRNumber)
			job.PRLink = &link
		}
	case api.AgentArchived:
		at := ov.At
		job.ArchivedAt = &at
	}
	return job
}
