package icons

import (
	"strings"
	"testing"
)

// TestDefs_repeatedOnceAtTheTopSingleInPlace: a page that shows one icon
// three times carries its shapes once, in a definitions block right after
// <body>, with every use pointing at it; an icon it shows once gets its
// shapes in place of the use, as a plain inline SVG.
func TestDefs_repeatedOnceAtTheTopSingleInPlace(t *testing.T) {
	s := NewInlineSet(FontAwesome)
	rocket, house := s.Draw(Ref{Name: "rocket"}, "a").String(), s.Draw(Ref{Name: "house", Type: "solid"}, "b").String()
	const head = `<!doctype html><html><head></head><body class="x">`
	page := head + `<nav>` + rocket + rocket + `</nav><p>` + house + rocket + `</p></body></html>`
	out := string(s.Defs([]byte(page)))
	rest, ok := strings.CutPrefix(out, head+defsTag)
	if !ok {
		t.Fatalf("no definitions right after <body>:\n%.300s", out)
	}
	defs, body, _ := strings.Cut(rest, defsEnd)
	if strings.Count(defs, "<g ") != 1 || !strings.HasPrefix(defs, `<g id="`+useID(rocket)+`"><path d="M`) {
		t.Errorf("definitions, want the rocket's alone:\n%s", defs)
	}
	inlineHouse := strings.Replace(house, `<use href="#`+useID(house)+`"/>`, s.defs[useID(house)].String(), 1)
	if want := `<nav>` + rocket + rocket + `</nav><p>` + inlineHouse + rocket + `</p></body></html>`; body != want {
		t.Errorf("body\n%s\nwant\n%s", body, want)
	}
	if strings.Count(out, `<path d="M`) != 2 || strings.Contains(inlineHouse, "<use") {
		t.Errorf("each drawing should be in the page once:\n%s", out)
	}
	// Aliases share one drawing, hence one definition.
	if a, b := s.Draw(Ref{Name: "home"}, ""), s.Draw(Ref{Name: "house"}, ""); a != b {
		t.Errorf("home %s, house %s", a, b)
	}
	// A page without icons, and one that only looks as if it used one
	// this Set never drew, come back as they are.
	for _, p := range []string{`<body><p>none</p></body>`, `<body><svg><use href="#i:fontawesome:999999"/></svg></body>`,
		`<body><use href="#i:x`} {
		if got := string(s.Defs([]byte(p))); got != p {
			t.Errorf("%s became %s", p, got)
		}
	}
	// Without <body> (a fragment) the definitions go first.
	if got := string(s.Defs([]byte(rocket + rocket))); !strings.HasPrefix(got, defsTag) || !strings.HasSuffix(got, defsEnd+rocket+rocket) {
		t.Errorf("fragment: %s", got)
	}
}

// useID is the id an icon drawn by Draw shows.
func useID(use string) string {
	id := use[strings.Index(use, `href="#`)+len(`href="#`):]
	return id[:strings.IndexByte(id, '"')]
}
