package client

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
)

// An update waited for goes through queued and in_progress to success on
// the reference server, and its log grows with it.
func TestContract_waitUpdateUntilSuccess(t *testing.T) {
	env := apiservertest.Start(t)
	ctx := testCtx(t)
	c := contractClient(t, env.URL, env.Key)
	id, err := c.TriggerUpdate(ctx, env.ProjectID)
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	st, err := c.WaitUpdate(ctx, id, func(s api.UpdateStatus) {
		if len(seen) == 0 || seen[len(seen)-1] != s.Status {
			seen = append(seen, s.Status)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(seen, []string{api.UpdateQueued, api.UpdateInProgress, api.UpdateSuccess}) {
		t.Fatalf("statuses seen: %v", seen)
	}
	if st.ID != id || st.EndedAt == nil || len(st.Logs) != 3 || st.Subdomain != env.Domain {
		t.Fatalf("update at its end: %+v", st)
	}
}

// A failed update is an *UpdateFailedError with the server's summary; an
// unknown project and an unknown or foreign status id match ErrNotFound.
func TestContract_updateErrors(t *testing.T) {
	env := apiservertest.Start(t)
	ctx := testCtx(t)
	c := contractClient(t, env.URL, env.Key)
	id, err := c.TriggerUpdate(ctx, env.FailProjectID)
	if err != nil {
		t.Fatal(err)
	}
	env.Clock.Advance(time.Minute)
	st, err := c.WaitUpdate(ctx, id, nil)
	var failed *UpdateFailedError
	if !errors.As(err, &failed) || failed.StatusID != id || !strings.Contains(failed.Summary, "no deployment") ||
		st.Status != api.UpdateFailure || len(failed.Logs) == 0 {
		t.Fatalf("waiting for a failing update: %+v, %v", st, err)
	}
	if _, err := c.TriggerUpdate(ctx, apiservertest.OtherProjectID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("another organization's project: %v", err)
	}
	other := contractClient(t, env.URL, env.OtherKey)
	if _, err := other.GetUpdateStatus(ctx, id); !errors.Is(err, ErrNotFound) {
		t.Fatalf("another organization's update: %v", err)
	}
	if _, err := c.GetUpdateStatus(ctx, "upd_0123456789abcdef"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("an unknown update: %v", err)
	}
}

// A trigger that meets a server error is not repeated (a repeat could
// queue a second update); a status read is.
func TestContract_triggerUpdateIsNotRetriedOnServerError(t *testing.T) {
	env := apiservertest.Start(t)
	ctx := testCtx(t)
	p := newProxy(t, env.URL, 1, http.StatusBadGateway)
	c := contractClient(t, p.URL, env.Key)
	var apiErr *APIError
	if _, err := c.TriggerUpdate(ctx, env.ProjectID); !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusBadGateway {
		t.Fatalf("trigger through a failing proxy: %v", err)
	}
	if n := p.calls.Load(); n != 1 {
		t.Fatalf("the trigger was sent %d times", n)
	}
	id, err := contractClient(t, env.URL, env.Key).TriggerUpdate(ctx, env.ProjectID)
	if err != nil {
		t.Fatal(err)
	}
	p2 := newProxy(t, env.URL, 1, http.StatusServiceUnavailable)
	if _, err := contractClient(t, p2.URL, env.Key).GetUpdateStatus(ctx, id); err != nil {
		t.Fatalf("a status read after one 503: %v", err)
	}
}

// A project at its limit of running updates answers 429 with
// Retry-After; the client waits it out and the trigger goes through.
func TestContract_triggerUpdateWaitsOutTheLimit(t *testing.T) {
	env := apiservertest.Start(t)
	ctx := testCtx(t)
	c := contractClient(t, env.URL, env.Key)
	for range 5 {
		if _, err := c.TriggerUpdate(ctx, env.ProjectID); err != nil {
			t.Fatal(err)
		}
	}
	// The first ends in four seconds on the server's clock; moving it on
	// makes the wait a second at most.
	env.Clock.Advance(3500 * time.Millisecond)
	if _, err := c.TriggerUpdate(ctx, env.ProjectID); err != nil {
		t.Fatalf("a trigger at the limit: %v", err)
	}
}
