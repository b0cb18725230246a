// Package client talks to the documentation platform's admin API: agent
// jobs, static export jobs and their bundles. It retries what is worth
// retrying, types the failures (ErrNotFound, *APIError, *JobFailedError),
// waits for jobs with a short-first backoff, and never logs the API key or
// a URL's query or user info, where a bundle link keeps its signature
// (internal/redact). The Terraform provider and the rollout CLI share it.
package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/go-resty/resty/v2"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
)

// Defaults used when a Config field is zero.
const (
	DefaultTimeout       = 30 * time.Second
	DefaultMaxRetries    = 4
	DefaultMinRetryWait  = 500 * time.Millisecond
	DefaultMaxRetryWait  = 30 * time.Second
	DefaultMaxRetryAfter = 2 * time.Minute
	// DefaultPollTimeout bounds a wait for a job: the reference server
	// stops an export after 15 minutes, and a queue ahead of it is bounded.
	DefaultPollTimeout = time.Hour
)

// Config describes how to reach the API. Only BaseURL and APIKey are
// required; everything else has a default suited to a CLI or provider.
type Config struct {
	// BaseURL is the scheme and host (and optional path prefix) that the
	// API paths in package api are appended to.
	BaseURL string
	// APIKey is the admin API key, sent as a bearer token.
	APIKey string
	// UserAgent names the calling program and its version.
	UserAgent string
	// Timeout bounds one HTTP attempt, not the whole retried call.
	Timeout time.Duration
	// MaxRetries is how many times a 429, a 5xx or (for GET) a transport
	// error is retried. Zero means DefaultMaxRetries; negative disables.
	MaxRetries int
	// MinRetryWait and MaxRetryWait bound the exponential backoff between
	// retries when the server sends no Retry-After.
	MinRetryWait, MaxRetryWait time.Duration
	// MaxRetryAfter is the longest Retry-After the client will sit out; a
	// longer one (an hourly quota) fails at once with the APIError.
	MaxRetryAfter time.Duration
	// PollTimeout bounds the whole of a wait for a job (WaitExport,
	// WaitAgentJob), measured on Clock. Zero means DefaultPollTimeout.
	PollTimeout time.Duration
	// Logger receives redacted request lines. Nil discards them.
	Logger Logger
	// Clock dates Retry-After headers and paces polling. Nil is the wall clock.
	Clock clock.Clock
	// Sleep waits d or until ctx ends. Tests replace it so that retries and
	// polling run without real waiting. Nil uses a timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// Jitter returns a number in [0,1) that spreads retry waits. Nil uses
	// math/rand.
	Jitter func() float64
	// HTTPClient replaces the transport, for example to add a proxy.
	HTTPClient *http.Client
}

// Client is an admin API client. It is safe for concurrent use.
type Client struct {
	rc     *resty.Client
	cfg    Config
	log    Logger
	clock  clock.Clock
	sleep  func(context.Context, time.Duration) error
	jitter func() float64
	server serverClock
}

// New checks cfg and returns a client; it does not contact the server.
func New(cfg Config) (*Client, error) {
	if strings.TrimSpace(cfg.BaseURL) == "" {
		return nil, errors.New("base URL is empty")
	}
	if !strings.HasPrefix(cfg.BaseURL, "http://") && !strings.HasPrefix(cfg.BaseURL, "https://") {
		return nil, fmt.Errorf("base URL %q must start with http:// or https://", cfg.BaseURL)
	}
	if strings.TrimSpace(cfg.APIKey) == "" {
		return nil, errors.New("API key is empty")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	switch {
	case cfg.MaxRetries == 0:
		cfg.MaxRetries = DefaultMaxRetries
	case cfg.MaxRetries < 0:
		cfg.MaxRetries = 0
	}
	if cfg.MinRetryWait <= 0 {
		cfg.MinRetryWait = DefaultMinRetryWait
	}
	if cfg.MaxRetryWait < cfg.MinRetryWait {
		cfg.MaxRetryWait = max(DefaultMaxRetryWait, cfg.MinRetryWait)
	}
	if cfg.MaxRetryAfter <= 0 {
		cfg.MaxRetryAfter = DefaultMaxRetryAfter
	}
	if cfg.PollTimeout <= 0 {
		cfg.PollTimeout = DefaultPollTimeout
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = "docsadmin-client"
	}
	c := &Client{cfg: cfg, clock: cfg.Clock, sleep: cfg.Sleep, jitter: cfg.Jitter}
	if c.clock == nil {
		c.clock = clock.Real{}
	}
	if c.sleep == nil {
		c.sleep = clock.Sleep
	}
	if c.jitter == nil {
		c.jitter = rand.Float64
	}
	var next Logger = nopLogger{}
	if cfg.Logger != nil {
		next = cfg.Logger
	}
	c.log = redactingLogger{next: next, secrets: []string{cfg.APIKey}}

	if cfg.HTTPClient != nil {
		c.rc = resty.NewWithClient(cfg.HTTPClient)
	} else {
		c.rc = resty.New()
	}
	c.rc.SetBaseURL(strings.TrimRight(cfg.BaseURL, "/")).
		SetTimeout(cfg.Timeout).
		SetAuthToken(cfg.APIKey).
		SetHeader("User-Agent", cfg.UserAgent).
		SetHeader("Accept", "application/json").
		SetRetryCount(0). // retries are ours: they need the injectable sleep
		// Without it resty sends a bodyless POST as an empty chunked body,
		// which servers that insist on JSON bodies reject with 415.
		SetContentLength(true).
		SetLogger(restyLogger{ctx: context.Background(), l: c.log}).
		SetDisableWarn(true)
	return c, nil
}

// call is one logical API call; do runs it with retries.
type call struct {
	method  string
	pattern string
	params  map[string]string
	body    any
	out     any
	// idempotencyKey, when set, is sent as Idempotency-Key; only such a
	// POST is retried after a 5xx or a transport error, because the
	// server then answers a repeat with the job the first one created.
	idempotencyKey string
	// noRetry makes one attempt whatever MaxRetries says (CheckKey).
	noRetry bool
}

func (c *Client) do(ctx context.Context, cl call) error {
	path := api.FillPath(cl.pattern, cl.params) // for logs and errors
	for attempt := 0; ; attempt++ {
		req := c.rc.R().SetContext(ctx).SetLogger(restyLogger{ctx: ctx, l: c.log}).SetRawPathParams(escapeAll(cl.params))
		if cl.body != nil {
			req.SetHeader("Content-Type", "application/json").SetBody(cl.body)
		}
		if cl.idempotencyKey != "" {
			req.SetHeader(api.IdempotencyHeader, cl.idempotencyKey)
		}
		start, sent := time.Now(), c.clock.Now()
		resp, err := req.Execute(cl.method, cl.pattern)
		if err == nil {
			c.observeDate(ctx, resp.Header(), sent, c.clock.Now())
		}
		fields := map[string]any{"method": cl.method, "path": path, "attempt": attempt + 1,
			"duration_ms": time.Since(start).Milliseconds()}

		var wait time.Duration
		var failure error
		switch {
		case err != nil:
			if ctx.Err() != nil {
				return fmt.Errorf("%s %s: %w", cl.method, path, ctx.Err())
			}
			failure = fmt.Errorf("%s %s: %w", cl.method, path, err)
			fields["error"] = err.Error()
			c.log.Warn(ctx, "admin API request failed", fields)
			// A POST that died in transit may have reached the server;
			// repeating it could start a second export, unless the server
			// can recognise the repeat by its idempotency key.
			if !cl.retrySafe() {
				return failure
			}
			wait = c.backoff(attempt)
		default:
			status := resp.StatusCode()
			fields["status"] = status
			c.log.Debug(ctx, "admin API request", fields)
			if status >= 200 && status < 300 {
				if cl.out == nil {
					return nil
				}
				if err := json.Unmarshal(resp.Body(), cl.out); err != nil {
					return fmt.Errorf("%s %s: decode %d answer: %w", cl.method, path, status, err)
				}
				return nil
			}
			apiErr := &APIError{StatusCode: status, Message: errorMessage(resp), Method: cl.method, Path: path}
			if ra, ok := parseRetryAfter(resp.Header().Get("Retry-After"), c.clock.Now()); ok {
				apiErr.RetryAfter = ra
			}
			failure = apiErr
			if !retryable(status) || (status >= 500 && !cl.retrySafe()) {
				return apiErr
			}
			wait = c.backoff(attempt)
			if apiErr.RetryAfter > 0 {
				if apiErr.RetryAfter > c.cfg.MaxRetryAfter {
					return apiErr
				}
				wait = apiErr.RetryAfter
			}
		}
		if attempt >= c.cfg.MaxRetries || cl.noRetry {
			return failure
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			// Sleeping past the deadline only hides the real error.
			return failure
		}
		c.log.Debug(ctx, "retrying admin API request", map[string]any{"path": path, "wait_ms": wait.Milliseconds()})
		if err := c.sleep(ctx, wait); err != nil {
			return fmt.Errorf("waiting to retry: %w", errors.Join(err, failure))
		}
	}
}

// retrySafe reports whether repeating the call cannot do its work twice.
// Generating a bundle only signs a new link to the same archive.
func (cl call) retrySafe() bool {
	return cl.method == http.MethodGet || cl.idempotencyKey != "" || cl.pattern == api.PathExportBundle
}

// retryable is true for rate limiting and server-side failures; any other
// 4xx means the request itself is wrong and repeating it cannot help.
func retryable(status int) bool {
	return status == http.StatusTooManyRequests || status >= 500
}

// backoff doubles from MinRetryWait, capped at MaxRetryWait, and keeps a
// random half of it so that many clients hitting one limit spread out.
func (c *Client) backoff(attempt int) time.Duration {
	d := c.cfg.MinRetryWait << min(attempt, 20)
	if d <= 0 || d > c.cfg.MaxRetryWait {
		d = c.cfg.MaxRetryWait
	}
	half := d / 2
	return half + time.Duration(c.jitter()*float64(d-half))
}
