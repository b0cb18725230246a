package tailwind

import (
	"strconv"
	"strings"
)

// A family is a utility written as name-value, like top-4 or rotate-45:
// the values it takes and the declarations a value gives.
type family struct {
	values   func(v string) (string, bool)
	decls    func(value string) []decl
	negative bool // -name-value negates the value
}

// families are the utilities with a value, by name. A name can hold a
// hyphen (inset-x, translate-y): a class is cut at each hyphen from the
// right until a family takes the rest.
var families = map[string]family{}

// childSelector is what space-*, divide-* add to their class: the gaps
// between an element's visible children.
const childSelector = " > :not([hidden]) ~ :not([hidden])"

const (
	transformValue = "translate(var(--tw-translate-x), var(--tw-translate-y)) rotate(var(--tw-rotate)) skewX(var(--tw-skew-x)) skewY(var(--tw-skew-y)) scaleX(var(--tw-scale-x)) scaleY(var(--tw-scale-y))"
	filterValue    = "var(--tw-blur) var(--tw-brightness) var(--tw-contrast) var(--tw-grayscale) var(--tw-hue-rotate) var(--tw-invert) var(--tw-saturate) var(--tw-sepia) var(--tw-drop-shadow)"
	backdropValue  = "var(--tw-backdrop-blur) var(--tw-backdrop-brightness) var(--tw-backdrop-contrast) var(--tw-backdrop-grayscale) var(--tw-backdrop-hue-rotate) var(--tw-backdrop-invert) var(--tw-backdrop-opacity) var(--tw-backdrop-saturate) var(--tw-backdrop-sepia)"
	boxShadowValue = "var(--tw-ring-offset-shadow, 0 0 #0000), var(--tw-ring-shadow, 0 0 #0000), var(--tw-shadow)"
	ringValue      = "var(--tw-ring-offset-shadow), var(--tw-ring-shadow), var(--tw-shadow, 0 0 #0000)"
	easing         = "cubic-bezier(0.4, 0, 0.2, 1)"
)

// oneOf is a scale given as name=value pairs.
func oneOf(pairs ...string) func(string) (string, bool) {
	m := make(map[string]string, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		m[pairs[i]] = pairs[i+1]
	}
	return func(v string) (string, bool) {
		s, ok := m[v]
		return s, ok
	}
}

// either tries scales in order.
func either(scales ...func(string) (string, bool)) func(string) (string, bool) {
	return func(v string) (string, bool) {
		for _, s := range scales {
			if out, ok := s(v); ok {
				return out, true
			}
		}
		return "", false
	}
}

// set writes a value to each property.
func set(props ...string) func(string) []decl {
	return func(v string) []decl {
		out := make([]decl, len(props))
		for i, p := range props {
			out[i] = decl{p, v}
		}
		return out
	}
}

// through sets a variable and then the property that reads it.
func through(variable, prop, value string) func(string) []decl {
	return func(v string) []decl { return []decl{{variable, v}, {prop, value}} }
}

// fractions of a box: halves to quarters, as inset and translate take.
func quarters(v string) (string, bool) {
	switch v {
	case "1/2", "2/4":
		return "50%", true
	case "1/3", "2/3", "1/4", "3/4":
		return fraction(v)
	}
	return "", false
}

// units are a number with a unit, from a list of numbers.
func units(unit string, numbers ...string) func(string) (string, bool) {
	return func(v string) (string, bool) {
		if indexOf(numbers, v) < 0 {
			return "", false
		}
		return v + unit, true
	}
}

// ratio is a percentage number as a factor, written as Tailwind's theme
// writes it: 95 is .95, 105 is 1.05, 100 is 1.
func ratio(numbers ...string) func(string) (string, bool) {
	return func(v string) (string, bool) {
		if indexOf(numbers, v) < 0 {
			return "", false
		}
		n, _ := strconv.Atoi(v)
		return strings.Replace(strconv.FormatFloat(float64(n)/100, 'f', -1, 64), "0.", ".", 1), true
	}
}

// wrap writes a value inside a CSS function: blur(8px).
func wrap(fn string, scale func(string) (string, bool)) func(string) (string, bool) {
	return func(v string) (string, bool) {
		s, ok := scale(v)
		switch {
		case !ok:
			return "", false
		case s == "":
			return " ", true // none: the filter unset
		}
		return fn + "(" + s + ")", true
	}
}

// numbers are the integers 1..to as strings.
func numbers(to int) []string {
	var out []string
	for n := 1; n <= to; n++ {
		out = append(out, strconv.Itoa(n))
	}
	return out
}

// addFamilies registers the utilities with a value.
func addFamilies() {
	add := func(names string, f family) {
		for _, n := range strings.Fields(names) {
			families[n] = f
		}
	}
	sized := either(spacing, quarters, oneOf("full", "100%", "auto", "auto"))
	for name, props := range map[string][]string{
		"top": {"top"}, "right": {"right"}, "bottom": {"bottom"}, "left": {"left"}, "start": {"inset-inline-start"},
		"end": {"inset-inline-end"}, "inset": {"inset"}, "inset-x": {"left", "right"}, "inset-y": {"top", "bottom"},
	} {
		families[name] = family{values: sized, decls: set(props...), negative: true}
	}
	for name, props := range sides {
		families[name] = family{values: spacing, decls: set(props...), negative: name[0] == 'm'}
	}
	for _, axis := range []string{"x", "y"} {
		families["translate-"+axis] = family{values: either(spacing, quarters, oneOf("full", "100%")),
			decls: through("--tw-translate-"+axis, "transform", transformValue), negative: true}
		families["skew-"+axis] = family{values: units("deg", "0", "1", "2", "3", "6", "12"),
			decls: through("--tw-skew-"+axis, "transform", transformValue), negative: true}
		families["scale-"+axis] = family{values: ratio("0", "50", "75", "90", "95", "100", "105", "110", "125", "150"),
			decls: through("--tw-scale-"+axis, "transform", transformValue)}
	}
	families["rotate"] = family{values: units("deg", "0", "1", "2", "3", "6", "12", "45", "90", "180"),
		decls: through("--tw-rotate", "transform", transformValue), negative: true}
	families["scale"] = family{values: ratio("0", "50", "75", "90", "95", "100", "105", "110", "125", "150"),
		decls: func(v string) []decl {
			return []decl{{"--tw-scale-x", v}, {"--tw-scale-y", v}, {"transform", transformValue}}
		}}
	families["z"] = family{values: oneOf("0", "0", "10", "10", "20", "20", "30", "30", "40", "40", "50", "50", "auto", "auto"),
		decls: set("z-index"), negative: true}
	families["order"] = family{values: either(units("", numbers(12)...), oneOf("first", "-9999", "last", "9999", "none", "0")),
		decls: set("order"), negative: true}
	lengths := oneOf("full", "100%", "min", "min-content", "max", "max-content", "fit", "fit-content")
	families["min-w"] = family{values: either(spacing, lengths), decls: set("min-width")}
	families["min-h"] = family{values: either(spacing, lengths, oneOf("screen", "100vh", "svh", "100svh", "lvh", "100lvh", "dvh", "100dvh")), decls: set("min-height")}
	families["max-h"] = family{values: either(spacing, lengths, oneOf("none", "none", "screen", "100vh", "svh", "100svh", "lvh", "100lvh", "dvh", "100dvh")), decls: set("max-height")}
	families["size"] = family{values: either(spacing, lengths, oneOf("auto", "auto"), fraction), decls: set("width", "height")}
	families["basis"] = family{values: either(spacing, fraction, oneOf("auto", "auto", "full", "100%")), decls: set("flex-basis")}
	families["indent"] = family{values: spacing, decls: set("text-indent"), negative: true}
	families["space-x"] = family{values: spacing, decls: func(v string) []decl {
		return []decl{{"--tw-space-x-reverse", "0"}, {"margin-right", "calc(" + v + " * var(--tw-space-x-reverse))"},
			{"margin-left", "calc(" + v + " * calc(1 - var(--tw-space-x-reverse)))"}}
	}, negative: true}
	families["space-y"] = family{values: spacing, decls: func(v string) []decl {
		return []decl{{"--tw-space-y-reverse", "0"}, {"margin-top", "calc(" + v + " * calc(1 - var(--tw-space-y-reverse)))"},
			{"margin-bottom", "calc(" + v + " * var(--tw-space-y-reverse))"}}
	}, negative: true}
	add("leading", family{values: either(oneOf("none", "1", "tight", "1.25", "snug", "1.375", "normal", "1.5", "relaxed", "1.625", "loose", "2"),
		oneOf("3", ".75rem", "4", "1rem", "5", "1.25rem", "6", "1.5rem", "7", "1.75rem", "8", "2rem", "9", "2.25rem", "10", "2.5rem")),
		decls: set("line-height")})
	add("tracking", family{values: oneOf("tighter", "-0.05em", "tight", "-0.025em", "normal", "0em", "wide", "0.025em", "wider", "0.05em", "widest", "0.1em"),
		decls: set("letter-spacing")})
	families["grid-rows"] = family{values: func(v string) (string, bool) {
		if indexOf(numbers(12), v) >= 0 {
			return "repeat(" + v + ", minmax(0, 1fr))", true
		}
		return oneOf("none", "none", "subgrid", "subgrid")(v)
	}, decls: set("grid-template-rows")}
	families["row-span"] = family{values: func(v string) (string, bool) {
		if indexOf(numbers(12), v) >= 0 {
			return "span " + v + " / span " + v, true
		}
		return oneOf("full", "1 / -1")(v)
	}, decls: set("grid-row")}
	for _, p := range []string{"col", "row"} {
		prop := map[string]string{"col": "grid-column", "row": "grid-row"}[p]
		families[p+"-start"] = family{values: either(units("", numbers(13)...), oneOf("auto", "auto")), decls: set(prop + "-start")}
		families[p+"-end"] = family{values: either(units("", numbers(13)...), oneOf("auto", "auto")), decls: set(prop + "-end")}
	}
	fr := oneOf("auto", "auto", "min", "min-content", "max", "max-content", "fr", "minmax(0, 1fr)")
	families["auto-cols"] = family{values: fr, decls: set("grid-auto-columns")}
	families["auto-rows"] = family{values: fr, decls: set("grid-auto-rows")}
	families["line-clamp"] = family{values: units("", numbers(6)...), decls: func(v string) []decl {
		return []decl{{"overflow", "hidden"}, {"display", "-webkit-box"}, {"-webkit-box-orient", "vertical"}, {"-webkit-line-clamp", v}}
	}}
	families["columns"] = family{values: either(units("", numbers(12)...), oneOf("auto", "auto",
		"3xs", "16rem", "2xs", "18rem", "xs", "20rem", "sm", "24rem", "md", "28rem", "lg", "32rem", "xl", "36rem",
		"2xl", "42rem", "3xl", "48rem", "4xl", "56rem", "5xl", "64rem", "6xl", "72rem", "7xl", "80rem")), decls: set("columns")}
	timing := either(oneOf("0", "0s"), units("ms", "75", "100", "150", "200", "300", "500", "700", "1000"))
	families["duration"] = family{values: timing, decls: set("transition-duration")}
	families["delay"] = family{values: timing, decls: set("transition-delay")}
	widths := units("px", "0", "1", "2", "4", "8")
	borderWidths := units("px", "0", "2", "4", "8")
	families["decoration"] = family{values: either(widths, oneOf("auto", "auto", "from-font", "from-font")), decls: set("text-decoration-thickness")}
	families["underline-offset"] = family{values: either(widths, oneOf("auto", "auto")), decls: set("text-underline-offset")}
	families["outline"] = family{values: widths, decls: set("outline-width")}
	families["outline-offset"] = family{values: widths, decls: set("outline-offset")}
	families["ring-offset"] = family{values: widths, decls: set("--tw-ring-offset-width")}
	families["ring"] = family{values: widths, decls: func(v string) []decl {
		return []decl{
			{"--tw-ring-offset-shadow", "var(--tw-ring-inset) 0 0 0 var(--tw-ring-offset-width) var(--tw-ring-offset-color)"},
			{"--tw-ring-shadow", "var(--tw-ring-inset) 0 0 0 calc(" + v + " + var(--tw-ring-offset-width)) var(--tw-ring-color)"},
			{"box-shadow", ringValue}}
	}}
	for _, d := range []struct{ name, prop string }{{"divide-x", "x"}, {"divide-y", "y"}} {
		axis := d.prop
		families[d.name] = family{values: borderWidths, decls: func(v string) []decl {
			first, second := "border-right-width", "border-left-width"
			if axis == "y" {
				first, second = "border-top-width", "border-bottom-width"
				return []decl{{"--tw-divide-y-reverse", "0"}, {first, "calc(" + v + " * calc(1 - var(--tw-divide-y-reverse)))"},
					{second, "calc(" + v + " * var(--tw-divide-y-reverse))"}}
			}
			return []decl{{"--tw-divide-x-reverse", "0"}, {first, "calc(" + v + " * var(--tw-divide-x-reverse))"},
				{second, "calc(" + v + " * calc(1 - var(--tw-divide-x-reverse)))"}}
		}}
	}
	for side, props := range map[string][]string{"t": {"border-top-width"}, "r": {"border-right-width"}, "b": {"border-bottom-width"},
		"l": {"border-left-width"}, "x": {"border-left-width", "border-right-width"}, "y": {"border-top-width", "border-bottom-width"},
		"s": {"border-inline-start-width"}, "e": {"border-inline-end-width"}} {
		families["border-"+side] = family{values: borderWidths, decls: set(props...)}
	}
	radius := oneOf("none", "0px", "sm", "0.125rem", "md", "0.375rem", "lg", "0.5rem", "xl", "0.75rem", "2xl", "1rem", "3xl", "1.5rem", "full", "9999px")
	for corner, props := range map[string][]string{
		"t": {"border-top-left-radius", "border-top-right-radius"}, "r": {"border-top-right-radius", "border-bottom-right-radius"},
		"b": {"border-bottom-right-radius", "border-bottom-left-radius"}, "l": {"border-top-left-radius", "border-bottom-left-radius"},
		"s": {"border-start-start-radius", "border-end-start-radius"}, "e": {"border-start-end-radius", "border-end-end-radius"},
		"tl": {"border-top-left-radius"}, "tr": {"border-top-right-radius"}, "br": {"border-bottom-right-radius"}, "bl": {"border-bottom-left-radius"},
		"ss": {"border-start-start-radius"}, "se": {"border-start-end-radius"}, "es": {"border-end-start-radius"}, "ee": {"border-end-end-radius"},
	} {
		families["rounded-"+corner] = family{values: radius, decls: set(props...)}
		fixed["rounded-"+corner] = set(props...)("0.25rem")
	}
	filter := func(name string, scale func(string) (string, bool)) {
		families[name] = family{values: wrap(name, scale), decls: through("--tw-"+name, "filter", filterValue)}
		families["backdrop-"+name] = family{values: wrap(name, scale), decls: func(v string) []decl {
			return []decl{{"--tw-backdrop-" + name, v}, {"-webkit-backdrop-filter", backdropValue}, {"backdrop-filter", backdropValue}}
		}}
	}
	filter("blur", oneOf("none", "", "sm", "4px", "md", "12px", "lg", "16px", "xl", "24px", "2xl", "40px", "3xl", "64px"))
	filter("brightness", ratio("0", "50", "75", "90", "95", "100", "105", "110", "125", "150", "200"))
	filter("contrast", ratio("0", "50", "75", "100", "125", "150", "200"))
	filter("saturate", ratio("0", "50", "100", "150", "200"))
	filter("hue-rotate", units("deg", "0", "15", "30", "60", "90", "180"))
	for _, f := range []string{"grayscale", "invert", "sepia"} {
		filter(f, oneOf("0", "0"))
		fixed[f] = through("--tw-"+f, "filter", filterValue)(f + "(100%)")
		fixed["backdrop-"+f] = families["backdrop-"+f].decls(f + "(100%)")
	}
	fixed["blur"] = families["blur"].decls("blur(8px)")
	fixed["backdrop-blur"] = families["backdrop-blur"].decls("blur(8px)")
	for name, variable := range map[string]string{"bg": "--tw-bg-opacity", "text": "--tw-text-opacity", "border": "--tw-border-opacity",
		"divide": "--tw-divide-opacity", "ring": "--tw-ring-opacity"} {
		families[name+"-opacity"] = family{values: opacity, decls: set(variable)}
	}
}

// negate is a value's negative, as Tailwind writes it: 0 stays 0, a
// negative turns positive, a keyword has none.
func negate(s string) (string, bool) {
	switch {
	case s == "0":
		return s, true
	case strings.HasPrefix(s, "-"):
		return s[1:], true
	case s != "" && (s[0] >= '0' && s[0] <= '9' || s[0] == '.'):
		return "-" + s, true
	}
	return "", false
}
