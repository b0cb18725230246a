package highlight

import (
	"errors"
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
