package theme

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
)

func mustHex(t *testing.T, s string) rgb {
	t.Helper()
	c, ok := parseHex(s)
	if !ok {
		t.Fatalf("parseHex(%q) failed", s)
	}
	return c
}

// TestContrast_ratios checks the WCAG 2 maths against ratios published
// with the definition and by common checkers.
func TestContrast_ratios(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want float64
	}{
		{"#000", "#fff", 21},
		{"#ffffff", "#ffffff", 1},
		{"#777777", "#ffffff", 4.48},
		{"#767676", "#fff", 4.54},
		{"#0000ff", "#ffffff", 8.59},
		{"#ff0000", "#ffffff", 4.00},
		{"#FF5500", "#fff", 3.23},
		{"#0D9373", "#ffffff", 3.88},
		{"#e6edf3", "#0d1117", 16.0},
	} {
		got := contrast(mustHex(t, c.a), mustHex(t, c.b))
		if math.Abs(got-c.want) > 0.01*c.want {
			t.Errorf("contrast(%s, %s) = %.2f, want %.2f", c.a, c.b, got, c.want)
		}
		if back := contrast(mustHex(t, c.b), mustHex(t, c.a)); back != got {
			t.Errorf("contrast is not symmetric for %s, %s: %.3f and %.3f", c.a, c.b, got, back)
		}
	}
}

func TestParseHex(t *testing.T) {
	for in, want := range map[string]string{"#abc": "#aabbcc", "#ABCD": "#aabbcc", "#0D9373": "#0d9373", "#0d937380": "#0d9373", " #fff ": "#ffffff"} {
		if got := mustHex(t, in).hex(); got != want {
			t.Errorf("parseHex(%q) = %s, want %s", in, got, want)
		}
	}
	for _, bad := range []string{"", "red", "#12", "#12345", "#gggggg", "rgb(1,2,3)", "0D9373"} {
		if _, ok := parseHex(bad); ok {
			t.Errorf("parseHex(%q) accepted", bad)
		}
	}
}

// TestReadable_brightAndDarkPrimaries: a colour that already reads well
// is kept; a bright one is darkened on light backgrounds and a dark one
// lightened on dark backgrounds, keeping its hue, to the nearest shade
// that reaches 4.5:1 on every background given.
func TestReadable_brightAndDarkPrimaries(t *testing.T) {
	white := []rgb{lightBg, lightBgSoft}
	night := []rgb{darkBg, darkBgSoft}
	for _, c := range []struct {
		name, color string
		bgs         []rgb
		kept        bool
	}{
		{"dark blue on light", "#1d4ed8", white, true},
		{"bright orange on light", "#FF5500", white, false},
		{"yellow on light", "#FFE600", white, false},
		{"mint on light", "#07C983", white, false},
		{"white on light", "#ffffff", white, false},
		{"bright green on dark", "#07C983", night, true},
		{"navy on dark", "#1e3a8a", night, false},
		{"black on dark", "#000000", night, false},
		{"crimson on dark", "#b91c1c", night, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := mustHex(t, c.color)
			got := readable(in, c.bgs, minTextContrast)
			if r := minContrast(got, c.bgs); r < minTextContrast {
				t.Fatalf("readable(%s) = %s at %.2f:1", c.color, got.hex(), r)
			}
			if (got == in) != c.kept {
				t.Fatalf("readable(%s) = %s; kept = %v, want %v", c.color, got.hex(), got == in, c.kept)
			}
			if c.kept {
				return
			}
			h0, s0, l0 := in.hsl()
			h1, s1, l1 := got.hsl()
			light := c.bgs[0].luminance() > 0.5
			if light && l1 >= l0 || !light && l1 <= l0 {
				t.Errorf("%s became %s: lightness %.3f -> %.3f goes the wrong way", c.color, got.hex(), l0, l1)
			}
			if s0 > 0.2 && l1 > 0.05 && l1 < 0.95 && (math.Abs(h0-h1) > 4 || math.Abs(s0-s1) > 0.08) {
				t.Errorf("%s became %s: hue %.0f -> %.0f, saturation %.2f -> %.2f", c.color, got.hex(), h0, h1, s0, s1)
			}
			// The nearest passing shade: one step back toward the
			// configured colour no longer passes.
			back := 0.004
			if light {
				back = -back
			}
			h, s, l := got.hsl()
			if prev := fromHSL(h, s, l-back).rounded(); minContrast(prev, c.bgs) >= minTextContrast+0.05 {
				t.Errorf("%s became %s, but %s, nearer the original, already reads at %.2f:1", c.color, got.hex(), prev.hex(), minContrast(prev, c.bgs))
			}
		})
	}
}

func TestOnColor_alwaysReadable(t *testing.T) {
	for _, c := range []string{"#000", "#fff", "#777777", "#767676", "#7a7a7a", "#FF5500", "#07C983", "#1d4ed8", "#ffe600"} {
		bg := mustHex(t, c)
		if r := contrast(onColor(bg), bg); r < minTextContrast {
			t.Errorf("onColor(%s) = %s at %.2f:1", c, onColor(bg).hex(), r)
		}
	}
}

// TestThemeColors: a bright primary gets a darker link colour for light
// mode and keeps its own colour for the banner; the dark mode accent
// (colors.light) that reads well is kept; the author is told which field
// fell short and what is used instead.
func TestThemeColors(t *testing.T) {
	var warnings []string
	warn := func(f string, a ...any) { warnings = append(warnings, fmt.Sprintf(f, a...)) }
	light, dark := themeColors(docsjson.Colors{Primary: "#FFE600", Light: "#FFE600", Dark: "#0b3d91"}, "", "#101010", warn)
	if light.brand.hex() != "#ffe600" || light.link.hex() == "#ffe600" {
		t.Errorf("light mode: brand %s link %s", light.brand.hex(), light.link.hex())
	}
	if r := contrast(light.link, lightBg); r < 4.5 {
		t.Errorf("light link %s reads at %.2f:1", light.link.hex(), r)
	}
	if light.line != light.link {
		t.Errorf("a yellow under 3:1 on white still draws borders (%s)", light.line.hex())
	}
	if light.onBrand.hex() != "#000000" {
		t.Errorf("text on a yellow banner is %s, want black", light.onBrand.hex())
	}
	if dark.link.hex() != "#ffe600" || dark.line.hex() != "#ffe600" || dark.onBrand.hex() != "#000000" {
		t.Errorf("dark mode changed a yellow that reads well on #101010: %+v", dark)
	}
	if r := contrast(dark.hover, mustHex(t, "#101010")); r < 4.5 {
		t.Errorf("dark hover %s (from colors.dark #0b3d91) reads at %.2f:1", dark.hover.hex(), r)
	}
	joined := strings.Join(warnings, "\n")
	if !strings.Contains(joined, "colors.primary #FFE600 reads at 1.2:1 on the light background") || strings.Contains(joined, "colors.light") {
		t.Errorf("warnings:\n%s", joined)
	}

	warnings = nil
	themeColors(docsjson.Colors{}, "", "", warn)
	if len(warnings) != 0 {
		t.Errorf("the default colours warned: %v", warnings)
	}
	themeColors(docsjson.Colors{Primary: "rebeccapurple"}, "", "", warn)
	if len(warnings) == 0 || !strings.Contains(warnings[0], `colors.primary "rebeccapurple" is not a hex colour`) {
		t.Errorf("a named colour gave %v", warnings)
	}
}
