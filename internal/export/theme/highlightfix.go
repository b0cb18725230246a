package theme

import (
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Chroma's "github" and "github-dark" styles are written for their own
// backgrounds, and as two class sets: a token class that github-dark
// leaves unstyled (punctuation, attribute and other names) keeps the
// light style's near-black colour in dark mode, unreadable on the dark
// code background (JSON's braces, commas and colons were the report). A
// few light colours also miss 4.5:1 on the code blocks' grey.
// highlightFixCSS follows highlight.css with one rule per token class
// that would read below minTextContrast in either mode: a dark class
// without a colour of its own takes the dark code text colour, and any
// colour still too faint becomes the nearest shade of its hue that
// reaches the ratio (readable).

// codeBackgrounds are what highlighted code sits on in each mode: the
// code blocks' --bg-soft and the page's --bg (the playground's response),
// as style.css sets them.
var codeBackgrounds = map[bool][]string{
	false: {"#f6f8fa", "#ffffff"},
	true:  {"#161b22", "#0d1117"},
}

// codeText is the colour of code that no token class colours: the page
// text in light mode (.chroma sets none), github-dark's text in dark.
var codeText = map[bool]string{false: "#1f2328", true: "#e6edf3"}

// layoutClasses are chroma's classes that colour no token text (line
// tables and numbers, which the export does not draw; whitespace;
// underline only).
var layoutClasses = map[string]bool{"bg": true, "chroma": true, "lnlinks": true, "lntd": true, "lntable": true,
	"hl": true, "lnt": true, "ln": true, "line": true, "w": true, "gl": true}

// tokenStyle is what highlight.css gives one token class in one mode.
type tokenStyle struct{ color, background string }

var (
	highlightRule = regexp.MustCompile(`^(\[data-theme=dark\] )?\.chroma \.([a-z0-9]+) ?\{([^}]*)\}`)
	cssDecl       = regexp.MustCompile(`(?:^|;)\s*(color|background-color):\s*(#[0-9a-fA-F]{3,6}|transparent)`)
)

// parseHighlight reads highlight.css's token rules: by mode (dark or
// not), by class; a later rule of a class overrides what it sets.
func parseHighlight(css string) map[bool]map[string]tokenStyle {
	out := map[bool]map[string]tokenStyle{false: {}, true: {}}
	for _, line := range strings.Split(css, "\n") {
		m := highlightRule.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil || layoutClasses[m[2]] {
			continue
		}
		st := out[m[1] != ""][m[2]]
		for _, d := range cssDecl.FindAllStringSubmatch(m[3], -1) {
			if d[1] == "color" {
				st.color = d[2]
			} else {
				st.background = d[2]
			}
		}
		out[m[1] != ""][m[2]] = st
	}
	return out
}

// effectiveStyles are the colours each token class is painted with in
// each mode, after fixes: the dark rule's own colour, else the light
// rule's (the cascade lets it through), else the code text colour.
func effectiveStyles(rules, fixes map[bool]map[string]tokenStyle) map[bool]map[string]tokenStyle {
	out := map[bool]map[string]tokenStyle{false: {}, true: {}}
	classes := map[string]bool{}
	for _, mode := range []bool{false, true} {
		for c := range rules[mode] {
			classes[c] = true
		}
	}
	for c := range classes {
		for _, dark := range []bool{false, true} {
			var st tokenStyle
			// The light rule applies in both modes; the dark one, more
			// specific, wins where it sets a property.
			for _, mode := range []bool{false, true} {
				if mode && !dark {
					continue
				}
				r := rules[mode][c]
				if f := fixes[mode][c]; f.color != "" {
					r.color = f.color
				}
				if f := fixes[mode][c]; f.background != "" {
					r.background = f.background
				}
				if r.color != "" {
					st.color = r.color
				}
				if r.background != "" {
					st.background = r.background
				}
				if st.background == "transparent" {
					st.background = ""
				}
			}
			if st.color == "" {
				st.color = codeText[dark]
			}
			out[dark][c] = st
		}
	}
	return out
}

// tokenContrast is the lowest ratio of a token's colour against what it
// sits on in that mode.
func tokenContrast(st tokenStyle, dark bool) float64 {
	fg, _ := parseHex(st.color)
	return minContrast(fg, tokenBackgrounds(st, dark))
}

func tokenBackgrounds(st tokenStyle, dark bool) []rgb {
	if st.background != "" {
		bg, _ := parseHex(st.background)
		return []rgb{bg}
	}
	var bgs []rgb
	for _, s := range codeBackgrounds[dark] {
		bg, _ := parseHex(s)
		bgs = append(bgs, bg)
	}
	return bgs
}

// highlightFixes works out the fixes of every mode: light first, as its
// rules also reach dark mode.
func highlightFixes(css string) map[bool]map[string]tokenStyle {
	rules := parseHighlight(css)
	fixes := map[bool]map[string]tokenStyle{false: {}, true: {}}
	for _, dark := range []bool{false, true} {
		eff := effectiveStyles(rules, fixes)[dark]
		for c, st := range eff {
			if tokenContrast(st, dark) >= minTextContrast {
				continue
			}
			var fix tokenStyle
			col := st.color
			if dark && rules[true][c].color == "" {
				// A light colour leaking through: github-dark means the
				// token to read as plain code text.
				col = codeText[true]
			}
			if dark && st.background != "" && rules[true][c].background == "" {
				// A light background leaking through (.err): github-dark
				// draws the token on the code background.
				fix.background, st.background = "transparent", ""
			}
			fg, _ := parseHex(col)
			fix.color = readable(fg, tokenBackgrounds(st, dark), minTextContrast).hex()
			fixes[dark][c] = fix
		}
	}
	return fixes
}

// highlightFixCSS is the stylesheet of highlightFixes, in a stable order.
var highlightFixCSS = sync.OnceValue(func() []byte {
	fixes := highlightFixes(string(highlightCSS))
	var b strings.Builder
	for _, dark := range []bool{false, true} {
		classes := make([]string, 0, len(fixes[dark]))
		for c := range fixes[dark] {
			classes = append(classes, c)
		}
		sort.Strings(classes)
		for _, c := range classes {
			if dark {
				b.WriteString("[data-theme=dark] ")
			}
			f := fixes[dark][c]
			b.WriteString(".chroma ." + c + "{color:" + f.color)
			if f.background != "" {
				b.WriteString(";background-color:" + f.background)
			}
			b.WriteString("}\n")
		}
	}
	return []byte(b.String())
})
