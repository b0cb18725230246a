package tailwind

import (
	"regexp"
	"strconv"
	"strings"
)

// fixed are the utilities without a value.
var fixed = map[string][]decl{}

func init() {
	for _, d := range []string{"block", "inline-block", "inline", "flex", "inline-flex", "grid", "inline-grid", "contents", "table", "flow-root", "list-item"} {
		fixed[d] = []decl{{"display", d}}
	}
	fixed["hidden"] = []decl{{"display", "none"}}
	for _, p := range []string{"static", "fixed", "absolute", "relative", "sticky"} {
		fixed[p] = []decl{{"position", p}}
	}
	for k, v := range map[string]string{"flex-row": "row", "flex-row-reverse": "row-reverse", "flex-col": "column", "flex-col-reverse": "column-reverse"} {
		fixed[k] = []decl{{"flex-direction", v}}
	}
	for k, v := range map[string]string{"flex-wrap": "wrap", "flex-wrap-reverse": "wrap-reverse", "flex-nowrap": "nowrap"} {
		fixed[k] = []decl{{"flex-wrap", v}}
	}
	for k, v := range map[string]string{"flex-1": "1 1 0%", "flex-auto": "1 1 auto", "flex-initial": "0 1 auto", "flex-none": "none"} {
		fixed[k] = []decl{{"flex", v}}
	}
	fixed["grow"], fixed["grow-0"] = []decl{{"flex-grow", "1"}}, []decl{{"flex-grow", "0"}}
	fixed["shrink"], fixed["shrink-0"] = []decl{{"flex-shrink", "1"}}, []decl{{"flex-shrink", "0"}}
	for k, v := range map[string]string{"start": "flex-start", "end": "flex-end", "center": "center", "baseline": "baseline", "stretch": "stretch"} {
		fixed["items-"+k] = []decl{{"align-items", v}}
		fixed["self-"+k] = []decl{{"align-self", v}}
	}
	for k, v := range map[string]string{"start": "flex-start", "end": "flex-end", "center": "center", "between": "space-between", "around": "space-around", "evenly": "space-evenly"} {
		fixed["justify-"+k] = []decl{{"justify-content", v}}
	}
	for _, a := range []string{"left", "center", "right", "justify", "start", "end"} {
		fixed["text-"+a] = []decl{{"text-align", a}}
	}
	for k, v := range map[string]string{"thin": "100", "extralight": "200", "light": "300", "normal": "400", "medium": "500", "semibold": "600", "bold": "700", "extrabold": "800", "black": "900"} {
		fixed["font-"+k] = []decl{{"font-weight", v}}
	}
	for k, v := range map[string][2]string{"xs": {"0.75rem", "1rem"}, "sm": {"0.875rem", "1.25rem"}, "base": {"1rem", "1.5rem"},
		"lg": {"1.125rem", "1.75rem"}, "xl": {"1.25rem", "1.75rem"}, "2xl": {"1.5rem", "2rem"}, "3xl": {"1.875rem", "2.25rem"},
		"4xl": {"2.25rem", "2.5rem"}, "5xl": {"3rem", "1"}, "6xl": {"3.75rem", "1"}, "7xl": {"4.5rem", "1"}, "8xl": {"6rem", "1"}, "9xl": {"8rem", "1"}} {
		fixed["text-"+k] = []decl{{"font-size", v[0]}, {"line-height", v[1]}}
	}
	for k, v := range map[string]string{"none": "0px", "sm": "0.125rem", "": "0.25rem", "md": "0.375rem", "lg": "0.5rem",
		"xl": "0.75rem", "2xl": "1rem", "3xl": "1.5rem", "full": "9999px"} {
		fixed[strings.TrimSuffix("rounded-"+k, "-")] = []decl{{"border-radius", v}}
	}
	fixed["aspect-auto"] = []decl{{"aspect-ratio", "auto"}}
	fixed["aspect-square"] = []decl{{"aspect-ratio", "1 / 1"}}
	fixed["aspect-video"] = []decl{{"aspect-ratio", "16 / 9"}}
	for _, o := range []string{"contain", "cover", "fill", "none", "scale-down"} {
		fixed["object-"+o] = []decl{{"object-fit", o}}
	}
	for _, o := range []string{"auto", "hidden", "clip", "visible", "scroll"} {
		fixed["overflow-"+o] = []decl{{"overflow", o}}
		fixed["overflow-x-"+o] = []decl{{"overflow-x", o}}
		fixed["overflow-y-"+o] = []decl{{"overflow-y", o}}
	}
	fixed["underline"] = []decl{{"text-decoration-line", "underline"}}
	fixed["no-underline"] = []decl{{"text-decoration-line", "none"}}
	fixed["italic"], fixed["not-italic"] = []decl{{"font-style", "italic"}}, []decl{{"font-style", "normal"}}
	fixed["uppercase"], fixed["lowercase"], fixed["capitalize"] = []decl{{"text-transform", "uppercase"}}, []decl{{"text-transform", "lowercase"}}, []decl{{"text-transform", "capitalize"}}
	fixed["border"] = []decl{{"border-width", "1px"}}
	for _, n := range []string{"0", "2", "4", "8"} {
		fixed["border-"+n] = []decl{{"border-width", n + "px"}}
	}
	fixed["mx-auto"] = []decl{{"margin-left", "auto"}, {"margin-right", "auto"}}
	fixed["my-auto"] = []decl{{"margin-top", "auto"}, {"margin-bottom", "auto"}}
	fixed["m-auto"] = []decl{{"margin", "auto"}}
	fixed["col-span-full"] = []decl{{"grid-column", "1 / -1"}}
	for k, v := range map[string]string{"none": "none", "xs": "20rem", "sm": "24rem", "md": "28rem", "lg": "32rem", "xl": "36rem",
		"2xl": "42rem", "3xl": "48rem", "4xl": "56rem", "5xl": "64rem", "6xl": "72rem", "7xl": "80rem", "full": "100%",
		"min": "min-content", "max": "max-content", "fit": "fit-content", "prose": "65ch",
		"screen-sm": "640px", "screen-md": "768px", "screen-lg": "1024px", "screen-xl": "1280px", "screen-2xl": "1536px"} {
		fixed["max-w-"+k] = []decl{{"max-width", v}}
	}
	// In this order: keywords reuse some families' declarations.
	addFamilies()
	addKeywords()
}

// spacing is Tailwind's spacing scale: a step is a quarter rem.
var spacingSteps = []string{"0", "px", "0.5", "1", "1.5", "2", "2.5", "3", "3.5", "4", "5", "6", "7", "8", "9", "10", "11", "12",
	"14", "16", "20", "24", "28", "32", "36", "40", "44", "48", "52", "56", "60", "64", "72", "80", "96"}

func spacing(v string) (string, bool) {
	switch v {
	case "0":
		return "0px", true
	case "px":
		return "1px", true
	}
	for _, s := range spacingSteps {
		if s == v {
			f, _ := strconv.ParseFloat(v, 64)
			return strconv.FormatFloat(f/4, 'f', -1, 64) + "rem", true
		}
	}
	return "", false
}

// fraction is a width like 1/3 as a percentage, as Tailwind writes it.
func fraction(v string) (string, bool) {
	n, d, ok := strings.Cut(v, "/")
	num, err1 := strconv.Atoi(n)
	den, err2 := strconv.Atoi(d)
	if !ok || err1 != nil || err2 != nil || den < 2 || den > 12 || num < 1 || num >= den {
		return "", false
	}
	s := strconv.FormatFloat(100*float64(num)/float64(den), 'f', 6, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s + "%", true
}

// sides are the spacing utilities and the properties each sets.
var sides = map[string][]string{
	"p": {"padding"}, "px": {"padding-left", "padding-right"}, "py": {"padding-top", "padding-bottom"},
	"pt": {"padding-top"}, "pr": {"padding-right"}, "pb": {"padding-bottom"}, "pl": {"padding-left"},
	"m": {"margin"}, "mx": {"margin-left", "margin-right"}, "my": {"margin-top", "margin-bottom"},
	"mt": {"margin-top"}, "mr": {"margin-right"}, "mb": {"margin-bottom"}, "ml": {"margin-left"},
	"gap": {"gap"}, "gap-x": {"column-gap"}, "gap-y": {"row-gap"},
}

// utility returns the declarations of a utility, or nil, and what its
// rule adds to the class's selector (the children for space-* and
// divide-*, ::placeholder).
func utility(u string) ([]decl, string) {
	suffix := ""
	trimmed := strings.TrimPrefix(u, "-")
	switch {
	case strings.HasPrefix(trimmed, "space-"), strings.HasPrefix(trimmed, "divide-"):
		suffix = childSelector
	case strings.HasPrefix(u, "placeholder-") && !strings.HasPrefix(u, "placeholder-opacity-"):
		suffix = "::placeholder"
	}
	if d, ok := fixed[u]; ok {
		return d, suffix
	}
	neg := trimmed != u
	for i := strings.LastIndexByte(trimmed, '-'); i > 0; i = strings.LastIndexByte(trimmed[:i], '-') {
		name, v := trimmed[:i], trimmed[i+1:]
		if c, ok := parseColor(v); ok && !neg {
			if f, ok := colorUtilities[name]; ok {
				return f(c), suffix
			}
		}
		if f, ok := families[name]; ok && (!neg || f.negative) {
			if s, ok := f.values(v); ok {
				if neg {
					if s, ok = negate(s); !ok {
						return nil, ""
					}
				}
				return f.decls(s), suffix
			}
		}
		if d := sized(name, v); d != nil && !neg {
			return d, suffix
		}
	}
	return nil, ""
}

// sized are the width, height, grid and opacity utilities written
// before the families.
func sized(name, v string) []decl {
	switch name {
	case "w", "h":
		prop := map[string]string{"w": "width", "h": "height"}[name]
		if s, ok := spacing(v); ok {
			return []decl{{prop, s}}
		}
		switch v {
		case "auto":
			return []decl{{prop, "auto"}}
		case "full":
			return []decl{{prop, "100%"}}
		case "screen":
			return []decl{{prop, map[string]string{"w": "100vw", "h": "100vh"}[name]}}
		case "min", "max", "fit":
			return []decl{{prop, v + "-content"}}
		}
		// Fractions: widths in twelfths at the finest, heights in sixths.
		if _, den, ok := strings.Cut(v, "/"); ok {
			if d, err := strconv.Atoi(den); err == nil && (name == "w" || d <= 6) {
				if s, ok := fraction(v); ok {
					return []decl{{prop, s}}
				}
			}
		}
	case "grid-cols":
		if n, err := strconv.Atoi(v); err == nil && n >= 1 && n <= 12 {
			return []decl{{"grid-template-columns", "repeat(" + v + ", minmax(0, 1fr))"}}
		}
	case "col-span":
		if n, err := strconv.Atoi(v); err == nil && n >= 1 && n <= 12 {
			return []decl{{"grid-column", "span " + v + " / span " + v}}
		}
	case "opacity":
		if s, ok := opacity(v); ok {
			return []decl{{"opacity", s}}
		}
	}
	return nil
}

// knownUtility matches the classes of Tailwind utilities this package
// does not write (colours, shadows, leading, arbitrary values…), so
// that a page using one is reported rather than passed over; a site's
// own class names (my-callout, card-title) do not match.
var knownUtility = regexp.MustCompile(`^-?(` +
	`(bg|text|border|ring|outline|decoration|divide|from|via|to|fill|stroke|accent|caret|placeholder|shadow)-(` + colors + `)(-\d{2,3})?(/\d+)?` +
	`|(p|px|py|pt|pr|pb|pl|m|mx|my|mt|mr|mb|ml|gap|gap-x|gap-y|space-x|space-y|w|h|min-w|min-h|max-w|max-h|size|top|left|right|bottom|inset|inset-x|inset-y|translate-x|translate-y|basis|z|order|opacity|scale|rotate|duration|delay|leading|tracking|grid-cols|grid-rows|col-span|row-span|line-clamp|columns|border|rounded|rounded-[trbl]{1,2}|text|blur|brightness)-(\d+(\.\d+)?|\d+/\d+|px|auto|full|screen|min|max|fit|none|xs|sm|md|lg|xl|\dxl|base|tight|snug|normal|relaxed|loose|wide|wider|widest|tighter|prose)` +
	`|animate-\w+|(tabular|oldstyle|lining|proportional|normal)-nums|ordinal|slashed-zero|(diagonal|stacked)-fractions|shadow(-(sm|md|lg|xl|2xl|inner|none))?|truncate|sr-only|not-sr-only|transition(-\w+)?|antialiased|whitespace-\w+|break-(words|all|keep)` +
	`|(\w+(-\w+)*)-\[.*\]` +
	`)$`)

const colors = `slate|gray|zinc|neutral|stone|red|orange|amber|yellow|lime|green|emerald|teal|cyan|sky|blue|indigo|violet|purple|fuchsia|pink|rose|white|black|transparent|current|inherit`

func looksLikeUtility(u string) bool { return knownUtility.MatchString(u) }
