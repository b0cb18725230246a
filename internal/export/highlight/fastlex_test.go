package highlight

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// TestFirstCharLexer_sameTokens tokenises every sample file of chroma's
// own lexer tests (lexers/testdata in its module), whole and cut in the
// middle (an unterminated string or comment, a state left open), with
// chroma's lexer and with firstCharLexer over the same rules, and wants
// the same tokens: the highlighted HTML of every page depends on it.
func TestFirstCharLexer_sameTokens(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/alecthomas/chroma/v2").Output()
	if err != nil {
		t.Fatalf("locating chroma's module: %v", err)
	}
	root := filepath.Join(strings.TrimSpace(string(out)), "lexers", "testdata")
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".actual") {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		name := strings.Split(filepath.Base(path), ".")[0]
		if dir := filepath.Dir(rel); dir != "." {
			if dir == "analysis" {
				return nil
			}
			name = dir
		}
		base, ok := lexers.Get(name).(*chroma.RegexLexer)
		if !ok {
			return nil // not a regular-expression lexer: highlighting keeps chroma's
		}
		fast, err := newFirstCharLexer(base)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			return nil
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		src := string(raw)
		half := len(src) / 2
		for half > 0 && !utf8.RuneStart(src[half]) {
			half--
		}
		for _, text := range []string{src, src[:half]} {
			// Chroma gives a rule's match 250 ms and takes a match
			// that runs out for no match (firstCharLexer's Tokenise
			// does the same after 2 s): on a loaded machine chroma may
			// time out where firstCharLexer did not. firstCharLexer is
			// deterministic, so a real difference repeats; one that
			// does not was a timeout.
			d := sameTokens(base, fast, text)
			if d != "" {
				if d = sameTokens(base, fast, text); d == "" {
					t.Logf("%s (%d bytes): a difference that did not repeat (a rule timed out under load)", rel, len(text))
				}
			}
			if d != "" {
				t.Errorf("%s (%d bytes): %s", rel, len(text), d)
			}
		}
		files++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("compared %d sample files of chroma's, want its whole test corpus (over 100)", files)
	}
}

// sameTokens tokenises text with chroma's lexer base and with fast, and
// describes the first difference, or returns "".
func sameTokens(base *chroma.RegexLexer, fast *firstCharLexer, text string) string {
	want, err := chroma.Tokenise(chroma.Coalesce(base), nil, text)
	if err != nil {
		return "chroma: " + err.Error()
	}
	got, err := chroma.Tokenise(chroma.Coalesce(fast), nil, text)
	if err != nil {
		return err.Error()
	}
	return firstTokenDiff(want, got)
}

// firstTokenDiff describes the first difference of two token streams, or
// returns "" when they are the same.
func firstTokenDiff(want, got []chroma.Token) string {
	for i := range min(len(want), len(got)) {
		if want[i] != got[i] {
			return fmt.Sprintf("token %d: chroma %#v, got %#v", i, want[i], got[i])
		}
	}
	if len(want) != len(got) {
		return fmt.Sprintf("chroma has %d tokens, got %d", len(want), len(got))
	}
	return ""
}

// BenchmarkFirstCharLexer tokenises the code blocks of BenchmarkHighlight
// with chroma's lexer and with firstCharLexer, side by side, so that the
// ratio holds on a loaded machine.
func BenchmarkFirstCharLexer(b *testing.B) {
	for _, c := range highlightCases {
		base := lexers.Get(c.lang).(*chroma.RegexLexer)
		fast, err := newFirstCharLexer(base)
		if err != nil {
			b.Fatal(err)
		}
		for _, l := range []struct {
			name  string
			lexer chroma.Lexer
		}{{"chroma", base}, {"firstchar", fast}} {
			b.Run(c.lang+"/"+l.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := chroma.Tokenise(chroma.Coalesce(l.lexer), nil, c.code); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestTokens_sameAsCoalescedTokenise: the tokens Write formats are the
// ones chroma.Coalesce gives over the same lexer, runs longer than
// chroma's 8 KiB cap included.
func TestTokens_sameAsCoalescedTokenise(t *testing.T) {
	long := strings.Repeat("// "+strings.Repeat("x", 97)+"\n", 160) // one comment type, 16,000 bytes: under maxBlockBytes, over chroma's 8 KiB cap
	for _, c := range append(highlightCases, struct{ lang, code string }{"go", long}) {
		fast, ok := lookupLexer(c.lang).(*firstCharLexer)
		if !ok {
			t.Fatalf("%s: not run by firstCharLexer", c.lang)
		}
		want, err := chroma.Tokenise(chroma.Coalesce(fast), nil, c.code)
		if err != nil {
			t.Fatal(err)
		}
		got, err := fast.Tokens(c.code)
		if err != nil {
			t.Fatalf("%s: %v", c.lang, err)
		}
		if d := firstTokenDiff(want, got); d != "" {
			t.Errorf("%s: %s", c.lang, d)
		}
	}
}

// TestWrite_outOfTimeWritesNothing: a block whose highlighting runs out
// of time is an error and writes nothing, so the caller shows it plain
// rather than with whatever tokens the time allowed.
func TestWrite_outOfTimeWritesNothing(t *testing.T) {
	var sb strings.Builder
	if err := Write(&sb, "go", highlightCases[0].code); err != nil || !strings.Contains(sb.String(), `class="kd"`) {
		t.Fatalf("in time: err %v, HTML %q", err, sb.String())
	}
	defer func(b time.Duration) { blockBudget = b }(blockBudget)
	blockBudget = -time.Second
	sb.Reset()
	if err := Write(&sb, "go", highlightCases[0].code); !errors.Is(err, errTimeout) || sb.Len() != 0 {
		t.Fatalf("out of time: err %v, HTML %q; want errTimeout and nothing written", err, sb.String())
	}
	if _, err := Code("python", highlightCases[3].code); !errors.Is(err, errTimeout) {
		t.Fatalf("Code out of time: err %v, want errTimeout", err)
	}
}
