package agents

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/httpapi"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
)

// Documentation updates redeploy a project's docs from its deployment
// branch. The reference server has no hosting to redeploy, so an update
// is what can be known of one without it: at the trigger it takes a
// snapshot of the project's primary deployment (its first) — the content
// hash as the commit, the files changed since the project's previous
// update, the page count — and, once it has answered, checks that the
// source builds (docs.json loads), which decides how the update ends
// (snapshot.go). Updates of a project run one after another: each is
// queued at least updateQueueTime and until the one before it has ended,
// then in progress for updateBuildTime and until its check is done. Like
// agent jobs, the status is derived from the stored record and the clock
// on every read, so it moves with an injected clock and survives restarts.
const (
	updateQueueTime = time.Second
	updateBuildTime = 3 * time.Second
	// maxRunningUpdates bounds a project's updates that have not ended;
	// one more is a 429 with Retry-After, as the other starts answer.
	maxRunningUpdates = 5
)

// updateIDPattern is the shape of every status id we issue.
var updateIDPattern = regexp.MustCompile(`^upd_[0-9a-f]{16}$`)

// TriggerUpdate answers POST /v1/project/update/{projectId}. It takes no
// body (the reference documents none): one sent is read by nobody, as
// for a bundle.
func (ag *API) TriggerUpdate(w http.ResponseWriter, r *http.Request) error {
	s := ag
	org := ag.host.Org(r.Context())
	project, err := ag.agentProject(org, r.PathValue("projectId"))
	if err != nil {
		return err
	}
	// The limit first, with this trigger's place reserved: nothing of
	// the source is read for a request that is refused.
	now := s.clock.Now().UTC()
	running, firstEnd, err := s.store.RunningUpdates(r.Context(), project.ID, now)
	if err != nil {
		return httpapi.StoreError("count updates", err)
	}
	if !ag.reserved.take(project.ID, running, maxRunningUpdates) {
		return updatesLimited(project, firstEnd, now)
	}
	defer ag.reserved.release(project.ID)
	id, err := s.newID("upd_")
	if err != nil {
		return err
	}
	branch := project.Branch
	if branch == "" {
		branch = "main"
	}
	rec := &jobstore.Update{
		ID: id, OrgID: org.ID, ProjectID: project.ID,
		Repository: project.Repository, Branch: branch, CreatedAt: now,
	}
	if err := ag.snapshotUpdate(r.Context(), project, rec); err != nil {
		return err
	}
	firstEnd, limited, err := s.store.CreateUpdate(r.Context(), rec, maxRunningUpdates, now, func(prev *jobstore.Update) {
		rec.StartAt = now.Add(updateQueueTime)
		var before map[string]string
		if prev != nil {
			rec.StartAt = laterOf(rec.StartAt, prev.EndAt)
			before = prev.Files
		}
		rec.EndAt = rec.StartAt.Add(updateBuildTime)
		rec.Added, rec.Modified, rec.Removed = filesChanged(before, rec.Files)
	})
	if err != nil {
		return httpapi.StoreError("store update", err)
	}
	if limited {
		return updatesLimited(project, firstEnd, now)
	}
	if rec.Pending {
		ag.startCheck(rec.ID, project.ID, project.Deployments[0].SourceFS)
	}
	s.log.Info("documentation update queued", "update", id, "project", project.ID, "starts", rec.StartAt)
	w.Header().Set("Location", api.FillPath(api.PathUpdateStatus, map[string]string{"statusId": id}))
	httpapi.WriteJSON(w, http.StatusAccepted, api.TriggerUpdateResponse{StatusID: id})
	return nil
}

// updatesLimited is the 429 of a project with maxRunningUpdates running,
// the first of which ends at firstEnd.
func updatesLimited(project *apiconfig.Project, firstEnd, now time.Time) error {
	wait := retryAfterSeconds(firstEnd.Sub(now))
	return &httpapi.Error{Status: http.StatusTooManyRequests, RetryAfter: wait,
		Msg: fmt.Sprintf("project %q already has %d updates queued or in progress; retry in %d s", project.ID, maxRunningUpdates, wait)}
}

// GetUpdateStatus answers GET /v1/project/update-status/{statusId}.
func (ag *API) GetUpdateStatus(w http.ResponseWriter, r *http.Request) error {
	s := ag
	org := ag.host.Org(r.Context())
	id := r.PathValue("statusId")
	errMissing := httpapi.NotFound("update %q not found", id)
	if !updateIDPattern.MatchString(id) {
		return errMissing
	}
	rec, err := s.store.Update(r.Context(), id)
	if errors.Is(err, jobstore.ErrNoRecord) {
		return errMissing
	}
	if err != nil {
		return fmt.Errorf("load update: %w", err)
	}
	// Another organization's update is indistinguishable from one that
	// does not exist.
	if rec.OrgID != org.ID || s.expired(rec.CreatedAt) {
		return errMissing
	}
	ag.checkPending(org, rec)
	httpapi.WriteJSON(w, http.StatusOK, updateView(rec, s.clock.Now()))
	return nil
}

// filesChanged compares two snapshots' files, each list sorted.
func filesChanged(before, after map[string]string) (added, modified, removed []string) {
	for p, sum := range after {
		old, ok := before[p]
		switch {
		case !ok:
			added = append(added, p)
		case old != sum:
			modified = append(modified, p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			removed = append(removed, p)
		}
	}
	slices.Sort(added)
	slices.Sort(modified)
	slices.Sort(removed)
	return added, modified, removed
}

func laterOf(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// updateView is the update as the API shows it at time now.
func updateView(rec *jobstore.Update, now time.Time) api.UpdateStatus {
	short := rec.SHA
	if len(short) > 7 {
		short = short[:7]
	}
	target := rec.Subdomain
	if target == "" {
		target = "no deployment"
	}
	v := api.UpdateStatus{
		ID: rec.ID, ProjectID: rec.ProjectID, CreatedAt: rec.CreatedAt.UTC(),
		Status: api.UpdateQueued, Subdomain: rec.Subdomain, Source: api.UpdateSourceAPI,
		Summary: "waiting for the build to start",
		Logs:    []string{fmt.Sprintf("update queued: %s branch %s (%s) to %s", rec.Repository, rec.Branch, orNone(short), target)},
		Commit: api.UpdateCommit{
			SHA: rec.SHA, Ref: "refs/heads/" + rec.Branch,
			Message: fmt.Sprintf("Deploy %s from %s", rec.Branch, rec.Repository),
			FilesChanged: api.FilesChanged{
				Added: nonNil(rec.Added), Modified: nonNil(rec.Modified), Removed: nonNil(rec.Removed),
			},
		},
	}
	if now.Before(rec.StartAt) {
		return v
	}
	v.Status = api.UpdateInProgress
	v.Summary = fmt.Sprintf("building %d pages", rec.Pages)
	v.Logs = append(v.Logs, fmt.Sprintf("building %d pages (%d added, %d modified, %d removed files)",
		rec.Pages, len(rec.Added), len(rec.Modified), len(rec.Removed)))
	if now.Before(rec.EndAt) || rec.Pending {
		return v // a build ends when its check has
	}
	ended := rec.EndAt.UTC()
	v.EndedAt = &ended
	if rec.Failure != "" {
		v.Status = api.UpdateFailure
		v.Summary = "build failed: " + rec.Failure
		v.Logs = append(v.Logs, v.Summary)
		return v
	}
	v.Status = api.UpdateSuccess
	v.Summary = fmt.Sprintf("deployed %d pages to %s", rec.Pages, rec.Subdomain)
	v.Logs = append(v.Logs, v.Summary)
	return v
}

func orNone(s string) string {
	if s == "" {
		return "no commit"
	}
	return s
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
