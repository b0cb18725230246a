// Package api holds the wire types and path patterns of the documentation
// platform's admin API. The reference server and the client both import it,
// so the two can never disagree about a field name. It uses only the
// standard library.
package api

import "time"

// IdempotencyHeader names the header that makes a start safe to repeat: the same key
// with the same request within 24 hours answers with the job the first
// start created; with another request it is a 409.
const IdempotencyHeader = "Idempotency-Key"

// Path patterns, in net/http ServeMux syntax. The client fills them with
// url.PathEscape'd values; the server registers them verbatim.
const (
	PathAgentJobs       = "/v2/agent/{projectId}/job"
	PathAgentJob        = "/v2/agent/{projectId}/job/{id}"
	PathAgentMessage    = "/v2/agent/{projectId}/job/{id}/message"
	PathExportJobs      = "/v1/static-export/jobs"
	PathExportJob       = "/v1/static-export/jobs/{jobId}"
	PathExportBundle    = "/v1/static-export/jobs/{jobId}/bundle"
	PathBundleDownload  = "/bundles/{jobId}/{file}"
	PathOpenAPI         = "/openapi.json"
	PathHealthz         = "/healthz"
	PathReadyz          = "/readyz"
	APIVersion          = "2.0.0"
	BundleFileName      = "bundle.tar.gz"
	ManifestFileName    = "manifest.json"
	DefaultKeyPrefix    = "dak"
	DefaultBundleTTL    = time.Hour
	MaxRequestBodyBytes = 1 << 20
)

// Agent job statuses. Completed, archived and failed are terminal: a client
// polls until it sees one of them.
const (
	AgentActive    = "active"
	AgentCompleted = "completed"
	AgentArchived  = "archived"
	AgentFailed    = "failed"
)

// Static export job statuses. Completed and failed are terminal.
const (
	ExportQueued    = "queued"
	ExportRunning   = "running"
	ExportCompleted = "completed"
	ExportFailed    = "failed"
)

// AgentTerminal reports whether an agent job status will not change again
// on its own (an archived job never comes back).
func AgentTerminal(status string) bool {
	return status == AgentCompleted || status == AgentArchived || status == AgentFailed
}

// ExportTerminal reports whether a static export job has finished.
func ExportTerminal(status string) bool {
	return status == ExportCompleted || status == ExportFailed
}

// CreateAgentJobRequest is the body of POST /v2/agent/{projectId}/job.
type CreateAgentJobRequest struct {
	Prompt string `json:"prompt"`
}

// SendAgentMessageRequest is the body of
// POST /v2/agent/{projectId}/job/{id}/message: a follow-up instruction for
// the agent of an existing job.
type SendAgentMessageRequest struct {
	Prompt string `json:"prompt"`
}

// AgentSource names the repository and branch an agent job works on.
type AgentSource struct {
	Repository string  `json:"repository"`
	Ref        *string `json:"ref"`
}

// AgentJob is an agent job as the API returns it. Nullable fields are
// pointers so that they encode as JSON null rather than disappearing.
type AgentJob struct {
	ID         string      `json:"id"`
	Status     string      `json:"status"`
	Source     AgentSource `json:"source"`
	Model      string      `json:"model"`
	PRLink     *string     `json:"prLink"`
	CreatedAt  time.Time   `json:"createdAt"`
	ArchivedAt *time.Time  `json:"archivedAt"`
}

// StartExportRequest is the body of POST /v1/static-export/jobs.
type StartExportRequest struct {
	Domain  string   `json:"domain"`
	Version string   `json:"version,omitempty"`
	Paths   []string `json:"paths,omitempty"`
}

// ExportJob is a static export job as the API returns it.
type ExportJob struct {
	JobID     string    `json:"jobId"`
	Status    string    `json:"status"`
	Progress  float64   `json:"progress"`
	PageCount int       `json:"pageCount"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
	Error     string    `json:"error,omitempty"`
	// Version is the content version of the job's bundle (the version of
	// its manifest.json), set once the job is completed. It is not the
	// label of StartExportRequest.Version. The real service's schema does
	// not list it, so clients must cope with its absence.
	Version string `json:"version,omitempty"`
	// Warnings are what the docs author should know about an export that
	// ran (settings left out, references to nothing, content replaced);
	// absent when there are none. An addition of this reference server.
	Warnings *ExportWarnings `json:"warnings,omitempty"`
}

// MaxExportWarnings is how many warning messages a job keeps; Count goes on.
const MaxExportWarnings = 20

// ExportWarnings counts an export's warnings and keeps the first messages.
type ExportWarnings struct {
	Count    int      `json:"count"`
	Messages []string `json:"messages"`
	// ByKind counts the warnings by what they are about ("content",
	// "config", "link", "math", "api", "limit", "remote", "redirect",
	// "navigation"), every one, past the messages kept too.
	ByKind map[string]int `json:"byKind,omitempty"`
}

// Add records one warning of a kind, keeping at most MaxExportWarnings
// messages and counting every one by its kind.
func (w *ExportWarnings) Add(kind, msg string) {
	w.Count++
	if kind != "" {
		if w.ByKind == nil {
			w.ByKind = map[string]int{}
		}
		w.ByKind[kind]++
	}
	if len(w.Messages) < MaxExportWarnings {
		w.Messages = append(w.Messages, msg)
	}
}

// Bundle is the answer of POST /v1/static-export/jobs/{jobId}/bundle.
type Bundle struct {
	JobID     string    `json:"jobId"`
	BundleURL string    `json:"bundleUrl"`
	SizeBytes int64     `json:"sizeBytes"`
	ExpiresAt time.Time `json:"expiresAt"`
	// Version is the content version of the archive behind BundleURL, so
	// a client can tell new content from a renewed link without
	// downloading anything. Optional, as in ExportJob.
	Version string `json:"version,omitempty"`
}

// Error is the body of every non-2xx answer.
type Error struct {
	Error string `json:"error"`
}
