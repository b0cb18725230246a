package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// skewTolerance is the clock difference ServerNow ignores. A Date header
// has whole seconds and the answer took time to arrive, so a difference
// this small says nothing about the clocks.
const skewTolerance = 2 * time.Second

// keyCheckTimeout bounds CheckKey: it runs at plan time before anything
// else, and a server that does not answer soon is treated as unreachable.
const keyCheckTimeout = 10 * time.Second

// keyCheckJobID names no job: the check only wants to know whether the
// server lets the key in, and any answer but 401 says it does.
const keyCheckJobID = "credential-check"

// serverClock remembers how far the server's clock is from ours, as the
// Date header of the latest answer tells.
type serverClock struct {
	skew atomic.Int64 // a time.Duration: server minus local
	seen atomic.Bool  // whether any answer carried a Date
	date atomic.Int64 // the latest Date, in Unix seconds
}

// observeDate records the skew that an answer's Date header shows, taking
// the local time as the middle of the round trip, and logs it when it
// changes by more than the tolerance.
func (c *Client) observeDate(ctx context.Context, header http.Header, sent, received time.Time) {
	date, err := http.ParseTime(header.Get("Date"))
	if err != nil {
		return // no Date, or not one a server should send: keep what we had
	}
	c.server.date.Store(date.Unix())
	local := sent.Add(received.Sub(sent) / 2)
	// Date truncates to the second: its middle is the better estimate.
	skew := date.Add(500 * time.Millisecond).Sub(local)
	prev := time.Duration(c.server.skew.Swap(int64(skew)))
	if first := !c.server.seen.Swap(true); first || (skew-prev).Abs() > skewTolerance {
		c.log.Debug(ctx, "server clock observed", map[string]any{"skew_ms": skew.Milliseconds(),
			"server_time": date.UTC().Format(time.RFC3339)})
	}
}

// ServerNow is the server's time as the Date header of its latest answer
// shows it: the client's clock moved by the skew observed then. Presigned
// links expire by the server's clock, so decisions about them (renewal)
// ask this rather than the local clock. Before any answer, or within the
// tolerance of a Date header's precision, it is the local clock.
func (c *Client) ServerNow() time.Time {
	now := c.clock.Now()
	if skew := c.Skew(); skew.Abs() > skewTolerance {
		return now.Add(skew)
	}
	return now
}

// Skew is how far ahead of the client's clock the server's was at its
// latest answer (negative when behind); zero before any answer.
func (c *Client) Skew() time.Duration { return time.Duration(c.server.skew.Load()) }

// ErrKeyRejected matches (with errors.Is) CheckKey's error when the server
// refuses the API key.
var ErrKeyRejected = errors.New("the server rejected the API key")

// CheckKey asks the server, once and without retries, whether it accepts
// the API key: a read that needs the key and costs the server nothing. It
// returns an error matching ErrKeyRejected (and wrapping the *APIError)
// only for a 401; any other answer means the key got in. A server that
// cannot be reached gives the transport error, which callers at plan time
// treat as "cannot tell". The answer's Date header also sets ServerNow.
func (c *Client) CheckKey(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, min(c.cfg.Timeout, keyCheckTimeout))
	defer cancel()
	err := c.do(ctx, call{method: http.MethodGet, pattern: api.PathExportJob,
		params: map[string]string{"jobId": keyCheckJobID}, noRetry: true})
	var apiErr *APIError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusUnauthorized:
		return fmt.Errorf("%w: %w", ErrKeyRejected, err)
	case errors.As(err, &apiErr):
		return nil // 404 for the made-up job, or any other answer past authentication
	}
	return err
}

// LinkLifetime is how long a link the server has just granted lives, by
// the server's clock: its expiry less the Date of the answer that brought
// it (both whole seconds, so a slow answer does not shorten it), or less
// ServerNow without one. The server grants every link the same lifetime,
// so this tells what a renew_before must stay under. Call it right after
// GenerateBundle: a later answer moves the Date.
func (c *Client) LinkLifetime(b api.Bundle) time.Duration {
	if d := c.server.date.Load(); d != 0 {
		return b.ExpiresAt.Sub(time.Unix(d, 0)).Round(time.Second)
	}
	return b.ExpiresAt.Sub(c.ServerNow()).Round(time.Second)
}
