package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
)

// A start that fails with a 5xx, then with a dropped connection, is
// retried with the same Idempotency-Key, and the real server answers the
// repeat with the job it created: one job, however often it was sent.
func TestStartExport_retriesWithOneIdempotencyKey(t *testing.T) {
	env := apiservertest.Start(t)
	var (
		mu    sync.Mutex
		keys  []string
		first api.ExportJob
		n     atomic.Int32
	)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		keys = append(keys, r.Header.Get(api.IdempotencyHeader))
		mu.Unlock()
		attempt := n.Add(1)
		if attempt > 2 {
			env.Server.Handler().ServeHTTP(w, r)
			return
		}
		// The server starts the job, but its answer is lost: first behind
		// a 502, then with the connection.
		rec := httptest.NewRecorder()
		env.Server.Handler().ServeHTTP(rec, r)
		if attempt == 1 {
			_ = json.Unmarshal(rec.Body.Bytes(), &first)
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		panic(http.ErrAbortHandler)
	}))
	defer proxy.Close()
	c := newTestClient(t, proxy.URL, newRecorder(), func(c *Config) { c.APIKey = env.Key })
	job, err := c.StartExport(context.Background(), api.StartExportRequest{Domain: env.Domain})
	if err != nil {
		t.Fatalf("start: %v after %d attempts", err, n.Load())
	}
	if n.Load() != 3 || first.JobID == "" || job.JobID != first.JobID {
		t.Fatalf("after %d attempts got job %q, want the job the first attempt created (%q)", n.Load(), job.JobID, first.JobID)
	}
	mu.Lock()
	if keys[0] == "" || keys[1] != keys[0] || keys[2] != keys[0] {
		t.Fatalf("idempotency keys sent: %q", keys)
	}
	mu.Unlock()
	// A second start is a new export with a new key.
	next, err := c.StartExport(context.Background(), api.StartExportRequest{Domain: env.Domain})
	mu.Lock()
	defer mu.Unlock()
	if err != nil || next.JobID == first.JobID || keys[len(keys)-1] == keys[0] {
		t.Fatalf("second start: %+v %v, keys %q", next, err, keys)
	}
}

// A create that may have reached the server is not repeated without a key.
func TestCreateAgentJob_notRetriedAfter5xx(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusInternalServerError)
	}))
	defer srv.Close()
	_, err := newTestClient(t, srv.URL, newRecorder()).CreateAgentJob(context.Background(), "p", "prompt")
	if err == nil || calls.Load() != 1 {
		t.Fatalf("err %v after %d calls, want one call", err, calls.Load())
	}
}

// A job that never finishes ends the wait after PollTimeout on the client's
// clock, with ErrPollTimeout.
func TestWaitExport_overallDeadline(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"jobId":"se_1","status":"running","progress":0}`)
	}))
	defer srv.Close()
	rec := newRecorder()
	c := newTestClient(t, srv.URL, rec, func(c *Config) { c.PollTimeout = 10 * time.Minute })
	start := rec.clock.Now()
	_, err := c.WaitExport(context.Background(), "se_1", nil)
	if !errors.Is(err, ErrPollTimeout) {
		t.Fatalf("err = %v, want ErrPollTimeout", err)
	}
	if waited := rec.clock.Now().Sub(start); waited != 10*time.Minute {
		t.Fatalf("waited %v on the clock, want exactly the 10m deadline", waited)
	}
	if calls.Load() > 200 {
		t.Fatalf("%d polls in 10 minutes", calls.Load())
	}
}
