package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/go-resty/resty/v2"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// ErrNotFound matches (with errors.Is) any API answer of 404: the job or
// project does not exist, or the server no longer keeps it.
var ErrNotFound = errors.New("not found")

// APIError is a non-2xx answer of the admin API, after retries ran out or
// for a status that is never retried.
type APIError struct {
	// StatusCode is the HTTP status of the last answer.
	StatusCode int
	// Message is the server's "error" field, or the status text when the
	// body carried none.
	Message string
	// Method and Path name the request, with path parameters filled in.
	Method, Path string
	// RetryAfter is what the server asked the client to wait, when it said.
	RetryAfter time.Duration
}

// Error describes the failed call without any credential.
func (e *APIError) Error() string {
	msg := fmt.Sprintf("%s %s: %d %s", e.Method, e.Path, e.StatusCode, e.Message)
	if e.RetryAfter > 0 {
		msg += fmt.Sprintf(" (server asked to retry after %s)", e.RetryAfter)
	}
	return msg
}

// Is lets errors.Is(err, ErrNotFound) recognise a 404 without callers
// reaching for the status code.
func (e *APIError) Is(target error) bool {
	return target == ErrNotFound && e.StatusCode == http.StatusNotFound
}

// JobFailedError reports that a static export job ended in status failed.
type JobFailedError struct {
	// JobID is the failed job.
	JobID string
	// Message is the server's explanation, the job's "error" field.
	Message string
}

// Error carries the server's message so that diagnostics show the cause.
func (e *JobFailedError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("export job %s failed without an error message", e.JobID)
	}
	return fmt.Sprintf("export job %s failed: %s", e.JobID, e.Message)
}

// errorMessage reads the API's error body (api.Error, the same type the
// reference server writes), falling back to the status text for a body
// that is not one, such as a proxy's HTML error page.
func errorMessage(resp *resty.Response) string {
	var body api.Error
	if json.Unmarshal(resp.Body(), &body) == nil && body.Error != "" {
		return body.Error
	}
	return http.StatusText(resp.StatusCode())
}
