package icons

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
)

var maskRule = regexp.MustCompile(`(?m)^\.(ic-[a-z]+-[0-9]+)\{--i:url\("data:image/svg\+xml,([^"]*)"\)\}$`)

// TestCSS_eachDrawingOnceAsAMask: by default an icon is a span naming
// its drawing, and CSS holds one rule per drawing drawn (aliases and
// repeated uses share it), whose data URL is a standalone SVG in the
// drawing's box and paint, that nothing in it can end the CSS string or
// the URL early.
func TestCSS_eachDrawingOnceAsAMask(t *testing.T) {
	s := NewSet(FontAwesome)
	if len(s.CSS()) != 0 {
		t.Fatal("a Set that drew nothing has CSS")
	}
	house := s.Draw(Ref{Name: "house", Type: "solid"}, "a").String()
	for _, r := range []Ref{{Name: "home", Type: "solid"}, {Name: "house", Type: "solid"}} {
		if got := s.Draw(r, "b").String(); got != house {
			t.Errorf("%v drew %s, want the house's %s", r, got, house)
		}
	}
	if !regexp.MustCompile(`^<span class="i ic-fontawesome-[0-9]+" aria-hidden="true"></span>$`).MatchString(house) {
		t.Errorf("house drew %s", house)
	}
	s.Draw(Ref{Name: "notebook-text", Library: "lucide"}, "c")
	s.Draw(Ref{Name: "no-such-icon"}, "d")
	css := string(s.CSS())
	rules := maskRule.FindAllStringSubmatch(css, -1)
	if len(rules) != 2 || strings.Count(css, "\n") != 2 {
		t.Fatalf("want 2 rules, one per drawing:\n%s", css)
	}
	for _, r := range rules {
		if strings.ContainsAny(r[2], `"<>#()\`) {
			t.Errorf("%s: unescaped byte in %s", r[1], r[2])
		}
		doc, err := url.PathUnescape(r[2])
		if err != nil {
			t.Fatalf("%s: %v", r[1], err)
		}
		if !strings.HasPrefix(doc, `<svg xmlns='http://www.w3.org/2000/svg' viewBox='`) || !strings.HasSuffix(doc, `</svg>`) ||
			!strings.Contains(doc, `<path d='M`) {
			t.Errorf("%s: %s", r[1], doc)
		}
		switch {
		case strings.Contains(house, r[1]):
			if !strings.Contains(doc, `viewBox='-64 -64 640 640'>`) {
				t.Errorf("house: not Font Awesome's filled 640 square: %.120s", doc)
			}
		case strings.HasPrefix(r[1], "ic-lucide-"):
			if !strings.Contains(doc, `fill='none' stroke='%23000' stroke-width='2'`) && !strings.Contains(doc, `fill='none' stroke='#000' stroke-width='2'`) {
				t.Errorf("lucide: not stroked: %.200s", doc)
			}
		default:
			t.Errorf("unexpected rule %s", r[1])
		}
	}
	// Defs leaves a page of mask icons alone: there is nothing to define.
	if page := "<body>" + house + house + "</body>"; string(s.Defs([]byte(page))) != page {
		t.Error("Defs changed a page of masks")
	}
}
