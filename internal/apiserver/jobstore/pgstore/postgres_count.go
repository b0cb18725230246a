package pgstore

import (
	"context"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
)

// statementCounter counts the statements the pool sends (BEGIN and
// COMMIT included), each one a round trip to the database unless it goes
// in a batch, which sends all of its statements in one; so that a
// benchmark can report what an export costs in them. An atomic add per
// statement or batch is all it does.
type statementCounter struct{ n atomic.Int64 }

var (
	_ pgx.QueryTracer = (*statementCounter)(nil)
	_ pgx.BatchTracer = (*statementCounter)(nil)
)

func (c *statementCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	c.n.Add(1)
	return ctx
}

func (c *statementCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// Statements is how many statements this store has sent to the database
// since it was opened.
func (s *pgCore) Statements() int64 { return s.statements.n.Load() }

// TraceBatchStart counts each statement of a batch.
func (c *statementCounter) TraceBatchStart(ctx context.Context, _ *pgx.Conn, data pgx.TraceBatchStartData) context.Context {
	c.n.Add(int64(data.Batch.Len()))
	return ctx
}

func (c *statementCounter) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}

func (c *statementCounter) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}
