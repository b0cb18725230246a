package client

import (
	"context"
	"fmt"
	"net/http"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// UpdateFailedError reports that a documentation update ended in status
// failure.
type UpdateFailedError struct {
	// StatusID is the failed update.
	StatusID string
	// Summary is the server's explanation, the update's "summary" field.
	Summary string
	// Logs are the update's log lines, the last of them usually the cause.
	Logs []string
}

// Error carries the server's summary so that diagnostics show the cause.
func (e *UpdateFailedError) Error() string {
	if e.Summary == "" {
		return fmt.Sprintf("documentation update %s failed without a summary", e.StatusID)
	}
	return fmt.Sprintf("documentation update %s failed: %s", e.StatusID, e.Summary)
}

// TriggerUpdate queues a documentation update of a project from its
// deployment branch and returns the status id to poll. An unknown project
// matches ErrNotFound. It is not retried after a server error or a broken
// connection (the operation takes no idempotency key, so a repeat could
// queue a second update); a 429 is, within MaxRetryAfter.
func (c *Client) TriggerUpdate(ctx context.Context, projectID string) (string, error) {
	var out api.TriggerUpdateResponse
	err := c.do(ctx, call{method: http.MethodPost, pattern: api.PathProjectUpdate,
		params: map[string]string{"projectId": projectID}, out: &out})
	if err != nil {
		return "", fmt.Errorf("trigger documentation update of project %s: %w", projectID, err)
	}
	if out.StatusID == "" {
		return "", fmt.Errorf("trigger documentation update of project %s: the answer carries no statusId", projectID)
	}
	return out.StatusID, nil
}

// GetUpdateStatus returns a documentation update as it is now; an unknown
// status id matches ErrNotFound.
func (c *Client) GetUpdateStatus(ctx context.Context, statusID string) (api.UpdateStatus, error) {
	var st api.UpdateStatus
	err := c.do(ctx, call{method: http.MethodGet, pattern: api.PathUpdateStatus,
		params: map[string]string{"statusId": statusID}, out: &st})
	if err != nil {
		return st, fmt.Errorf("get documentation update %s: %w", statusID, err)
	}
	return st, nil
}

// WaitUpdate polls an update until it ends, calling onPoll (if not nil)
// with every status seen. An update that ends in failure returns the
// status and an *UpdateFailedError carrying the server's summary.
func (c *Client) WaitUpdate(ctx context.Context, statusID string, onPoll func(api.UpdateStatus)) (api.UpdateStatus, error) {
	st, err := poll(ctx, c,
		func(ctx context.Context) (api.UpdateStatus, error) { return c.GetUpdateStatus(ctx, statusID) },
		func(api.UpdateStatus) float64 { return 0 },
		func(s api.UpdateStatus) bool { return api.UpdateTerminal(s.Status) },
		onPoll)
	if err != nil {
		return st, fmt.Errorf("wait for documentation update %s: %w", statusID, err)
	}
	if st.Status == api.UpdateFailure {
		return st, &UpdateFailedError{StatusID: statusID, Summary: st.Summary, Logs: st.Logs}
	}
	return st, nil
}
