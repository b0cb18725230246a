package icons

import (
	"bytes"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

func TestDraw_namesFromEachLibrary(t *testing.T) {
	for _, c := range []struct {
		lib   Library
		names []string
		paint string
	}{
		{FontAwesome, []string{"house", "rocket", "github", "terminal", "book-open", "code"}, `fill="currentColor"`},
		{Lucide, []string{"house", "square-terminal", "notebook-text", "layout-panel-left", "plug"}, `stroke="currentColor"`},
		{Tabler, []string{"home", "brand-github", "terminal-2", "plug"}, `stroke="currentColor"`},
	} {
		s := NewInlineSet(c.lib)
		for _, n := range c.names {
			h := s.Draw(Ref{Name: n}, "test").String()
			defs := string(s.Defs([]byte(h)))
			if !strings.HasPrefix(h, `<svg class="i" viewBox="`) || !strings.Contains(h, c.paint) ||
				!strings.Contains(defs, `<path d="M`) && !strings.Contains(defs, `<circle`) && !strings.Contains(defs, `<rect`) {
				t.Errorf("%s %q drew %q", c.lib, n, h)
			}
		}
		if w := s.Warnings(); len(w) != 0 {
			t.Errorf("%s: warnings %q", c.lib, w)
		}
	}
}

func TestDraw_iconTypeSelectsStyle(t *testing.T) {
	s := NewInlineSet(FontAwesome)
	regular := s.Draw(Ref{Name: "circle-check"}, "a").String()
	solid := s.Draw(Ref{Name: "circle-check", Type: "solid"}, "b").String()
	if regular == solid || regular == "" || solid == "" {
		t.Fatalf("regular and solid circle-check should differ:\n%s\n%s", regular, solid)
	}
	if got := s.Draw(Ref{Name: "circle-check", Type: "regular"}, "c").String(); got != regular {
		t.Errorf("iconType regular is the default style")
	}
	// Pro styles: light and thin draw in regular, duotone and sharp-solid in solid.
	for typ, want := range map[string]string{"light": regular, "thin": regular, "duotone": solid, "sharp-solid": solid} {
		if got := s.Draw(Ref{Name: "circle-check", Type: typ}, "d").String(); got != want {
			t.Errorf("iconType %q drew another style", typ)
		}
	}
	s.Draw(Ref{Name: "house", Type: "light"}, "e")
	w := strings.Join(s.Warnings(), "\n")
	if strings.Count(w, `iconType "light" is a Font Awesome Pro style`) != 1 || !strings.Contains(w, "2 icons drawn in regular") ||
		strings.Count(w, "\n") != 3 {
		t.Errorf("want one warning per Pro style, with its count:\n%s", w)
	}
	// A value that is no style at all is named once too.
	if s.Draw(Ref{Name: "circle-check", Type: "fancy"}, "f").String() != regular {
		t.Error("an unknown iconType should draw the default style")
	}
	if w := strings.Join(s.Warnings(), "\n"); !strings.Contains(w, `iconType "fancy" is not a Font Awesome style (solid, regular, brands; Pro: light, thin, duotone, sharp-*)`) {
		t.Errorf("unknown iconType not warned:\n%s", w)
	}
	// Tabler takes filled.
	tb := NewInlineSet(Tabler)
	if tb.Draw(Ref{Name: "home", Type: "filled"}, "x").String() == tb.Draw(Ref{Name: "home"}, "x").String() {
		t.Error("tabler filled home is the outline one")
	}
	// A library per icon, as docs.json's icon object allows.
	if h := s.Draw(Ref{Name: "notebook-text", Library: "lucide"}, "nav").String(); !strings.Contains(h, `stroke="currentColor"`) {
		t.Errorf("library lucide on one icon: %q", h)
	}
}

func TestDraw_aliases(t *testing.T) {
	for _, c := range []struct {
		lib       Library
		old, name string
	}{{FontAwesome, "home", "house"}, {FontAwesome, "cog", "gear"}, {FontAwesome, "fa-house", "house"}, {Lucide, "home", "house"}} {
		s := NewInlineSet(c.lib)
		if a, b := s.Draw(Ref{Name: c.old}, ""), s.Draw(Ref{Name: c.name}, ""); a.Empty() || a != b {
			t.Errorf("%s: %q should draw %q", c.lib, c.old, c.name)
		}
	}
}

func TestDraw_unknownWarnsOnceWithPlaces(t *testing.T) {
	s := NewInlineSet(FontAwesome)
	for _, where := range []string{"a.mdx (Card)", "b.mdx (Card)", "a.mdx (Card)"} {
		if h := s.Draw(Ref{Name: "no-such-icon"}, where); !h.Empty() {
			t.Errorf("unknown icon drew %q", h)
		}
	}
	w := s.Warnings()
	if len(w) != 1 || !strings.Contains(w[0], `icon "no-such-icon" is not in Font Awesome Free (@fortawesome/fontawesome-free@`) ||
		!strings.Contains(w[0], "a.mdx (Card), b.mdx (Card) and 1 more") {
		t.Errorf("warnings %q", w)
	}
	// A Lucide name is not a Font Awesome one: the site's library decides.
	if !s.Draw(Ref{Name: "notebook-text"}, "c").Empty() {
		t.Error("a Lucide-only name drew under Font Awesome")
	}
	if s.Draw(Ref{Name: "x", Library: "material"}, "nav").Empty() {
		t.Error("a bad per-icon library should fall back to the site's")
	}
	if w := strings.Join(s.Warnings(), "\n"); !strings.Contains(w, `icons.library "material" is none of`) {
		t.Errorf("bad library not warned: %s", w)
	}
}

func TestParseLibrary(t *testing.T) {
	for in, want := range map[string]Library{"": FontAwesome, "fontawesome": FontAwesome, "Lucide": Lucide, " tabler ": Tabler} {
		if got, err := ParseLibrary(in); err != nil || got != want {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	if l, err := ParseLibrary("heroicons"); err == nil || l != FontAwesome || !strings.Contains(err.Error(), `"heroicons"`) {
		t.Errorf("heroicons: %v %v", l, err)
	}
}

func TestLicenses_onlyLibrariesDrawn(t *testing.T) {
	s := NewInlineSet(Lucide)
	if l, _ := s.Licenses(); len(l) != 0 {
		t.Errorf("no icon drawn, licences %v", l)
	}
	s.Draw(Ref{Name: "no-such-icon"}, "")
	s.Draw(Ref{Name: "house"}, "")
	s.Draw(Ref{Name: "home", Library: "tabler"}, "")
	l, err := s.Licenses()
	if err != nil || len(l) != 2 || l[0].Library != Lucide || l[1].Library != Tabler ||
		!bytes.Contains(l[0].Text, []byte("ISC License")) || !bytes.Contains(l[1].Text, []byte("MIT License")) ||
		!strings.HasPrefix(l[0].Package, "lucide-static@") {
		t.Errorf("licences %d %v", len(l), err)
	}
	fa := NewInlineSet(FontAwesome)
	fa.Draw(Ref{Name: "github"}, "")
	if l, _ := fa.Licenses(); len(l) != 1 || !bytes.Contains(l[0].Text, []byte("CC BY 4.0")) {
		t.Errorf("Font Awesome licence: %d", len(l))
	}
}

func TestIsImage(t *testing.T) {
	for v, want := range map[string]bool{"house": false, "square-terminal": false, "/images/x.svg": true, "logo.png": true,
		"https://example.com/i.svg": true, "./a/b": true, "arrow-up-right-from-square": false} {
		if IsImage(v) != want {
			t.Errorf("IsImage(%q) = %v", v, !want)
		}
	}
}

func TestFill(t *testing.T) {
	page := []byte("<p>a " + Slot(Ref{Name: "house", Type: "solid"}, "Icon").String() + " b " +
		Slot(Ref{Name: `x"<y`}, `Card & co`).String() + ` <i data-icon="broken"> c</p>`)
	var got []Ref
	var ins []string
	out := Fill(page, func(r Ref, in string) markup.HTML {
		got, ins = append(got, r), append(ins, in)
		return markup.Text("[" + r.Name + "]")
	})
	if len(got) != 2 || got[0] != (Ref{Name: "house", Type: "solid"}) || got[1].Name != `x"<y` || ins[1] != "Card & co" {
		t.Errorf("slots read as %q %q", got, ins)
	}
	if want := `<p>a [house] b [x&#34;&lt;y] <i data-icon="broken"> c</p>`; string(out) != want {
		t.Errorf("filled\n%s\nwant\n%s", out, want)
	}
	plain := []byte("<p>no icons</p>")
	if out := Fill(plain, nil); &out[0] != &plain[0] {
		t.Error("a page without slots should come back as it is")
	}
}

// TestData_everyShapeIsWritten holds the data files to what shapes writes:
// an element or attribute it would drop means the generator let through
// something the drawing needs.
func TestData_everyShapeIsWritten(t *testing.T) {
	for lib := range libraryNames {
		d, err := load(lib)
		if err != nil {
			t.Fatal(err)
		}
		for st, s := range d.Styles {
			if s.Paint != "fill" && s.Paint != "stroke" || len(s.Names) == 0 {
				t.Errorf("%s %q: paint %q, %d names", lib, st, s.Paint, len(s.Names))
			}
			for n, i := range s.Names {
				if i < 0 || i >= len(d.Icons) {
					t.Fatalf("%s %s: index %d", lib, n, i)
				}
			}
		}
		for i, ic := range d.Icons {
			h := shapes(ic).String()
			els, attrs := 0, 0
			for _, el := range ic.El {
				els++
				attrs += (len(el) - 1) / 2
			}
			if strings.Count(h, "/>") != els || strings.Count(h, `="`) != attrs {
				t.Fatalf("%s drawing %d lost shapes or attributes: %v -> %s", lib, i, ic.El, h)
			}
		}
	}
}

// Font Awesome's trimmed drawings reach past their own box; drawn in the
// 640 square of its svgs-full, every icon has the same size and nothing
// is cut off.
func TestDraw_fontAwesomeSquare(t *testing.T) {
	s := NewInlineSet(FontAwesome)
	for name, box := range map[string]string{"house": "-64 -64 640 640", "star": "-32 -64 640 640", "info": "-224 -64 640 640"} {
		if h := s.Draw(Ref{Name: name, Type: "solid"}, "").String(); !strings.Contains(h, `viewBox="`+box+`"`) {
			t.Errorf("%s: %.80s", name, h)
		}
	}
}
