package control

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/httpapi"
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

func (cp *Plane) controlExportState(w http.ResponseWriter, r *http.Request) error {
	s := cp.host
	var req api.ControlExportState
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		return err
	}
	id := r.PathValue("jobId")
	rec, err := s.LoadExport(r.Context(), id)
	if err != nil {
		return err
	}
	if req.Progress != nil && req.Status != api.ExportRunning {
		return httpapi.BadRequest("progress is only for status %q", api.ExportRunning)
	}
	if req.Error != "" && req.Status != api.ExportFailed {
		return httpapi.BadRequest("error is only for status %q", api.ExportFailed)
	}
	now := cp.clock.clock.Now().UTC()
	rec.UpdatedAt = now
	switch req.Status {
	case api.ExportRunning:
		progress := 0.0
		if req.Progress != nil {
			progress = *req.Progress
		}
		if progress < 0 || progress > 99 {
			return httpapi.BadRequest("progress %v: want 0 to 99 (100 is completed)", progress)
		}
		rec.Status, rec.Progress, rec.Error = api.ExportRunning, progress, ""
		rec.Owner, rec.LeaseUntil = pinOwner, farFuture
	case api.ExportFailed:
		msg := req.Error
		if msg == "" {
			msg = "the export failed (forced by the control plane)"
		}
		if len(msg) > maxErrorLen {
			return httpapi.BadRequest("error exceeds %d bytes", maxErrorLen)
		}
		rec.Status, rec.Error, rec.Owner, rec.LeaseUntil = api.ExportFailed, msg, "", time.Time{}
	case api.ExportCompleted:
		return cp.forceCompleted(w, r, rec)
	default:
		return httpapi.BadRequest("status %q: want running, failed or completed", req.Status)
	}
	if err := s.Store().PutExportJob(r.Context(), rec); err != nil {
		return httpapi.StoreError("store export job", err)
	}
	cp.log.Info("control: export state forced", "job", id, "status", rec.Status)
	httpapi.WriteJSON(w, http.StatusOK, s.ExportView(rec))
	return nil
}

// forceCompleted completes a job: at once if its site was rendered (it
// was completed before a forced state), else by queueing it for a worker
// and waiting for the render.
func (cp *Plane) forceCompleted(w http.ResponseWriter, r *http.Request, rec *jobstore.ExportJob) error {
	s := cp.host
	if rec.Version != "" && s.SiteExists(rec) {
		rec.Status, rec.Progress, rec.Error, rec.Owner, rec.LeaseUntil = api.ExportCompleted, 100, "", "", time.Time{}
		if err := s.Store().PutExportJob(r.Context(), rec); err != nil {
			return httpapi.StoreError("store export job", err)
		}
		httpapi.WriteJSON(w, http.StatusOK, s.ExportView(rec))
		return nil
	}
	// A job a worker has queued or is rendering is left to it; anything
	// else (held, forced, failed, or completed with its files gone) is
	// queued afresh.
	working := (rec.Status == api.ExportQueued && rec.Owner == "") ||
		(rec.Status == api.ExportRunning && rec.Owner != HoldOwner && rec.Owner != pinOwner)
	if !working {
		rec.Status, rec.Progress, rec.Error, rec.Owner, rec.LeaseUntil, rec.Attempts = api.ExportQueued, 0, "", "", time.Time{}, 0
		if err := s.Store().PutExportJob(r.Context(), rec); err != nil {
			return httpapi.StoreError("store export job", err)
		}
		s.WakeWorkers()
	}
	deadline := time.Now().Add(maxForcedRender)
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		cur, err := s.LoadExport(r.Context(), rec.JobID)
		if err != nil {
			return err
		}
		switch {
		case cur.Status == api.ExportCompleted && cur.Owner == "":
			httpapi.WriteJSON(w, http.StatusOK, s.ExportView(cur))
			return nil
		case cur.Status == api.ExportFailed:
			return httpapi.Errorf(http.StatusConflict, "the job was rendered for real and failed: %s", cur.Error)
		case cur.Owner == HoldOwner || cur.Owner == pinOwner:
			return httpapi.Errorf(http.StatusConflict, "the job was held or forced again while it rendered")
		case time.Now().After(deadline):
			return httpapi.Errorf(http.StatusGatewayTimeout, "the job did not finish rendering within %s; it goes on", maxForcedRender)
		}
		if err := clock.Sleep(r.Context(), wait); err != nil {
			return httpapi.Errorf(http.StatusServiceUnavailable, "the request ended while the job rendered; it goes on")
		}
	}
}

// controlHold holds or releases an organization's exports.
func (cp *Plane) controlHold(w http.ResponseWriter, r *http.Request) error {
	var req api.ControlHold
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		return err
	}
	if cp.orgs.Find(req.Organization) == nil {
		return httpapi.NotFound("organization %q not found", req.Organization)
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
		return httpapi.StoreError("store the hold", err)
	}
	if !hold {
		if err := cp.releaseHeld(r.Context(), req.Organization); err != nil {
			return err
		}
	}
	cp.log.Info("control: exports held", "organization", req.Organization, "hold", hold)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// isHeld reports whether new exports of org are to be held; never on a
// server without a control plane (a nil cp).
func (cp *Plane) isHeld(org string) bool {
	if cp == nil {
		return false
	}
	cp.mu.Lock()
	defer cp.mu.Unlock()
	return cp.held[org]
}

// HoldNew marks a job about to be created as held, if its organization
// is; never on a server without a control plane (a nil cp).
func (cp *Plane) HoldNew(rec *jobstore.ExportJob) {
	if cp.isHeld(rec.OrgID) {
		rec.Status, rec.Owner, rec.LeaseUntil = api.ExportRunning, HoldOwner, farFuture
	}
}

// releaseHeld queues an organization's held jobs for the workers.
func (cp *Plane) releaseHeld(ctx context.Context, org string) error {
	s := cp.host
	jobs, err := s.Store().ExportJobs(ctx)
	if err != nil {
		return fmt.Errorf("list export jobs: %w", err)
	}
	for _, rec := range jobs {
		if rec.OrgID == org && rec.Owner == HoldOwner {
			rec.Status, rec.Owner, rec.LeaseUntil = api.ExportQueued, "", time.Time{}
			if err := s.Store().PutExportJob(ctx, rec); err != nil {
				return httpapi.StoreError("store export job", err)
			}
		}
	}
	s.WakeWorkers()
	return nil
}

func (cp *Plane) controlAgentState(w http.ResponseWriter, r *http.Request) error {
	s := cp.host.Store()
	var req api.ControlAgentState
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		return err
	}
	projectID, id := r.PathValue("projectId"), r.PathValue("id")
	errMissing := httpapi.NotFound("agent job %q not found in project %q", id, projectID)
	if !apiconfig.IDPattern.MatchString(id) {
		return errMissing
	}
	rec, err := s.AgentJob(r.Context(), id)
	if errors.Is(err, jobstore.ErrNoRecord) || (err == nil && rec.ProjectID != projectID) {
		return errMissing
	}
	if err != nil {
		return fmt.Errorf("load agent job: %w", err)
	}
	switch req.Status {
	case api.AgentCompleted, api.AgentFailed, api.AgentArchived:
	default:
		return httpapi.BadRequest("status %q: want completed, failed or archived", req.Status)
	}
	if req.PRLink != nil && req.Status != api.AgentCompleted {
		return httpapi.BadRequest("prLink is only for status %q", api.AgentCompleted)
	}
	// The forced state is part of the job's record, like the state a
	// message moves: it survives a restart and goes with the job.
	now := cp.clock.clock.Now().UTC()
	rec, err = s.ForceAgentState(r.Context(), id, &jobstore.AgentForced{
		Status: req.Status, PRLink: req.PRLink, At: now, Messages: len(rec.Messages)})
	if errors.Is(err, jobstore.ErrNoRecord) {
		return errMissing
	}
	if err != nil {
		return httpapi.StoreError("store agent job state", err)
	}
	cp.log.Info("control: agent job state forced", "job", id, "status", req.Status)
	httpapi.WriteJSON(w, http.StatusOK, cp.host.AgentJobView(rec, now))
	return nil
}
