package client

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
)

// These tests hold the client to the reference server over real HTTP.
// Where the server cannot misbehave on demand (a 503), a proxy in front
// of it does, and counts what reaches it.

type proxy struct {
	URL   string
	calls atomic.Int32
}

// newProxy forwards to target, answering the first failFirst requests
// itself with status.
func newProxy(t *testing.T, target string, failFirst int32, status int) *proxy {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{}
	rp := httputil.NewSingleHostReverseProxy(u)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p.calls.Add(1) <= failFirst {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			io.WriteString(w, `{"error":"injected by the test proxy"}`)
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	p.URL = srv.URL
	return p
}

func contractClient(t *testing.T, baseURL, key string, mutate ...func(*Config)) *Client {
	t.Helper()
	cfg := Config{BaseURL: baseURL, APIKey: key, UserAgent: "contract-test"}
	for _, m := range mutate {
		m(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func get(t *testing.T, link string) (int, int64) {
	t.Helper()
	resp, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, n
}

func TestContract_exportBundleExpiryAndRenewal(t *testing.T) {
	env := apiservertest.Start(t, apiservertest.WithBundleTTL(time.Hour))
	ctx := testCtx(t)
	c := contractClient(t, env.URL, env.Key, func(c *Config) { c.Clock = env.Clock })

	job, err := c.StartExport(ctx, api.StartExportRequest{Domain: env.Domain, Version: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	var seen []api.ExportJob
	done, err := c.WaitExport(ctx, job.JobID, func(j api.ExportJob) { seen = append(seen, j) })
	if err != nil {
		t.Fatal(err)
	}
	// The content version is the manifest's hash, not the "v1" label.
	if done.Status != api.ExportCompleted || done.Progress != 100 || done.PageCount == 0 || done.Version == "" || done.Version == "v1" {
		t.Fatalf("finished job = %+v", done)
	}
	if len(seen) == 0 || seen[len(seen)-1].Status != api.ExportCompleted {
		t.Fatalf("progress callback saw %+v", seen)
	}

	first, err := c.GenerateBundle(ctx, job.JobID)
	if err != nil {
		t.Fatal(err)
	}
	if first.Version != done.Version {
		t.Fatalf("bundle version %q, job version %q", first.Version, done.Version)
	}
	if status, n := get(t, first.BundleURL); status != http.StatusOK || n != first.SizeBytes {
		t.Fatalf("download = %d, %d bytes; want 200 and %d bytes", status, n, first.SizeBytes)
	}

	env.Clock.Advance(time.Hour + time.Minute)
	if status, _ := get(t, first.BundleURL); status != http.StatusForbidden {
		t.Fatalf("expired link answered %d, want 403", status)
	}
	renewed, err := c.GenerateBundle(ctx, job.JobID)
	if err != nil {
		t.Fatal(err)
	}
	if renewed.JobID != job.JobID || !renewed.ExpiresAt.After(first.ExpiresAt) || renewed.BundleURL == first.BundleURL || renewed.Version != first.Version {
		t.Fatalf("renewal = %+v after %+v", renewed, first)
	}
	if status, _ := get(t, renewed.BundleURL); status != http.StatusOK {
		t.Fatalf("renewed link answered %d", status)
	}
}

func TestContract_unknownJobIsNotFound(t *testing.T) {
	env := apiservertest.Start(t)
	c := contractClient(t, env.URL, env.Key)
	_, err := c.GetExport(testCtx(t), "se_0000000000000000")
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("GetExport of unknown job: %v", err)
	}
	_, err = c.GetAgentJob(testCtx(t), env.ProjectID, "nope")
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("GetAgentJob of unknown job: %v", err)
	}
}

func TestContract_failedExportCarriesMessageAndHasNoBundle(t *testing.T) {
	env := apiservertest.Start(t)
	ctx := testCtx(t)
	c := contractClient(t, env.URL, env.Key)
	job, err := c.StartExport(ctx, api.StartExportRequest{Domain: env.FailDomain})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.WaitExport(ctx, job.JobID, nil)
	var failed *JobFailedError
	if !errors.As(err, &failed) || failed.Message == "" || failed.JobID != job.JobID {
		t.Fatalf("WaitExport = %v, want a JobFailedError with the server's message", err)
	}
	_, err = c.GenerateBundle(ctx, job.JobID)
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusConflict {
		t.Fatalf("bundle of a failed job = %v, want 409", err)
	}
}

func TestContract_clientErrorsAreNotRetried(t *testing.T) {
	env := apiservertest.Start(t)
	for name, c := range map[string]struct {
		key    string
		call   func(context.Context, *Client) error
		status int
	}{
		"bad key": {"dak_wrong", func(ctx context.Context, c *Client) error {
			_, err := c.GetExport(ctx, "se_1")
			return err
		}, http.StatusUnauthorized},
		"pro plan": {env.ProKey, func(ctx context.Context, c *Client) error {
			_, err := c.StartExport(ctx, api.StartExportRequest{Domain: "docs.beta.test"})
			return err
		}, http.StatusForbidden},
		"empty prompt": {env.Key, func(ctx context.Context, c *Client) error {
			_, err := c.CreateAgentJob(ctx, env.ProjectID, "")
			return err
		}, http.StatusBadRequest},
	} {
		t.Run(name, func(t *testing.T) {
			p := newProxy(t, env.URL, 0, 0)
			err := c.call(testCtx(t), contractClient(t, p.URL, c.key))
			var apiErr *APIError
			if !errors.As(err, &apiErr) || apiErr.StatusCode != c.status {
				t.Fatalf("err = %v, want %d", err, c.status)
			}
			if n := p.calls.Load(); n != 1 {
				t.Fatalf("%d requests reached the server, want 1", n)
			}
		})
	}
}

func TestContract_serviceUnavailableIsRetried(t *testing.T) {
	env := apiservertest.Start(t)
	ctx := testCtx(t)
	job, err := contractClient(t, env.URL, env.Key).StartExport(ctx, api.StartExportRequest{Domain: env.Domain})
	if err != nil {
		t.Fatal(err)
	}
	p := newProxy(t, env.URL, 2, http.StatusServiceUnavailable)
	rec := newRecorder()
	c := contractClient(t, p.URL, env.Key, func(c *Config) { c.Sleep = rec.sleep })
	got, err := c.GetExport(ctx, job.JobID)
	if err != nil || got.JobID != job.JobID {
		t.Fatalf("GetExport through two 503s = %+v, %v", got, err)
	}
	if n, waits := p.calls.Load(), rec.recorded(); n != 3 || len(waits) != 2 || waits[1] <= waits[0]/2 {
		t.Fatalf("%d requests, waits %v; want 3 requests and 2 growing waits", n, waits)
	}
}

// The server's hourly agent quota answers 429 with Retry-After. A client
// allowed to wait that long retries once the window has passed (the
// injected sleep moves the server's clock); a default client fails at once.
func TestContract_rateLimitHonoursRetryAfter(t *testing.T) {
	env := apiservertest.Start(t, apiservertest.WithAgentJobsPerHour(1))
	ctx := testCtx(t)
	if _, err := contractClient(t, env.URL, env.Key).CreateAgentJob(ctx, env.ProjectID, "first"); err != nil {
		t.Fatal(err)
	}

	_, err := contractClient(t, env.URL, env.Key).CreateAgentJob(ctx, env.ProjectID, "second")
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusTooManyRequests || apiErr.RetryAfter <= 0 {
		t.Fatalf("over quota = %v, want 429 with Retry-After", err)
	}

	var waits []time.Duration
	patient := contractClient(t, env.URL, env.Key, func(c *Config) {
		c.MaxRetryAfter = 2 * time.Hour
		c.Sleep = func(_ context.Context, d time.Duration) error {
			waits = append(waits, d)
			env.Clock.Advance(d)
			return nil
		}
	})
	// No deadline here: the client rightly refuses to start a wait that
	// would outlast its context, and this wait is simulated.
	job, err := patient.CreateAgentJob(context.Background(), env.ProjectID, "third")
	if err != nil {
		t.Fatal(err)
	}
	if job.ID == "" || len(waits) != 1 || waits[0] > apiErr.RetryAfter || waits[0] < apiErr.RetryAfter-time.Second {
		t.Fatalf("job %+v after waits %v; want one wait of about %s", job, waits, apiErr.RetryAfter)
	}
}

func TestContract_waitAgentJobUntilPullRequest(t *testing.T) {
	env := apiservertest.Start(t)
	ctx := testCtx(t)
	c := contractClient(t, env.URL, env.Key)
	job, err := c.CreateAgentJob(ctx, env.ProjectID, "Document bundles")
	if err != nil {
		t.Fatal(err)
	}
	var statuses []string
	done, err := c.WaitAgentJob(ctx, env.ProjectID, job.ID, func(j api.AgentJob) { statuses = append(statuses, j.Status) })
	if err != nil {
		t.Fatal(err)
	}
	if done.Status != api.AgentCompleted || done.PRLink == nil || statuses[0] != api.AgentActive {
		t.Fatalf("job %+v after statuses %v", done, statuses)
	}
}
