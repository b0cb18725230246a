package client

import (
	"errors"
	"net/http"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
)

func TestContract_sendAgentMessageKeepsPullRequest(t *testing.T) {
	env := apiservertest.Start(t)
	ctx := testCtx(t)
	c := contractClient(t, env.URL, env.Key)
	job, err := c.CreateAgentJob(ctx, env.ProjectID, "Document bundles")
	if err != nil {
		t.Fatal(err)
	}
	first, err := c.WaitAgentJob(ctx, env.ProjectID, job.ID, nil)
	if err != nil || first.PRLink == nil {
		t.Fatalf("first run: %+v, %v", first, err)
	}
	sent, err := c.SendAgentMessage(ctx, env.ProjectID, job.ID, "Also the changelog")
	if err != nil || sent.Status != api.AgentActive {
		t.Fatalf("send: %+v, %v", sent, err)
	}
	again, err := c.WaitAgentJob(ctx, env.ProjectID, job.ID, nil)
	if err != nil || again.Status != api.AgentCompleted || again.PRLink == nil || *again.PRLink != *first.PRLink {
		t.Fatalf("after the message: %+v, %v; want completed with %s", again, err, *first.PRLink)
	}
	if _, err := c.SendAgentMessage(ctx, env.ProjectID, "aj_0000000000000000", "x"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown job = %v, want ErrNotFound", err)
	}
}

// A message answered 503 may have been taken: the client must not send it
// again.
func TestContract_sendAgentMessageIsNotRetriedOnServerError(t *testing.T) {
	env := apiservertest.Start(t)
	ctx := testCtx(t)
	job, err := contractClient(t, env.URL, env.Key).CreateAgentJob(ctx, env.ProjectID, "Document bundles")
	if err != nil {
		t.Fatal(err)
	}
	p := newProxy(t, env.URL, 1, http.StatusServiceUnavailable)
	_, err = contractClient(t, p.URL, env.Key).SendAgentMessage(ctx, env.ProjectID, job.ID, "Also the changelog")
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusServiceUnavailable || p.calls.Load() != 1 {
		t.Fatalf("send through a failing proxy = %v after %d calls, want one 503", err, p.calls.Load())
	}
}
