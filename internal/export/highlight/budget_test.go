package highlight

import (
	"errors"
	"io"
	"math"
	"strings"
	"testing"
	"time"
)

// An export's budget caps its highlighting as a whole: a block that runs
// past what is left is cut off, every block after is shown plain without
// being tokenised, and Plain counts them all.
func TestBudget_spentShowsTheRestPlain(t *testing.T) {
	hostile := hostileBlocks()[0] // PHP interpolation openers: most of a second each
	b := NewBudget(time.Millisecond)
	const blocks = 20
	for i := range blocks {
		var sb strings.Builder
		if err := b.Write(&sb, hostile.lang, hostile.code); !errors.Is(err, ErrBudgetSpent) || sb.Len() != 0 {
			t.Fatalf("block %d: %v, %d bytes written; want ErrBudgetSpent and nothing", i, err, sb.Len())
		}
	}
	if b.Plain() != blocks {
		t.Fatalf("Plain = %d, want %d", b.Plain(), blocks)
	}
	if _, err := b.Code("go", "package main\n"); !errors.Is(err, ErrBudgetSpent) || b.Plain() != blocks+1 {
		t.Fatalf("an ordinary block after the budget: %v, Plain %d", err, b.Plain())
	}
}

// Within its budget, or with none, code is highlighted as Write does it,
// and nothing is counted.
func TestBudget_withinHighlights(t *testing.T) {
	code := "package main\n\nfunc main() { println(\"hi\") }\n"
	want, err := Code("go", code)
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string]*Budget{"budget": NewBudget(time.Minute), "none": nil} {
		for range 3 {
			got, err := b.Code("go", code)
			if err != nil || got.String() != want.String() || !strings.Contains(got.String(), `class="kd"`) {
				t.Fatalf("%s: %v\n%s", name, err, got)
			}
		}
		if b.Plain() != 0 {
			t.Errorf("%s: Plain = %d, want 0", name, b.Plain())
		}
	}
}

// The budget counts work, not time: a block costs the same every time,
// so a budget just short of two blocks highlights the first and shows the
// second plain, on any machine and under any load.
func TestBudget_countsWorkNotTime(t *testing.T) {
	a, b := highlightCases[0], highlightCases[3]
	work := func(lang, code string) int {
		n, err := writeWithin(io.Discard, lang, code, time.Now().Add(time.Minute), math.MaxInt)
		if err != nil || n <= 0 {
			t.Fatalf("%s: work %d, %v", lang, n, err)
		}
		return n
	}
	workA, workB := work(a.lang, a.code), work(b.lang, b.code)
	for range 3 {
		if w := work(a.lang, a.code); w != workA {
			t.Fatalf("the same block cost %d, then %d", workA, w)
		}
		bud := &Budget{}
		bud.left.Store(int64(workA + workB - 1))
		if _, err := bud.Code(a.lang, a.code); err != nil {
			t.Fatalf("the first block: %v", err)
		}
		if _, err := bud.Code(b.lang, b.code); !errors.Is(err, ErrBudgetSpent) || bud.Plain() != 1 {
			t.Fatalf("the second block: %v, Plain %d; want ErrBudgetSpent and 1", err, bud.Plain())
		}
	}
	if got, want := NewBudget(time.Second).left.Load(), int64(time.Second/workUnit); got != want {
		t.Fatalf("a second's budget is %d units, want %d", got, want)
	}
}
