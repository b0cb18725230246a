package theme

import (
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
)

// TestHighlight_everyTokenReadable paints every token class of the code
// highlighting as the stylesheet does (highlight.css, then its fixes,
// with the cascade letting light rules through in dark mode) and holds
// each to 4.5:1 against the code backgrounds of both modes.
func TestHighlight_everyTokenReadable(t *testing.T) {
	css := string(Stylesheet(&docsjson.Config{}, nil, func(string, ...any) {}))
	eff := effectiveStyles(parseHighlight(css), nil)
	if len(eff[false]) < 50 || len(eff[true]) < 50 {
		t.Fatalf("only %d/%d token classes parsed from the stylesheet", len(eff[false]), len(eff[true]))
	}
	for _, dark := range []bool{false, true} {
		for c, st := range eff[dark] {
			if r := tokenContrast(st, dark); r < minTextContrast {
				t.Errorf("dark=%v .%s: %s on %s reads %.2f:1", dark, c, st.color, bgHex(st, dark), r)
			}
		}
	}
}

// TestHighlight_jsonPunctuationDark: the tokens of a JSON document (the
// report: braces, commas and colons vanished in dark mode) each have a
// colour of their own in dark mode, readable, and punctuation reads as
// the dark code text.
func TestHighlight_jsonPunctuationDark(t *testing.T) {
	it, err := lexers.Get("json").Tokenise(nil, `{"a": [1, 2.5, true, null], "b": {"c": "d"}}`)
	if err != nil {
		t.Fatal(err)
	}
	eff := effectiveStyles(parseHighlight(string(Stylesheet(&docsjson.Config{}, nil, func(string, ...any) {}))), nil)
	seen := map[string]bool{}
	for tok := it(); tok != chroma.EOF; tok = it() {
		c := chroma.StandardTypes[tok.Type]
		if c == "" || strings.TrimSpace(tok.Value) == "" || seen[c] {
			continue
		}
		seen[c] = true
		st, ok := eff[true][c]
		if !ok {
			continue // no rule: the token inherits the dark code text
		}
		if r := tokenContrast(st, true); r < minTextContrast {
			t.Errorf("JSON token %q (.%s) reads %.2f:1 in dark mode", tok.Value, c, r)
		}
	}
	if !seen["p"] {
		t.Fatal("the JSON lexer gave no punctuation token; the test no longer checks the report")
	}
	if got := eff[true]["p"].color; got != codeText[true] {
		t.Errorf("dark punctuation is %s, want the code text %s", got, codeText[true])
	}
}

func bgHex(st tokenStyle, dark bool) string {
	var s []string
	for _, bg := range tokenBackgrounds(st, dark) {
		s = append(s, bg.hex())
	}
	return strings.Join(s, ",")
}
