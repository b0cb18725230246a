package docsjson

import (
	"fmt"
	"strings"
	"testing"
)

// TestBanner_check: the type settles to info, warning or critical, a
// colour that is not hex is dropped with a warning, and one mode's colour
// serves the other.
func TestBanner_check(t *testing.T) {
	for _, c := range []struct {
		name          string
		in            Banner
		typ           string
		light, dark   string
		noColor       bool
		warnsContains string
	}{
		{name: "default", in: Banner{}, typ: "info", noColor: true},
		{name: "warning", in: Banner{Type: " Warning "}, typ: "warning", noColor: true},
		{name: "unknown type", in: Banner{Type: "loud"}, typ: "info", noColor: true, warnsContains: `banner.type "loud"`},
		{name: "both colours", in: Banner{Color: &BannerColor{Light: "#7C3AED", Dark: "#5B21B6"}}, typ: "info", light: "#7C3AED", dark: "#5B21B6"},
		{name: "light only", in: Banner{Color: &BannerColor{Light: "#fff"}}, typ: "info", light: "#fff", dark: "#fff"},
		{name: "dark only", in: Banner{Color: &BannerColor{Dark: "#5B21B6"}}, typ: "info", light: "#5B21B6", dark: "#5B21B6"},
		{name: "not hex", in: Banner{Color: &BannerColor{Light: "red;x:y"}}, typ: "info", noColor: true, warnsContains: `banner.color.light "red;x:y"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			bn := c.in
			var warns []string
			bn.check("banner", func(f string, a ...any) { warns = append(warns, fmt.Sprintf(f, a...)) })
			if bn.Type != c.typ {
				t.Errorf("type %q, want %q", bn.Type, c.typ)
			}
			switch {
			case c.noColor && bn.Color != nil:
				t.Errorf("colour %+v, want none", *bn.Color)
			case !c.noColor && (bn.Color == nil || bn.Color.Light != c.light || bn.Color.Dark != c.dark):
				t.Errorf("colour %+v, want %s/%s", bn.Color, c.light, c.dark)
			}
			joined := strings.Join(warns, "\n")
			if (c.warnsContains == "") != (joined == "") || !strings.Contains(joined, c.warnsContains) {
				t.Errorf("warnings %q, want one with %q", warns, c.warnsContains)
			}
		})
	}
}
