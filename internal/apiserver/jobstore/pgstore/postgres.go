package pgstore

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/redact"
)

// Postgres is the Store that replicas share. Every check-and-write runs
// in one transaction that first takes a transaction-scoped advisory lock
// keyed by what the check counts (the organization for export limits and
// idempotency keys, the project for the agent-job hourly limit): starts
// for one organization queue behind each other on every replica, others
// run in parallel. An advisory lock rather than SELECT … FOR UPDATE on an
// organization row because organizations live in the configuration, not
// the database: there is no row to lock, and a lock on "no rows yet"
// would not stop two first inserts. The lock ends with the transaction,
// so a replica that dies mid-start holds nothing.
//
// Its methods live on one small type per kind of record, all sharing one
// pgCore, and reach callers as Postgres's promoted methods: pgAgents
// (agent jobs, postgres_agent.go), pgExports (export jobs and their
// idempotency keys, postgres_jobs.go and postgres_create.go), pgClaims
// (claims, leases and completions, postgres_claim.go, and the watch for
// claimable jobs, postgres_watch.go) and pgUpdates (postgres_updates.go).
// The core coalesces export job reads (postgres_reads.go) and keeps the
// records status polls are answered from, told of changes by a trigger's
// notifications (postgres_memo.go).
type Postgres struct {
	*pgCore
	pgAgents
	pgExports
	pgClaims
	pgUpdates
}

// pgCore is what every kind of record shares: the pool and what counts,
// faults and coalesces the statements sent through it.
type pgCore struct {
	pool  *pgxpool.Pool
	fault jobstore.WriteFaults
	// reads coalesces concurrent export job reads (postgres_reads.go).
	reads pgExportReads
	// statements counts the statements sent (postgres_count.go).
	statements statementCounter
	// life ends when the store closes: it bounds the work no one caller
	// owns (the shared reads of postgres_reads.go, the watch).
	life context.Context
	// stopWatch ends life, and with it the goroutine that keeps
	// reads.memo told of changes (postgres_memo.go); watchDone is closed
	// when it has.
	stopWatch context.CancelFunc
	watchDone chan struct{}
	// instance names this store among the replicas in the notifications
	// it sends of new jobs, so its own Watch can pass over them: the
	// server that started a job has woken its own workers already.
	instance string
}

// The kinds of record a Postgres keeps, each over the shared core.
type (
	pgAgents  struct{ *pgCore }
	pgExports struct{ *pgCore }
	pgClaims  struct{ *pgCore }
	pgUpdates struct{ *pgCore }
)

var (
	_ jobstore.Store       = (*Postgres)(nil)
	_ jobstore.AgentStore  = (*pgAgents)(nil)
	_ jobstore.ExportStore = (*pgExports)(nil)
	_ jobstore.ClaimStore  = (*pgClaims)(nil)
	_ jobstore.UpdateStore = (*pgUpdates)(nil)
)

// newPostgres puts the kinds of record together over core.
func newPostgres(core *pgCore) *Postgres {
	return &Postgres{pgCore: core, pgAgents: pgAgents{core}, pgExports: pgExports{core},
		pgClaims: pgClaims{core}, pgUpdates: pgUpdates{core}}
}

// Classes of the two-key advisory locks; the second key is hashtext of
// the organization or project id. A hash collision only makes two
// organizations wait for each other, never lets a check race.
const (
	lockExportOrg    int32 = 0x646f6301
	lockAgentProject int32 = 0x646f6302
)

// defaultPoolConns is the connection pool's size unless the URL sets it.
const defaultPoolConns = 16

// pgOpTimeout bounds each store call, so a database that stops answering
// turns into an error (503, a retried write) rather than a hung request.
const pgOpTimeout = 15 * time.Second

// Open connects, checks the database answers and applies the
// schema migrations.
func Open(ctx context.Context, url string) (*Postgres, error) {
	ctx, cancel := context.WithTimeout(ctx, pgOpTimeout)
	defer cancel()
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// The parse error may quote the URL, password and all.
		return nil, fmt.Errorf("database URL %s does not parse", redact.URL(url))
	}
	// pgxpool's default (4 on two cores) would make API requests queue
	// behind the workers and their lease renewals; a URL's own
	// pool_max_conns wins.
	if !strings.Contains(url, "pool_max_conns") {
		cfg.MaxConns = defaultPoolConns
	}
	core := &pgCore{instance: newInstanceID()}
	cfg.ConnConfig.Tracer = &core.statements
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect to database %s: %w", redact.URL(url), redact.Error(err))
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("connect to database %s: %w", redact.URL(url), redact.Error(err))
	}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("migrate database: %w", err)
	}
	core.pool = pool
	core.startWatch(ctx)
	return newPostgres(core), nil
}

// Close implements Store.
func (s *pgCore) Close() error {
	s.stopWatch()
	<-s.watchDone
	s.pool.Close()
	return nil
}

// Faults implements Store.
func (s *pgCore) Faults() *jobstore.WriteFaults { return &s.fault }

// Ping implements Store.
func (s *pgCore) Ping(ctx context.Context) error { return s.pool.Ping(ctx) }

// write runs fn in one transaction, or fails the way a lost database
// would when a test says so.
func (s *pgCore) write(ctx context.Context, fn func(ctx context.Context, tx pgx.Tx) error) error {
	if err := s.fault.Check(); err != nil {
		return err
	}
	ctx, cancel := opCtx(ctx)
	defer cancel()
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error { return fn(ctx, tx) })
}

// opCtx is the caller's ctx bounded by pgOpTimeout.
func opCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, pgOpTimeout)
}

// deleteRows runs one DELETE (of agent jobs or of updates) and counts
// the rows it dropped.
func (s *pgCore) deleteRows(ctx context.Context, query string, arg any) (int, error) {
	n := 0
	err := s.write(ctx, func(ctx context.Context, tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, query, arg)
		n = int(tag.RowsAffected())
		return err
	})
	return n, err
}
