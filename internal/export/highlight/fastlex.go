package highlight

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/dlclark/regexp2/v2"
	"github.com/dlclark/regexp2/v2/syntax"
)

// firstCharLexer runs the rules of one of chroma's regular-expression
// lexers with chroma's own semantics, only faster. At each position
// chroma tries every rule of the current state, in order, until one
// matches; most fail on their first character, yet each attempt costs a
// full regexp2 run, since regexp2 skips its first-character check for
// patterns anchored with \G as chroma's are. This lexer computes, from
// each pattern's syntax tree, the characters a match can start with
// (regexp2's own analysis, which its unanchored searches rely on) and
// tries only the rules that can match the character at hand, in the same
// order: the first rule to match is the same one, so the tokens are the
// same. Highlighting is most of a page's render time (issue 25).
//
// Everything else follows chroma's RegexLexer: rules compiled with the
// lexer's flags, include and combined states resolved the same way,
// mutators and emitters (nested lexers included) called with a
// chroma.LexerState, an error token and a return to the start state on
// a newline no rule matches. TestFirstCharLexer_sameTokens holds it to
// chroma's tokens on chroma's own sample files.
type firstCharLexer struct {
	base  *chroma.RegexLexer
	rules chroma.CompiledRules
	first map[*chroma.CompiledRule]*syntax.Prefix // nil: the rule may match at any character
}

var _ chroma.Lexer = (*firstCharLexer)(nil)

// Bounds on the time highlighting may take. Chroma gives each rule's
// match 250 ms and takes a match that runs out for no match, so on a
// loaded machine the same code could come out with other tokens, and
// the export with another content version. Here a match has two seconds,
// far beyond any rule's cost on docs-sized code, and the whole block a
// budget; Tokens fails when either runs out and the caller shows the
// block plain (Write's error), so highlighting is the same on every
// machine or not there at all. A runaway pattern on hostile code still
// ends.
const ruleTimeout = 2 * time.Second

// blockBudget bounds the tokenising of one block by Tokens; a variable
// so that a test can run it out.
var blockBudget = 10 * time.Second

// errTimeout is a block whose highlighting ran out of time.
var errTimeout = errors.New("highlighting ran out of time")

// Bounds on the work of one block, counted rather than timed, so that a
// block is highlighted or shown plain the same way on every machine.
// Chroma's rules are tried at every token, and many of them scan ahead
// to a closing delimiter (PHP's `(\{)(\$.*?)(\})` in a string, say): on
// a line of n openers and no closer each try scans the rest of the line,
// n²/2 steps. Docs code has short lines; a line past maxLineRunes, or a
// block past maxBlockBytes, is shown plain, which bounds every scan; and
// a block whose rules are tried more than maxRunsPerRune times a
// character (a state machine gone round in circles) is given up.
const (
	maxBlockBytes  = 16 << 10
	maxLineRunes   = 1024
	maxRunsPerRune = 32
	// minRuns is the budget of a tiny block.
	minRuns = 1024
	// maxScan bounds how far past its start a rule may look (to the end
	// of the line it reaches): a lazy `.*?` of a dot-all lexer otherwise
	// scans to the end of the block at every opener. A token longer than
	// that (a comment or heredoc of over 2,000 characters) is tokenised
	// in pieces, as by a rule that did not match.
	maxScan = 2048
)

// errTooLarge is a block too large, or with a line too long, to
// highlight in bounded work; errTooMuchWork one whose rules were tried
// too often.
var (
	errTooLarge    = errors.New("code block too large to highlight")
	errTooMuchWork = errors.New("code block takes too much work to highlight")
)

// checkSize refuses a block past maxBlockBytes or with a line past
// maxLineRunes.
func checkSize(code string) error {
	if len(code) > maxBlockBytes {
		return errTooLarge
	}
	for line := range strings.Lines(code) {
		if len(line) > maxLineRunes && utf8.RuneCountInString(line) > maxLineRunes+1 { // +1: the newline
			return errTooLarge
		}
	}
	return nil
}

// newFirstCharLexer prepares base's rules; an error means base is left
// to chroma.
func newFirstCharLexer(base *chroma.RegexLexer) (*firstCharLexer, error) {
	// Tokenising once makes chroma compile and validate the rules, so a
	// lexer chroma would refuse is refused here too.
	if _, err := base.Tokenise(nil, ""); err != nil {
		return nil, err
	}
	raw, err := base.Rules()
	if err != nil {
		return nil, err
	}
	cfg := base.Config()
	flags := ""
	if !cfg.NotMultiline {
		flags += "m"
	}
	if cfg.CaseInsensitive {
		flags += "i"
	}
	if cfg.DotAll {
		flags += "s"
	}
	l := &firstCharLexer{base: base, rules: chroma.CompiledRules{}, first: map[*chroma.CompiledRule]*syntax.Prefix{}}
	for state, rules := range raw {
		l.rules[state] = nil
		for _, rule := range rules {
			pattern := "(?:" + rule.Pattern + ")"
			if flags != "" {
				pattern = "(?" + flags + ")" + pattern
			}
			re, err := regexp2.Compile(`\G` + pattern)
			if err != nil {
				return nil, fmt.Errorf("rule %s %q: %w", state, rule.Pattern, err)
			}
			re.MatchTimeout = ruleTimeout
			cr := &chroma.CompiledRule{Rule: rule, Regexp: re}
			l.rules[state] = append(l.rules[state], cr)
			if p := firstChars(pattern); p != nil {
				l.first[cr] = p
			}
		}
	}
	// Include and combined states rewrite the rule lists once, one
	// mutator per pass, as chroma does after compiling.
restart:
	seen := map[chroma.LexerMutator]bool{}
	for state := range l.rules {
		for i := range len(l.rules[state]) {
			m, ok := l.rules[state][i].Mutator.(chroma.LexerMutator)
			if !ok {
				continue
			}
			if seen[m] {
				return nil, fmt.Errorf("mutator %T seen twice", m)
			}
			seen[m] = true
			if err := m.MutateLexer(l.rules, state, i); err != nil {
				return nil, err
			}
			goto restart
		}
	}
	return l, nil
}

// firstChars is the set of characters a match of pattern can start with,
// or nil when regexp2 cannot tell (a pattern that can match nothing, for
// one).
func firstChars(pattern string) *syntax.Prefix {
	tree, err := syntax.Parse(pattern, syntax.ParseOptions{})
	if err != nil {
		return nil
	}
	code, err := syntax.Write(tree)
	if err != nil || code.FcPrefix == nil {
		return nil
	}
	return code.FcPrefix
}

// mayStart reports whether rule can match text at pos.
func (l *firstCharLexer) mayStart(rule *chroma.CompiledRule, text []rune, pos int) bool {
	p := l.first[rule]
	if p == nil {
		return true
	}
	if pos >= len(text) {
		return false // the pattern needs a character
	}
	ch := text[pos]
	if p.CaseInsensitive {
		ch = unicode.ToLower(ch)
	}
	return p.PrefixSet.CharIn(ch)
}

// match is chroma's rule matching with the first-character check before
// each rule.
// A match that runs out of time is no match, as in chroma, and its error
// is returned with the result.
func (l *firstCharLexer) match(text []rune, pos int, rules []*chroma.CompiledRule, runs *int) (int, *chroma.CompiledRule, []string, map[string]string, error) {
	var timeout error
	for i, rule := range rules {
		if !l.mayStart(rule, text, pos) {
			continue
		}
		*runs++
		m, err := rule.Regexp.FindRunesMatchStartingAt(text, pos)
		if err != nil {
			timeout = err
		}
		if m != nil && err == nil && m.RuneIndex == pos {
			// What chroma's match returns, with each group's text made
			// once and the two collections sized up front: these were a
			// fifth of all an export allocated.
			gs := m.Groups()
			groups := make([]string, len(gs))
			named := make(map[string]string, len(gs))
			for k, g := range gs {
				groups[k] = g.String()
				named[g.Name] = groups[k]
			}
			return i, rule, groups, named, timeout
		}
	}
	return 0, &chroma.CompiledRule{}, nil, nil, timeout
}

// Tokenise follows chroma's RegexLexer.Tokenise, a match that runs out
// of time included (no match).
func (l *firstCharLexer) Tokenise(options *chroma.TokeniseOptions, text string) (chroma.Iterator, error) {
	return l.iterator(options, text).next, nil
}

// Tokens is the coalesced tokens of text, as chroma.Coalesce(l)'s
// Tokenise gives them, or errTimeout when a rule's match or the block's
// budget runs out (see ruleTimeout).
func (l *firstCharLexer) Tokens(text string) ([]chroma.Token, error) {
	return l.tokensBy(text, time.Now().Add(blockBudget))
}

// tokensBy is Tokens with the block's deadline given.
func (l *firstCharLexer) tokensBy(text string, deadline time.Time) ([]chroma.Token, error) {
	tokens, _, err := l.tokensWithin(text, deadline, math.MaxInt)
	return tokens, err
}

// errWorkSpent is a block that would take more work than its export's
// highlighting budget has left.
var errWorkSpent = errors.New("highlighting would take more work than is left")

// tokensWithin is tokensBy with at most left work units (workUnit),
// what an export's highlighting budget (Budget) has left: a block that
// needs more fails with errWorkSpent. work is what the block cost, spent
// even when it fails.
func (l *firstCharLexer) tokensWithin(text string, deadline time.Time, left int) (_ []chroma.Token, work int, _ error) {
	if err := checkSize(text); err != nil {
		return nil, 0, err
	}
	it := l.iterator(nil, text)
	it.deadline = deadline
	it.maxRuns = max(minRuns, maxRunsPerRune*len(it.s.Text))
	if left < math.MaxInt {
		it.maxWork = max(left, 1)
	}
	var (
		out []chroma.Token
		run strings.Builder // the value of the last token, while it grows
	)
	flush := func() {
		if n := len(out); n > 0 && run.Len() > 0 {
			out[n-1].Value = run.String()
			run.Reset()
		}
	}
	for t := it.next(); t != chroma.EOF; t = it.next() {
		if t.Value == "" {
			continue
		}
		// Runs of one type are one token, up to chroma's 8 KiB, so the
		// HTML is the same as through chroma.Coalesce. The run grows in
		// a builder: adding to the string itself copied it every time,
		// quadratic in the run (8 KiB of one-character error tokens made
		// 32 MiB of copies).
		if n := len(out); n > 0 && out[n-1].Type == t.Type && run.Len() < 8192 {
			run.WriteString(t.Value)
			continue
		}
		flush()
		out = append(out, t)
		run.WriteString(t.Value)
	}
	flush()
	if it.err != nil {
		return nil, it.work, it.err
	}
	return out, it.work, nil
}

func (l *firstCharLexer) iterator(options *chroma.TokeniseOptions, text string) *firstCharIterator {
	if options == nil {
		options = &chroma.TokeniseOptions{State: "root", EnsureLF: true}
	}
	if options.EnsureLF {
		text = strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(text)
	}
	newlineAdded := false
	if !options.Nested && l.base.Config().EnsureNL && !strings.HasSuffix(text, "\n") {
		text += "\n"
		newlineAdded = true
	}
	s := &chroma.LexerState{
		Registry:       lexers.GlobalLexerRegistry,
		Lexer:          l.base,
		Text:           []rune(text),
		Stack:          []string{options.State},
		Rules:          l.rules,
		MutatorContext: map[any]any{},
	}
	return &firstCharIterator{l: l, s: s, start: options.State, newlineAdded: newlineAdded}
}

// firstCharIterator is chroma's LexerState.Iterator over a firstCharLexer.
type firstCharIterator struct {
	l            *firstCharLexer
	s            *chroma.LexerState
	start        string
	newlineAdded bool
	stack        []chroma.Iterator // emitted tokens not yet returned

	// With a deadline (Tokens) a match or the block that runs out of
	// time ends the tokens, with err set; without one a match that runs
	// out is no match, as in chroma.
	deadline time.Time
	err      error
	// runs counts the rules tried (regular-expression runs); with
	// maxRuns set (Tokens) the tokens end past it, with err set, and a
	// rule sees the text only up to scanEnd.
	runs, maxRuns int
	// work is the block's cost in work units (see workUnit), counted
	// as it goes; past maxWork, when set, the tokens end with
	// errWorkSpent. nextLine is the index just past the line end at or
	// after where the last rule was tried.
	work, maxWork, nextLine int
	// lineEnd[i] is the index just past the line end at or after i.
	lineEnd []int
}

// scanEnd is where a rule tried at pos stops seeing the text: the end of
// the line maxScan characters on.
func (it *firstCharIterator) scanEnd(pos int) int {
	text := it.s.Text
	if len(text)-pos <= maxScan {
		return len(text)
	}
	if it.lineEnd == nil {
		it.lineEnd = make([]int, len(text))
		end := len(text)
		for i := len(text) - 1; i >= 0; i-- {
			if text[i] == '\n' {
				end = i + 1
			}
			it.lineEnd[i] = end
		}
	}
	return it.lineEnd[pos+maxScan]
}

// Work units: what an export's highlighting budget counts (Budget), so
// that the same code costs the same everywhere, whatever the machine's
// load. A step of the tokeniser (a token or an error character) is one
// unit, a rule tried four, and one more for each sixteen characters left
// on the line it may scan: most rules stop within a few characters, but
// a lazy pattern hunting for a closer scans to the line's end, and on a
// hostile line of a thousand characters that, not the number of rules,
// is the cost. Measured against the time they took (a loaded two-core
// machine): the docs code of highlightCases and the PHP interpolation
// openers of hostileBlocks within 0.7 to 1.8 times, error characters
// 0.8; hostile lines whose rules stop early are charged more than they
// cost, which errs on the safe side.
const (
	workUnit     = 500 * time.Nanosecond
	runWork      = 4
	charsPerWork = 16
)

// charge adds the work of a step at pos that tried runs rules.
func (it *firstCharIterator) charge(runs, pos int) {
	it.work++
	if runs == 0 {
		return
	}
	text := it.s.Text
	if pos >= it.nextLine {
		it.nextLine = len(text)
		for i := pos; i < len(text); i++ {
			if text[i] == '\n' {
				it.nextLine = i + 1
				break
			}
		}
	}
	it.work += runs * (runWork + min(it.nextLine-pos, maxScan)/charsPerWork)
}

// pending returns the next token of the emitted iterators, or EOF when
// they are exhausted.
func (it *firstCharIterator) pending() chroma.Token {
	for len(it.stack) > 0 {
		n := len(it.stack) - 1
		t := it.stack[n]()
		if t.Type == chroma.Ignore {
			continue
		}
		if t == chroma.EOF {
			it.stack = it.stack[:n]
			continue
		}
		return t
	}
	return chroma.EOF
}

func (it *firstCharIterator) next() chroma.Token {
	s := it.s
	end := len(s.Text)
	if it.newlineAdded {
		end--
	}
	for s.Pos < end && len(s.Stack) > 0 {
		if t := it.pending(); t != chroma.EOF {
			return t
		}
		s.State = s.Stack[len(s.Stack)-1]
		rules, ok := s.Rules[s.State]
		if !ok {
			panic("unknown state " + s.State) // as chroma does
		}
		text := s.Text
		if it.maxRuns > 0 {
			text = text[:it.scanEnd(s.Pos)]
		}
		tried := it.runs
		index, rule, groups, named, timeout := it.l.match(text, s.Pos, rules, &it.runs)
		it.charge(it.runs-tried, s.Pos)
		if !it.deadline.IsZero() && (timeout != nil || time.Now().After(it.deadline)) {
			it.err = errTimeout
			return chroma.EOF
		}
		if it.maxRuns > 0 && it.runs > it.maxRuns {
			it.err = errTooMuchWork
			return chroma.EOF
		}
		if it.maxWork > 0 && it.work > it.maxWork {
			it.err = errWorkSpent
			return chroma.EOF
		}
		if groups == nil {
			// No rule matches: an unmatched newline returns to the start
			// state, anything else is one error character.
			if s.Text[s.Pos] == '\n' && s.State != it.start {
				s.Stack = []string{it.start}
				continue
			}
			s.Pos++
			return chroma.Token{Type: chroma.Error, Value: string(s.Text[s.Pos-1 : s.Pos])}
		}
		s.Rule, s.Groups, s.NamedGroups = index, groups, named
		s.Pos += utf8.RuneCountInString(groups[0])
		if rule.Mutator != nil {
			if err := rule.Mutator.Mutate(s); err != nil {
				panic(err) // as chroma does
			}
		}
		if rule.Type != nil {
			it.stack = append(it.stack, rule.Type.Emit(s.Groups, s))
		}
	}
	if t := it.pending(); t != chroma.EOF {
		return t
	}
	if s.Pos != len(s.Text) && len(s.Stack) == 0 {
		value := string(s.Text[s.Pos:])
		s.Pos = len(s.Text)
		return chroma.Token{Type: chroma.Error, Value: value}
	}
	return chroma.EOF
}

// Config, AnalyseText, SetRegistry and SetAnalyser are base's.
func (l *firstCharLexer) Config() *chroma.Config { return l.base.Config() }

func (l *firstCharLexer) AnalyseText(text string) float32 { return l.base.AnalyseText(text) }

func (l *firstCharLexer) SetRegistry(r *chroma.LexerRegistry) chroma.Lexer {
	l.base.SetRegistry(r)
	return l
}

func (l *firstCharLexer) SetAnalyser(f func(text string) float32) chroma.Lexer {
	l.base.SetAnalyser(f)
	return l
}
