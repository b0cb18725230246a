package theme

import (
	"fmt"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// The backgrounds style.css paints text on in each mode (--bg, --bg-soft);
// docs.json's background.color replaces the first.
var (
	lightBg, _     = parseHex("#ffffff")
	lightBgSoft, _ = parseHex("#f6f8fa")
	darkBg, _      = parseHex("#0d1117")
	darkBgSoft, _  = parseHex("#161b22")
)

// modeColors are the theme colours of one mode as the stylesheet uses
// them: brand is the configured colour (banner background), line the one
// for borders and underlines (the configured colour when it reaches the
// non-text ratio, else link), link the colour of links and accented text,
// hover that of a link under the pointer, and onBrand and onLink the text
// on a brand or link coloured background.
type modeColors struct {
	brand, line, link, hover, onBrand, onLink rgb
}

// css writes the custom properties of one mode.
func (m modeColors) css() string {
	return fmt.Sprintf("--brand:%s;--brand-line:%s;--link:%s;--link-hover:%s;--on-brand:%s;--on-link:%s",
		m.brand.hex(), m.line.hex(), m.link.hex(), m.hover.hex(), m.onBrand.hex(), m.onLink.hex())
}

// themeColors derives the colours of both modes from docs.json so that
// text and links reach WCAG AA (4.5:1) on the mode's backgrounds: a
// configured colour that falls short is kept for the banner and, when it
// reaches 3:1, for borders, and a readable shade of it (same hue, the
// nearest lightness that passes) colours the text, with a warning that
// names the field and both colours. The platform's use of the colours:
// primary accents light mode, light accents dark mode, dark is for
// buttons and hover in both.
func themeColors(c docsjson.Colors, bgLight, bgDark string, warn func(string, ...any)) (light, dark modeColors) {
	color := func(field, v, fallback string) rgb {
		if v == "" {
			v = fallback
		}
		if x, ok := parseHex(v); ok {
			return x
		}
		warn("docs.json: %s %q is not a hex colour such as #0D9373; text and links use %s", field, v, fallback)
		x, _ := parseHex(fallback)
		return x
	}
	primary := color("colors.primary", c.Primary, defaultPrimary)
	lightField, lightAccent := "colors.light", c.Light
	if lightAccent == "" {
		lightField, lightAccent = "colors.primary", c.Primary
	}
	primaryField := "colors.primary"
	if c.Primary == "" {
		primaryField = "" // the platform's default colours: no warning
	}
	if lightAccent == "" {
		lightField = ""
	}
	accentDark := color(lightField, lightAccent, defaultLight)
	hoverField, hover := "colors.dark", c.Dark
	if hover == "" {
		hoverField, hover = "colors.primary", c.Primary
	}
	hoverColor := color(hoverField, hover, defaultPrimary)
	bg := func(v string, fallback rgb) rgb {
		if x, ok := parseHex(v); ok {
			return x
		}
		return fallback
	}
	derive := func(mode, field string, accent, hoverC rgb, bgs []rgb) modeColors {
		m := modeColors{brand: accent, link: readable(accent, bgs, minTextContrast), hover: readable(hoverC, bgs, minTextContrast)}
		if m.link != accent && field != "" {
			warn("docs.json: %s %s reads at %.1f:1 on the %s background, below the 4.5:1 text needs; links and text use %s there",
				field, strings.ToUpper(accent.hex()), minContrast(accent, bgs), mode, m.link.hex())
		}
		m.line = accent
		if minContrast(accent, bgs) < minUIContrast {
			m.line = m.link
		}
		m.onBrand, m.onLink = onColor(m.brand), onColor(m.link)
		return m
	}
	light = derive("light", primaryField, primary, hoverColor, []rgb{bg(bgLight, lightBg), lightBgSoft})
	dark = derive("dark", lightField, accentDark, hoverColor, []rgb{bg(bgDark, darkBg), darkBgSoft})
	return light, dark
}

// ColorsCSS is the stylesheet's line of derived theme colours.
func ColorsCSS(cfg *docsjson.Config, warn func(string, ...any)) string {
	light, dark := themeColors(cfg.Colors, cfg.Background.Color.Light, cfg.Background.Color.Dark, warn)
	return ":root{" + light.css() + "}[data-theme=dark]{" + dark.css() + "}\n"
}

// AppearanceAttrs writes the attributes of <html> that fix the mode a
// page opens in: data-theme for a light or dark default (the early theme
// script lets a reader's stored choice replace it unless strict), and
// data-strict when the reader may not change it.
func AppearanceAttrs(b *markup.Builder, a docsjson.Appearance) {
	if a.Default == "light" || a.Default == "dark" {
		b.Attr("data-theme", a.Default)
	}
	if a.Strict {
		b.Markup(` data-strict`)
	}
}
