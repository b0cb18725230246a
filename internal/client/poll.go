package client

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
)

// Polling bounds: the first check is immediate, the next after
// MinPollInterval, doubling up to MaxPollInterval. Short jobs are noticed
// within a fraction of a second, long ones cost one request every few
// seconds.
const (
	MinPollInterval = 250 * time.Millisecond
	MaxPollInterval = 5 * time.Second
)

// pacer decides the wait before the next status check. Besides the
// doubling backoff it watches the job's progress: once the rate is known,
// it never sleeps far past the moment the job should finish, which keeps
// the delay between "completed" and noticing it under a second even after
// the backoff has grown.
type pacer struct {
	clock   clock.Clock
	delay   time.Duration
	seen    bool
	firstAt time.Time
	firstP  float64
}

func newPacer(c clock.Clock) *pacer { return &pacer{clock: c, delay: MinPollInterval} }

// next returns the wait after a check that reported progress (0 to 100;
// pass 0 when the job has no notion of progress).
func (p *pacer) next(progress float64) time.Duration {
	d := p.delay
	p.delay = min(p.delay*2, MaxPollInterval)
	if progress <= 0 || progress >= 100 {
		return d
	}
	now := p.clock.Now()
	if !p.seen {
		p.seen, p.firstAt, p.firstP = true, now, progress
		return d
	}
	elapsed := now.Sub(p.firstAt).Seconds()
	if progress <= p.firstP || elapsed <= 0 {
		return d
	}
	perSecond := (progress - p.firstP) / elapsed
	eta := time.Duration((100 - progress) / perSecond * float64(time.Second))
	return min(d, max(eta, MinPollInterval))
}

// poll fetches until done says so, calling onPoll with every answer. The
// first fetch is immediate. An error from fetch ends the wait.
func poll[T any](ctx context.Context, c *Client, fetch func(context.Context) (T, error),
	progress func(T) float64, done func(T) bool, onPoll func(T)) (T, error) {
	p := newPacer(c.clock)
	deadline := c.clock.Now().Add(c.cfg.PollTimeout)
	for {
		v, err := fetch(ctx)
		if err != nil {
			return v, err
		}
		if onPoll != nil {
			onPoll(v)
		}
		if done(v) {
			return v, nil
		}
		wait := p.next(progress(v))
		if left := deadline.Sub(c.clock.Now()); left <= 0 {
			return v, fmt.Errorf("%w after %s", ErrPollTimeout, c.cfg.PollTimeout)
		} else if wait > left {
			wait = left // one last look at the deadline
		}
		if err := c.sleep(ctx, wait); err != nil {
			return v, err
		}
	}
}

// ErrPollTimeout is returned when a job is still not finished once the
// client's PollTimeout has passed; the job itself goes on.
var ErrPollTimeout = errors.New("gave up waiting for the job to finish")
