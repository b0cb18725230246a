package pgstore

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// changesChannel is the channel on which export_jobs' trigger (migration
// 004) names each job whose row a transaction changed, as it commits; an
// empty payload means every job (a TRUNCATE).
const changesChannel = "docsadmin_export_changes"

// changed drops id's record from the memo once this replica's write of
// it has ended (committed or not: dropping is always safe), so the write
// is seen here at once, before its notification arrives.
func (s *pgCore) changed(id string) { s.reads.memo.Changed(id) }

// How the changes connection shows it still hears every notification:
// every memoHeartbeat it notifies a channel of its own, and the memo
// serves records only until memoLive after the last heartbeat that came
// back. Notifications reach a listener in commit order, so a heartbeat
// that comes back follows every change committed before it was sent. A
// connection that goes silent without dropping (a half-open TCP
// connection) thus stops the memo within memoLive, and one whose
// heartbeat is not back within memoLive is dropped and made again.
const (
	memoHeartbeat = 500 * time.Millisecond
	memoLive      = 3 * memoHeartbeat
)

// startWatch listens on changesChannel once now, so that the memo serves
// from the first read, then keeps listening on a goroutine of its own
// until Close, reconnecting with back-off when the connection drops.
// openCtx bounds the first listen, as it bounds Open.
func (s *pgCore) startWatch(openCtx context.Context) {
	ctx, cancel := context.WithCancel(context.Background())
	s.life, s.stopWatch, s.watchDone = ctx, cancel, make(chan struct{})
	l := s.listenChanges(openCtx)
	go func() {
		defer close(s.watchDone)
		s.watch(ctx, l)
	}()
}

// changesListener is a connection listening on changesChannel and on a
// heartbeat channel of its own.
type changesListener struct {
	conn      *pgx.Conn
	heartbeat string    // its channel
	sent      time.Time // when the heartbeat in flight was sent; zero: none
}

// watch tells the memo of every change l (nil: none yet) and the
// connections after it hear, until ctx ends.
func (s *pgCore) watch(ctx context.Context, l *changesListener) {
	wait := listenRetryFirst
	for {
		if l != nil {
			wait = listenRetryFirst
			s.hear(ctx, l)
			s.reads.memo.Down()
			closeConn(l.conn)
		}
		if ctx.Err() != nil {
			return
		}
		wait = retryPause(ctx, wait)
		lctx, cancel := context.WithTimeout(ctx, pgOpTimeout) // a silent network
		l = s.listenChanges(lctx)
		cancel()
	}
}

// hear passes l's notifications to the memo and keeps its heartbeat
// going, until the connection fails, goes silent or ctx ends.
func (s *pgCore) hear(ctx context.Context, l *changesListener) {
	m := &s.reads.memo
	next := time.Now()
	for {
		if now := time.Now(); !now.Before(next) {
			if !l.sent.IsZero() && now.Sub(l.sent) > memoLive {
				return // the last heartbeat is not back: silent
			}
			if l.sent.IsZero() {
				hctx, cancel := context.WithTimeout(ctx, memoLive)
				_, err := l.conn.Exec(hctx, "NOTIFY "+l.heartbeat)
				cancel()
				if err != nil {
					return
				}
				l.sent = now
			}
			next = now.Add(memoHeartbeat)
		}
		wctx, cancel := context.WithDeadline(ctx, next)
		n, err := l.conn.WaitForNotification(wctx)
		cancel()
		if n != nil {
			if n.Channel == l.heartbeat {
				m.Alive(l.sent.Add(memoLive))
				l.sent = time.Time{}
			} else {
				m.Changed(n.Payload)
			}
		}
		if err != nil && (ctx.Err() != nil || !pgconn.Timeout(err)) {
			return
		}
	}
}

// listenChanges opens a connection of its own (not the pool's: a
// listening connection must not serve queries, and its heartbeats are
// not the store's statements), listens on it and says the memo is live;
// nil if it could not.
func (s *pgCore) listenChanges(ctx context.Context) *changesListener {
	cfg := s.pool.Config().ConnConfig
	cfg.Tracer = nil
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil
	}
	l := &changesListener{conn: conn, heartbeat: fmt.Sprintf("docsadmin_heartbeat_%d", conn.PgConn().PID())}
	start := time.Now()
	if _, err := conn.Exec(ctx, "LISTEN "+changesChannel+"; LISTEN "+l.heartbeat); err != nil {
		closeConn(conn)
		return nil
	}
	s.reads.memo.Up(start.Add(memoLive))
	return l
}

// closeConn closes a listening connection, within a second.
func closeConn(conn *pgx.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = conn.Close(ctx)
}
