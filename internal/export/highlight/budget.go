package highlight

import (
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"time"
)

// ErrBudgetSpent is a block shown plain because its export's highlighting
// budget was spent.
var ErrBudgetSpent = errors.New("the export's highlighting budget is spent")

// Budget is the time one export may spend highlighting, summed over its
// blocks. Each block is bounded on its own (maxBlockBytes, the work per
// character, blockBudget), but a page of fifty blocks each just inside
// those bounds still costs half a minute; the budget caps the sum. Once
// it is spent, Write shows every further block plain at once, and Plain
// counts them so the export can warn once. Pages render in parallel, so
// the sum is of the blocks' own times, not of the wall clock: the cap on
// the export's wall time is the budget divided by its workers at most.
//
// It is a timed bound, unlike the per-block ones, so which blocks of a
// hostile source come out plain may differ between runs; a source within
// the per-block bounds uses a sliver of the default.
//
// It also keeps the export's highlighted blocks (memo), so that a block
// met again costs neither time nor budget.
type Budget struct {
	left  atomic.Int64 // nanoseconds
	plain atomic.Int64
	memo  memo
}

// NewBudget returns a budget of d.
func NewBudget(d time.Duration) *Budget {
	b := &Budget{}
	b.left.Store(int64(d))
	return b
}

// Write is the package's Write charged to b: a block that would start
// once b is spent, or that runs past what is left of it, is not written
// and ErrBudgetSpent returned (the caller shows Plain). A nil b is no
// budget.
func (b *Budget) Write(w io.Writer, lang, code string) error {
	if b == nil {
		return Write(w, lang, code)
	}
	h, err := b.html(lang, code)
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, h)
	return err
}

// html is the HTML of code in lang, from the memo or highlighted and
// kept there, charged to b as Write says.
func (b *Budget) html(lang, code string) (string, error) {
	left := time.Duration(b.left.Load())
	if left <= 0 {
		b.plain.Add(1)
		return "", ErrBudgetSpent
	}
	if h, ok := b.memo.get(lang, code); ok {
		return h, nil
	}
	var sb strings.Builder
	start := time.Now()
	err := writeBy(&sb, lang, code, start.Add(min(left, blockBudget)))
	spent := time.Since(start)
	if b.left.Add(-int64(spent)) <= 0 && errors.Is(err, errTimeout) {
		b.plain.Add(1)
		return "", ErrBudgetSpent
	}
	if err != nil {
		return "", err
	}
	b.memo.put(lang, code, sb.String())
	return sb.String(), nil
}

// Plain is how many blocks the budget has shown plain.
func (b *Budget) Plain() int64 {
	if b == nil {
		return 0
	}
	return b.plain.Load()
}
