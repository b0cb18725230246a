package openapi

import "context"

// PageWork bounds the schema expansion of one page: every $ref followed,
// allOf part merged, schema flattened and example value built spends one
// step. A spec whose schemas fan out (each level a oneOf and an allOf of
// the level below, twice) doubles the work per level; past the bound the
// page shows the remaining schemas by name. The largest pages of real
// specs we measured spend a few thousand steps.
const PageWork = 50_000

// checkEvery is how many steps pass between looks at the context: a step
// is well under a microsecond, so a cancelled export stops a page within
// milliseconds.
const checkEvery = 256

// Work is what one page may still spend on expanding schemas, shared by
// every View of the page (reference, playground, samples). It stops when
// the steps run out or the page's context is done (the export's time
// limit, a shutdown). A nil *Work never stops.
type Work struct {
	ctx     context.Context
	left    int
	stopped bool
	// Cut counts the schemas shown by name because the work stopped.
	Cut int
}

// NewWork returns a budget of steps for one page, stopped early when ctx
// is done. A nil ctx is never done.
func NewWork(ctx context.Context, steps int) *Work {
	if ctx == nil {
		ctx = context.Background()
	}
	return &Work{ctx: ctx, left: steps}
}

// spend takes one step; false once the work has stopped.
func (w *Work) spend() bool {
	if w == nil {
		return true
	}
	if w.stopped {
		return false
	}
	w.left--
	if w.left < 0 || w.left%checkEvery == 0 && w.ctx.Err() != nil {
		w.stopped = true
		return false
	}
	return true
}

// Stopped reports whether the page ran out of work or was cancelled.
func (w *Work) Stopped() bool { return w != nil && w.stopped }

// Err is the context's error when cancellation stopped the work, nil
// when the budget did (or nothing did).
func (w *Work) Err() error {
	if w == nil || !w.stopped {
		return nil
	}
	return w.ctx.Err()
}
