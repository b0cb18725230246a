package openapi

import "context"

// PageWork bounds the schema expansion of one page: every $ref followed,
// allOf part merged, schema flattened and example value built spends one
// step. A spec whose schemas fan out (each level a oneOf and an allOf of
// the level below, twice) doubles the work per level; past the bound the
// page shows the remaining schemas by name. The largest pages of real
// specs we measured spend a few thousand steps.
const PageWork = 50_000

// PageBytes bounds what the schemas of one page may add to it: the
// fields of its reference and its request and response examples. Steps
// do not bound bytes: a 2 KB description on a schema that 100 fields
// reference is 100 steps and 200 KB, and a 47 KB spec made 4.8 MB pages.
// Past the bound the page leaves the rest out with a note. The page's
// Markdown copy (machines) has a bound of its own of the same size.
const PageBytes = 256 << 10

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
	// bytes is what the page may still write (PageBytes at the start).
	bytes int
	// Truncated counts the fields and examples left out because the
	// page's output reached PageBytes.
	Truncated int
}

// NewWork returns a budget of steps for one page, stopped early when ctx
// is done. A nil ctx is never done.
func NewWork(ctx context.Context, steps int) *Work {
	if ctx == nil {
		ctx = context.Background()
	}
	return &Work{ctx: ctx, left: steps, bytes: PageBytes}
}

// Wrote spends n bytes of the page's output.
func (w *Work) Wrote(n int) {
	if w != nil {
		w.bytes -= n
	}
}

// Fits reports whether n more bytes stay within the page's bound.
func (w *Work) Fits(n int) bool { return w == nil || n <= w.bytes }

// Full reports whether the page's output has reached PageBytes; a
// caller that then leaves something out counts it with Truncate.
func (w *Work) Full() bool { return w != nil && w.bytes <= 0 }

// Truncate counts one field or example left out because the page is full.
func (w *Work) Truncate() {
	if w != nil {
		w.Truncated++
	}
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
