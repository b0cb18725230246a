package highlight

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
			// Both lexers bound each rule's match to 250 ms, chroma's
			// bound, and a match that runs out is no match: on a
			// loaded machine one of them may time out where the other
			// did not. firstCharLexer is deterministic, so a real
			// difference repeats; one that does not was a timeout.
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
