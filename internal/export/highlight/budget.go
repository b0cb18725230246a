package highlight

import (
	"errors"
	"io"
	"math"
	"strings"
	"sync/atomic"
	"time"
)

// ErrBudgetSpent is a block shown plain because its export's highlighting
// budget was spent.
var ErrBudgetSpent = errors.New("the export's highlighting budget is spent")

// Budget is the work one export may spend highlighting, summed over its
// blocks. Each block is bounded on its own (maxBlockBytes, the rule runs
// per character, blockBudget), but a page of fifty blocks each just
// inside those bounds still costs half a minute; the budget caps the sum.
// Once it is spent, Write shows every further block plain at once, and
// Plain counts them so the export can warn once.
//
// Work is counted, not timed: the tokeniser's steps, the rules it tried
// and the characters they may scan, in work units that each stand for
// workUnit of the export's limits.highlightTime (about what they cost;
// see workUnit). Timed, the budget ran out on a loaded machine for a
// 25,000-page site, and its output changed with the load; counted, a
// source within the budget is highlighted the same way on every machine.
// Past it, which blocks come out plain depends on the order the workers
// reach them in.
//
// It also keeps the export's highlighted blocks (memo), so that a block
// met again costs neither work nor budget.
type Budget struct {
	left  atomic.Int64 // work units
	plain atomic.Int64
	memo  memo
}

// NewBudget returns a budget of d, counted as d/workUnit work units.
func NewBudget(d time.Duration) *Budget {
	b := &Budget{}
	b.left.Store(int64(d / workUnit))
	return b
}

// Write is the package's Write charged to b: a block that would start
// once b is spent, or that needs more than what is left of it, is not
// written and ErrBudgetSpent returned (the caller shows Plain). A nil b
// is no budget.
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
	left := b.left.Load()
	if left <= 0 {
		b.plain.Add(1)
		return "", ErrBudgetSpent
	}
	if h, ok := b.memo.get(lang, code); ok {
		return h, nil
	}
	var sb strings.Builder
	work, err := writeWithin(&sb, lang, code, time.Now().Add(blockBudget), int(min(left, math.MaxInt32)))
	b.left.Add(-int64(work))
	if errors.Is(err, errWorkSpent) {
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
