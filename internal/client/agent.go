package client

import (
	"context"
	"fmt"
	"net/http"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// CreateAgentJob starts an agent job in a project. A project over its
// hourly job limit answers 429; the client waits out a short Retry-After
// and fails at once on a long one.
func (c *Client) CreateAgentJob(ctx context.Context, projectID, prompt string) (api.AgentJob, error) {
	var job api.AgentJob
	err := c.do(ctx, call{method: http.MethodPost, pattern: api.PathAgentJobs,
		params: map[string]string{"projectId": projectID},
		body:   api.CreateAgentJobRequest{Prompt: prompt}, out: &job})
	if err != nil {
		return job, fmt.Errorf("create agent job in project %s: %w", projectID, err)
	}
	return job, nil
}

// GetAgentJob returns an agent job; an unknown job matches ErrNotFound.
func (c *Client) GetAgentJob(ctx context.Context, projectID, id string) (api.AgentJob, error) {
	var job api.AgentJob
	err := c.do(ctx, call{method: http.MethodGet, pattern: api.PathAgentJob,
		params: map[string]string{"projectId": projectID, "id": id}, out: &job})
	if err != nil {
		return job, fmt.Errorf("get agent job %s in project %s: %w", id, projectID, err)
	}
	return job, nil
}

// SendAgentMessage sends a follow-up prompt to an agent job and returns
// the job, active again until the agent has worked on it (poll with
// WaitAgentJob). An unknown job matches ErrNotFound; an archived job is a
// 400. It is not retried on a server error: the message may have been
// taken, and a second one would be worked on twice.
func (c *Client) SendAgentMessage(ctx context.Context, projectID, id, prompt string) (api.AgentJob, error) {
	var job api.AgentJob
	err := c.do(ctx, call{method: http.MethodPost, pattern: api.PathAgentMessage,
		params: map[string]string{"projectId": projectID, "id": id},
		body:   api.SendAgentMessageRequest{Prompt: prompt}, out: &job})
	if err != nil {
		return job, fmt.Errorf("send message to agent job %s in project %s: %w", id, projectID, err)
	}
	return job, nil
}

// WaitAgentJob polls until the job is completed, archived or failed and
// returns it. A failed agent job is a result, not an error: the caller
// decides what it means.
func (c *Client) WaitAgentJob(ctx context.Context, projectID, id string, onPoll func(api.AgentJob)) (api.AgentJob, error) {
	job, err := poll(ctx, c,
		func(ctx context.Context) (api.AgentJob, error) { return c.GetAgentJob(ctx, projectID, id) },
		func(api.AgentJob) float64 { return 0 },
		func(j api.AgentJob) bool { return api.AgentTerminal(j.Status) },
		onPoll)
	if err != nil {
		return job, fmt.Errorf("wait for agent job %s: %w", id, err)
	}
	return job, nil
}
