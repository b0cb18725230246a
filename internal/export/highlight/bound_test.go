package highlight

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
)

// hostileBlocks are the shapes of code that made highlighting
// superlinear, each as large as the bounds let through: lines of 1,000
// characters, 16 KiB in all.
func hostileBlocks() []struct{ name, lang, code string } {
	lines := func(unit string) string {
		line := strings.Repeat(unit, 1000/len(unit)) + "\n"
		return strings.Repeat(line, (16<<10)/len(line))
	}
	return []struct{ name, lang, code string }{
		{"interpolation openers without a closer", "php", "<?php\n" + lines(`"{$`)},
		{"unclosed strings", "go", lines(`"a `)},
		{"unclosed template literals", "javascript", lines("`${")},
		{"deep nesting", "json", lines("[")},
		{"error characters", "json", lines("@")},
		{"nested command substitutions", "bash", lines("$(")},
		{"one huge token", "go", `"` + strings.Repeat("a", 16<<10) + `"`},
		{"heredoc openers", "bash", strings.Repeat("<<EOF\n", 2700)},
	}
}

// Every hostile block is highlighted, or refused, within a bounded number
// of rule runs per character (counted, not timed); a line past the bound,
// or a block past its size, is shown plain without a rule being run.
func TestTokens_hostileBlocksBoundedWork(t *testing.T) {
	for _, c := range hostileBlocks() {
		t.Run(c.name, func(t *testing.T) {
			l, ok := lookupLexer(c.lang).(*firstCharLexer)
			if !ok {
				t.Fatalf("%s has no firstCharLexer", c.lang)
			}
			it := l.iterator(nil, c.code)
			it.maxRuns = max(minRuns, maxRunsPerRune*len(it.s.Text))
			if drain(it) == 0 {
				t.Fatal("no tokens")
			}
			if it.err != nil && !errors.Is(it.err, errTooMuchWork) {
				t.Fatal(it.err)
			}
			// The run that crosses the budget is the last one.
			if budget := maxRunsPerRune * len(it.s.Text); it.runs > budget+1 {
				t.Fatalf("%d rule runs for %d characters, bound %d", it.runs, len(it.s.Text), budget)
			}
		})
	}
	long := strings.Repeat(`"{$`, 400) // one line of 1,200 characters
	for name, code := range map[string]string{
		"a line past the bound":  "<?php\n" + long + "\n",
		"a block past the bound": "<?php\n" + strings.Repeat("$a = 1;\n", maxBlockBytes/8+1),
	} {
		var sb strings.Builder
		if err := Write(&sb, "php", code); !errors.Is(err, errTooLarge) || sb.Len() != 0 {
			t.Errorf("%s: %v, %d bytes written; want errTooLarge and nothing", name, err, sb.Len())
		}
	}
}

// A run of one-character tokens of one type is coalesced in memory
// linear in its length: adding each to the token's string copied it
// (measured here: 10 MB allocated before, 1.6 MB after; the tokeniser
// itself takes about 100 bytes a character).
func TestTokens_coalescingAllocatesLinearly(t *testing.T) {
	code := strings.Repeat(strings.Repeat("@", 1000)+"\n", 16)
	l := lookupLexer("json").(*firstCharLexer)
	if _, err := l.Tokens(code); err != nil { // warm: the lexer's own allocations
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := l.Tokens(code); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if got, bound := float64(after.TotalAlloc-before.TotalAlloc), 256*float64(len(code)); got > bound {
		t.Fatalf("%.0f bytes allocated to tokenise %d bytes, bound %.0f", got, len(code), bound)
	}
}

// drain reads it to its end and returns how many tokens it gave.
func drain(it *firstCharIterator) int {
	n := 0
	for it.next() != chroma.EOF {
		n++
	}
	return n
}

// BenchmarkHighlight_hostile times the hostile blocks at the size the
// bounds let through and reports the rule runs per character.
func BenchmarkHighlight_hostile(b *testing.B) {
	for _, c := range hostileBlocks() {
		b.Run(c.name, func(b *testing.B) {
			l := lookupLexer(c.lang).(*firstCharLexer)
			runs := 0
			for b.Loop() {
				it := l.iterator(nil, c.code)
				it.maxRuns = max(minRuns, maxRunsPerRune*len(it.s.Text))
				drain(it)
				runs = it.runs
			}
			b.ReportMetric(float64(runs)/float64(len(c.code)), "runs/char")
		})
	}
}
