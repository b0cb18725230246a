package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
)

// recorder stands in for time: it advances a fake clock instead of
// sleeping and remembers every wait, so backoff is asserted exactly.
type recorder struct {
	mu    sync.Mutex
	clock *clock.Fake
	waits []time.Duration
}

func newRecorder() *recorder {
	return &recorder{clock: clock.NewFake(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))}
}

func (r *recorder) sleep(_ context.Context, d time.Duration) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.waits = append(r.waits, d)
	r.clock.Advance(d)
	return nil
}

func (r *recorder) recorded() []time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]time.Duration(nil), r.waits...)
}

// memLogger keeps every log line as text, to search it for secrets.
type memLogger struct {
	mu    sync.Mutex
	lines []string
}

func (m *memLogger) add(msg string, f map[string]any) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.lines = append(m.lines, fmt.Sprint(msg, f))
}
func (m *memLogger) Debug(_ context.Context, msg string, f map[string]any) { m.add(msg, f) }
func (m *memLogger) Warn(_ context.Context, msg string, f map[string]any)  { m.add(msg, f) }
func (m *memLogger) text() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return strings.Join(m.lines, "\n")
}

func newTestClient(t *testing.T, url string, rec *recorder, mutate ...func(*Config)) *Client {
	t.Helper()
	cfg := Config{BaseURL: url, APIKey: "dak_secret", UserAgent: "terraform-provider-docsadmin/1.2.3",
		Clock: rec.clock, Sleep: rec.sleep, Jitter: func() float64 { return 0.5 }}
	for _, m := range mutate {
		m(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestNew_rejectsMissingSettings(t *testing.T) {
	for name, cfg := range map[string]Config{
		"no url":     {APIKey: "k"},
		"no scheme":  {BaseURL: "api.example.com", APIKey: "k"},
		"no api key": {BaseURL: "https://api.example.com"},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := New(cfg); err == nil {
				t.Fatal("New accepted an incomplete config")
			}
		})
	}
}

func TestDo_retriesRateLimitHonouringRetryAfter(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if calls.Add(1) == 1 {
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"error":"slow down"}`)
			return
		}
		fmt.Fprint(w, `{"jobId":"se_1","status":"queued"}`)
	}))
	defer srv.Close()
	rec := newRecorder()
	job, err := newTestClient(t, srv.URL, rec).GetExport(context.Background(), "se_1")
	if err != nil {
		t.Fatal(err)
	}
	if job.JobID != "se_1" || calls.Load() != 2 {
		t.Fatalf("job %+v after %d calls", job, calls.Load())
	}
	if got := rec.recorded(); len(got) != 1 || got[0] != 7*time.Second {
		t.Fatalf("waits = %v, want the server's 7s", got)
	}
}

func TestDo_backsOffExponentiallyOn5xxThenGivesUp(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusBadGateway)
	}))
	defer srv.Close()
	rec := newRecorder()
	c := newTestClient(t, srv.URL, rec, func(c *Config) { c.MaxRetries = 3 })
	_, err := c.GetExport(context.Background(), "se_1")
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusBadGateway {
		t.Fatalf("err = %v, want a 502 APIError", err)
	}
	if calls.Load() != 4 {
		t.Fatalf("%d calls, want 1 + 3 retries", calls.Load())
	}
	// Jitter 0.5 keeps three quarters of 500ms, 1s, 2s.
	want := []time.Duration{375 * time.Millisecond, 750 * time.Millisecond, 1500 * time.Millisecond}
	if got := rec.recorded(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("waits = %v, want %v", got, want)
	}
}

func TestDo_neverRetries4xx(t *testing.T) {
	for _, status := range []int{http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusConflict} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			var calls atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				calls.Add(1)
				w.WriteHeader(status)
				fmt.Fprint(w, `{"error":"nope"}`)
			}))
			defer srv.Close()
			_, err := newTestClient(t, srv.URL, newRecorder()).GenerateBundle(context.Background(), "se_1")
			var apiErr *APIError
			if !errors.As(err, &apiErr) || apiErr.StatusCode != status || apiErr.Message != "nope" {
				t.Fatalf("err = %v", err)
			}
			if calls.Load() != 1 {
				t.Fatalf("%d calls for a %d", calls.Load(), status)
			}
			if got := errors.Is(err, ErrNotFound); got != (status == http.StatusNotFound) {
				t.Fatalf("errors.Is(err, ErrNotFound) = %v for %d", got, status)
			}
		})
	}
}

func TestDo_longRetryAfterFailsAtOnce(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		calls.Add(1)
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	defer srv.Close()
	rec := newRecorder()
	_, err := newTestClient(t, srv.URL, rec).CreateAgentJob(context.Background(), "p", "hi")
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.RetryAfter != time.Hour {
		t.Fatalf("err = %v, want a 429 with RetryAfter 1h", err)
	}
	if calls.Load() != 1 || len(rec.recorded()) != 0 {
		t.Fatalf("%d calls and waits %v; an hour-long quota must not be slept out", calls.Load(), rec.recorded())
	}
}

func TestDo_sendsUserAgentKeyAndEmptyBodyButNeverLogsThem(t *testing.T) {
	const link = "https://bucket.example/se_1/bundle.tar.gz?X-Amz-Signature=abc"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer dak_secret" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		if r.ContentLength != 0 || len(r.TransferEncoding) > 0 {
			w.WriteHeader(http.StatusUnsupportedMediaType)
			return
		}
		if ua := r.Header.Get("User-Agent"); ua != "terraform-provider-docsadmin/1.2.3" {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"error":"user agent %q"}`, ua)
			return
		}
		fmt.Fprintf(w, `{"jobId":"se_1","bundleUrl":%q,"sizeBytes":10}`, link)
	}))
	defer srv.Close()
	logs := &memLogger{}
	c := newTestClient(t, srv.URL, newRecorder(), func(c *Config) { c.Logger = logs })
	b, err := c.GenerateBundle(context.Background(), "se_1")
	if err != nil {
		t.Fatal(err)
	}
	if b.BundleURL != link {
		t.Fatalf("bundle URL %q", b.BundleURL)
	}
	text := logs.text()
	if !strings.Contains(text, "/v1/static-export/jobs/se_1/bundle") {
		t.Fatalf("request was not logged: %q", text)
	}
	if strings.Contains(text, "dak_secret") || strings.Contains(text, "X-Amz-Signature") {
		t.Fatalf("log leaks a secret: %q", text)
	}
}

// The redacting logger masks the key and URL queries in the message and in
// every string field, whatever the caller's Logger does with them.
func TestRedactingLogger_masksKeyAndLinks(t *testing.T) {
	var got []string
	r := redactingLogger{next: funcLogger(func(msg string, f map[string]any) {
		got = append(got, msg, fmt.Sprint(f["error"]), fmt.Sprint(f["attempt"]))
	}), secrets: []string{"dak_123"}}
	r.Warn(context.Background(), `bad key dak_123 for https://h/b?sig=1 "x"`,
		map[string]any{"error": `Get "https://u:p@h/b?sig=1": EOF`, "attempt": 2})
	want := []string{`bad key REDACTED for https://h/b?REDACTED "x"`, `Get "https://REDACTED@h/b?REDACTED": EOF`, "2"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("logged %q, want %q", got, want)
	}
}

// funcLogger hands both levels of client log line to one function.
type funcLogger func(msg string, f map[string]any)

func (l funcLogger) Debug(_ context.Context, msg string, f map[string]any) { l(msg, f) }
func (l funcLogger) Warn(_ context.Context, msg string, f map[string]any)  { l(msg, f) }

func TestWaitExport_checksAtOnceThenBacksOffAndReportsFailure(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if calls.Add(1) < 5 {
			fmt.Fprint(w, `{"jobId":"se_1","status":"queued"}`)
			return
		}
		fmt.Fprint(w, `{"jobId":"se_1","status":"failed","error":"domain has no published pages"}`)
	}))
	defer srv.Close()
	rec := newRecorder()
	var seen []string
	_, err := newTestClient(t, srv.URL, rec).WaitExport(context.Background(), "se_1",
		func(j api.ExportJob) { seen = append(seen, j.Status) })
	var failed *JobFailedError
	if !errors.As(err, &failed) || failed.Message != "domain has no published pages" {
		t.Fatalf("err = %v, want the server's failure message", err)
	}
	want := []time.Duration{250 * time.Millisecond, 500 * time.Millisecond, time.Second, 2 * time.Second}
	if got := rec.recorded(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("waits = %v, want %v", got, want)
	}
	if len(seen) != 5 || seen[4] != api.ExportFailed {
		t.Fatalf("progress callback saw %v", seen)
	}
}

func TestPacer_capsAtFiveSecondsAndShortensNearCompletion(t *testing.T) {
	rec := newRecorder()
	p := newPacer(rec.clock)
	var got []time.Duration
	for range 7 {
		got = append(got, p.next(0))
	}
	if want := "[250ms 500ms 1s 2s 4s 5s 5s]"; fmt.Sprint(got) != want {
		t.Fatalf("backoff = %v, want %s", got, want)
	}
	// 10 % per second observed: at 95 % the job needs about half a second,
	// so the pacer must not wait the full 5 s.
	p.next(10)
	rec.clock.Advance(8500 * time.Millisecond)
	if d := p.next(95); d != 500*time.Millisecond {
		t.Fatalf("wait near completion = %v, want 500ms", d)
	}
}

func TestHCLogger_receivesRedactedLines(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"error":"no job; see https://docs.example/errors?key=dak_secret"}`)
	}))
	defer srv.Close()
	var buf strings.Builder
	logger := hclog.New(&hclog.LoggerOptions{Output: &buf, Level: hclog.Debug})
	c := newTestClient(t, srv.URL, newRecorder(), func(c *Config) { c.Logger = HCLogger(logger) })
	_, err := c.GetExport(context.Background(), "se_1")
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v", err)
	}
	out := buf.String()
	if !strings.Contains(out, "status=404") || !strings.Contains(out, "path=/v1/static-export/jobs/se_1") {
		t.Fatalf("hclog output lacks the request line: %q", out)
	}
	if strings.Contains(out, "dak_secret") {
		t.Fatalf("hclog output leaks the key: %q", out)
	}
}
