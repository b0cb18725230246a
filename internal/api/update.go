package api

import "time"

// Documentation updates: the real service's "Trigger update" and "Get
// update status" (its external API, whose server is https://…/v1, so
// /project/update/{projectId} is /v1/project/update/{projectId} here). An
// update redeploys a project's documentation from its deployment branch.
const (
	PathProjectUpdate = "/v1/project/update/{projectId}"
	PathUpdateStatus  = "/v1/project/update-status/{statusId}"
)

// Update statuses, as the reference names them. Success and failure are
// terminal.
const (
	UpdateQueued     = "queued"
	UpdateInProgress = "in_progress"
	UpdateSuccess    = "success"
	UpdateFailure    = "failure"
)

// UpdateSourceAPI is the source of an update triggered through this API
// (the reference also names internal, github-app-installation, github,
// dashboard, gitlab and onboarding).
const UpdateSourceAPI = "api"

// UpdateTerminal reports whether an update has ended.
func UpdateTerminal(status string) bool {
	return status == UpdateSuccess || status == UpdateFailure
}

// TriggerUpdateResponse is the 202 answer of POST /v1/project/update/{projectId}.
type TriggerUpdateResponse struct {
	StatusID string `json:"statusId"`
}

// UpdateStatus is a documentation update as GET
// /v1/project/update-status/{statusId} returns it. The reference's schema
// requires none of its fields; EndedAt appears once the update ended, and
// the screenshots, which the reference server does not take, never.
type UpdateStatus struct {
	ID        string        `json:"_id"`
	ProjectID string        `json:"projectId"`
	CreatedAt time.Time     `json:"createdAt"`
	EndedAt   *time.Time    `json:"endedAt,omitempty"`
	Status    string        `json:"status"`
	Summary   string        `json:"summary"`
	Logs      []string      `json:"logs"`
	Subdomain string        `json:"subdomain,omitempty"`
	Author    *UpdateAuthor `json:"author"`
	Commit    UpdateCommit  `json:"commit"`
	Source    string        `json:"source"`
}

// UpdateAuthor is who caused an update; null for one triggered with an
// admin key, which names no person.
type UpdateAuthor struct {
	Name         string  `json:"name"`
	AvatarURL    string  `json:"avatarUrl"`
	GitHubUserID float64 `json:"githubUserId"`
}

// UpdateCommit is the state of the deployment branch an update deployed.
type UpdateCommit struct {
	SHA          string       `json:"sha"`
	Ref          string       `json:"ref"`
	Message      string       `json:"message"`
	FilesChanged FilesChanged `json:"filesChanged"`
}

// FilesChanged lists the files of the docs source that differ from the
// project's previous update (every file, as added, for its first).
type FilesChanged struct {
	Added    []string `json:"added"`
	Modified []string `json:"modified"`
	Removed  []string `json:"removed"`
}
