package tailwind

// colorUtilities are the utilities whose value is a colour, by name.
var colorUtilities = map[string]func(color) []decl{
	"bg":       func(c color) []decl { return c.withOpacityVar("--tw-bg-opacity", "background-color") },
	"text":     func(c color) []decl { return c.withOpacityVar("--tw-text-opacity", "color") },
	"border":   func(c color) []decl { return c.withOpacityVar("--tw-border-opacity", "border-color") },
	"border-t": func(c color) []decl { return c.withOpacityVar("--tw-border-opacity", "border-top-color") },
	"border-r": func(c color) []decl { return c.withOpacityVar("--tw-border-opacity", "border-right-color") },
	"border-b": func(c color) []decl { return c.withOpacityVar("--tw-border-opacity", "border-bottom-color") },
	"border-l": func(c color) []decl { return c.withOpacityVar("--tw-border-opacity", "border-left-color") },
	"border-x": func(c color) []decl {
		return c.withOpacityVar("--tw-border-opacity", "border-left-color", "border-right-color")
	},
	"border-y": func(c color) []decl {
		return c.withOpacityVar("--tw-border-opacity", "border-top-color", "border-bottom-color")
	},
	"border-s":    func(c color) []decl { return c.withOpacityVar("--tw-border-opacity", "border-inline-start-color") },
	"border-e":    func(c color) []decl { return c.withOpacityVar("--tw-border-opacity", "border-inline-end-color") },
	"divide":      func(c color) []decl { return c.withOpacityVar("--tw-divide-opacity", "border-color") },
	"placeholder": func(c color) []decl { return c.withOpacityVar("--tw-placeholder-opacity", "color") },
	"ring":        func(c color) []decl { return c.withOpacityVar("--tw-ring-opacity", "--tw-ring-color") },
	"ring-offset": func(c color) []decl { return []decl{{"--tw-ring-offset-color", c.value()}} },
	"outline":     func(c color) []decl { return []decl{{"outline-color", c.value()}} },
	"decoration":  func(c color) []decl { return []decl{{"text-decoration-color", c.value()}} },
	"fill":        func(c color) []decl { return []decl{{"fill", c.value()}} },
	"stroke":      func(c color) []decl { return []decl{{"stroke", c.value()}} },
	"accent":      func(c color) []decl { return []decl{{"accent-color", c.value()}} },
	"caret":       func(c color) []decl { return []decl{{"caret-color", c.value()}} },
	"shadow": func(c color) []decl {
		return []decl{{"--tw-shadow-color", c.value()}, {"--tw-shadow", "var(--tw-shadow-colored)"}}
	},
	"from": func(c color) []decl {
		return []decl{{"--tw-gradient-from", c.value() + " var(--tw-gradient-from-position)"},
			{"--tw-gradient-to", c.transparentTo() + " var(--tw-gradient-to-position)"},
			{"--tw-gradient-stops", "var(--tw-gradient-from), var(--tw-gradient-to)"}}
	},
	// Tailwind writes two spaces here; kept so the rules compare equal.
	"via": func(c color) []decl {
		return []decl{{"--tw-gradient-to", c.transparentTo() + "  var(--tw-gradient-to-position)"},
			{"--tw-gradient-stops", "var(--tw-gradient-from), " + c.value() + " var(--tw-gradient-via-position), var(--tw-gradient-to)"}}
	},
	"to": func(c color) []decl {
		return []decl{{"--tw-gradient-to", c.value() + " var(--tw-gradient-to-position)"}}
	},
}

// defaults are the variables Tailwind's base layer gives every element,
// which transforms, filters, rings, shadows, gradients and numeric
// utilities read; the stylesheet carries them when a rule reads one.
var defaults = []decl{
	{"--tw-border-spacing-x", "0"}, {"--tw-border-spacing-y", "0"},
	{"--tw-translate-x", "0"}, {"--tw-translate-y", "0"}, {"--tw-rotate", "0"},
	{"--tw-skew-x", "0"}, {"--tw-skew-y", "0"}, {"--tw-scale-x", "1"}, {"--tw-scale-y", "1"},
	{"--tw-pan-x", " "}, {"--tw-pan-y", " "}, {"--tw-pinch-zoom", " "}, {"--tw-scroll-snap-strictness", "proximity"},
	{"--tw-gradient-from-position", " "}, {"--tw-gradient-via-position", " "}, {"--tw-gradient-to-position", " "},
	{"--tw-ordinal", " "}, {"--tw-slashed-zero", " "}, {"--tw-numeric-figure", " "}, {"--tw-numeric-spacing", " "}, {"--tw-numeric-fraction", " "},
	{"--tw-ring-inset", " "}, {"--tw-ring-offset-width", "0px"}, {"--tw-ring-offset-color", "#fff"},
	{"--tw-ring-color", "rgb(59 130 246 / 0.5)"}, {"--tw-ring-offset-shadow", "0 0 #0000"}, {"--tw-ring-shadow", "0 0 #0000"},
	{"--tw-shadow", "0 0 #0000"}, {"--tw-shadow-colored", "0 0 #0000"},
	{"--tw-blur", " "}, {"--tw-brightness", " "}, {"--tw-contrast", " "}, {"--tw-grayscale", " "}, {"--tw-hue-rotate", " "},
	{"--tw-invert", " "}, {"--tw-saturate", " "}, {"--tw-sepia", " "}, {"--tw-drop-shadow", " "},
	{"--tw-backdrop-blur", " "}, {"--tw-backdrop-brightness", " "}, {"--tw-backdrop-contrast", " "}, {"--tw-backdrop-grayscale", " "},
	{"--tw-backdrop-hue-rotate", " "}, {"--tw-backdrop-invert", " "}, {"--tw-backdrop-opacity", " "}, {"--tw-backdrop-saturate", " "},
	{"--tw-backdrop-sepia", " "},
	{"--tw-contain-size", " "}, {"--tw-contain-layout", " "}, {"--tw-contain-paint", " "}, {"--tw-contain-style", " "},
}
