// Package tailwind writes the CSS of the Tailwind CSS v3 utility classes
// a docs source's pages use in className, as the platform documents
// (customize/custom-scripts.mdx § Style with Tailwind CSS): only the
// classes used, with the responsive, dark, hover and focus variants, and
// without arbitrary values, which the platform does not support either.
// It covers the utilities of layout, spacing, sizing, typography, borders
// and effects that documentation pages use; a class that names a
// Tailwind utility it does not write is returned as such, for a warning.
// Its output is checked against Tailwind CSS itself (generate_test.go).
// It knows class names and CSS only.
package tailwind

import (
	"sort"
	"strconv"
	"strings"
)

// decl is one CSS declaration.
type decl struct{ prop, value string }

// breakpoints are the responsive variants and their minimum widths.
var breakpoints = map[string]int{"sm": 640, "md": 768, "lg": 1024, "xl": 1280, "2xl": 1536}

// rule is the CSS of one class.
type rule struct {
	class    string
	media    int // minimum width, 0 for none
	state    string
	dark     bool
	decls    []decl
	position int
}

// CSS returns the style sheet of the utility classes among classes, and
// the classes that name a Tailwind utility this package does not write.
// Other classes (a site's own) are neither.
func CSS(classes []string) (css string, unsupported []string) {
	var rules []rule
	seen := map[string]bool{}
	for _, c := range classes {
		if seen[c] {
			continue
		}
		seen[c] = true
		r, ok, known := parse(c)
		switch {
		case ok:
			r.position = len(rules)
			rules = append(rules, r)
		case known:
			unsupported = append(unsupported, c)
		}
	}
	// Later rules win among equals: plain classes first, then states,
	// then dark, then each breakpoint from the narrowest, as Tailwind
	// orders its variants.
	sort.SliceStable(rules, func(i, j int) bool {
		a, b := rules[i], rules[j]
		if a.media != b.media {
			return a.media < b.media
		}
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra < rb
		}
		return a.position < b.position
	})
	var b strings.Builder
	for _, r := range rules {
		sel := "." + escape(r.class)
		if r.state != "" {
			sel += ":" + r.state
		}
		if r.dark {
			sel += `:where([data-theme="dark"], [data-theme="dark"] *)`
		}
		if r.media > 0 {
			b.WriteString("@media (min-width: " + strconv.Itoa(r.media) + "px){")
		}
		b.WriteString(sel + "{")
		for i, d := range r.decls {
			if i > 0 {
				b.WriteByte(';')
			}
			b.WriteString(d.prop + ":" + d.value)
		}
		b.WriteByte('}')
		if r.media > 0 {
			b.WriteByte('}')
		}
		b.WriteByte('\n')
	}
	sort.Strings(unsupported)
	return b.String(), unsupported
}

func rank(r rule) int {
	switch {
	case r.dark:
		return 2
	case r.state != "":
		return 1
	}
	return 0
}

// parse reads a class: its variants and its utility. ok is false when it
// writes nothing; known is then whether the utility is Tailwind's.
func parse(class string) (r rule, ok, known bool) {
	r.class = class
	parts := strings.Split(class, ":")
	base := parts[len(parts)-1]
	for _, v := range parts[:len(parts)-1] {
		switch {
		case breakpoints[v] > 0 && r.media == 0:
			r.media = breakpoints[v]
		case v == "dark" && !r.dark:
			r.dark = true
		case (v == "hover" || v == "focus") && r.state == "":
			r.state = v
		default:
			return r, false, false // a variant of something else
		}
	}
	if strings.ContainsAny(base, "[]") {
		return r, false, looksLikeUtility(base) // arbitrary values: not on the platform either
	}
	r.decls = utility(base)
	if r.decls == nil {
		return r, false, looksLikeUtility(base)
	}
	return r, true, true
}

// escape writes a class name as a CSS selector's identifier.
func escape(class string) string {
	var b strings.Builder
	for i := 0; i < len(class); i++ {
		c := class[i]
		switch {
		case i == 0 && c >= '0' && c <= '9':
			// A leading digit as a code point; a space ends the escape
			// only where a hex digit would otherwise continue it.
			b.WriteString(`\3` + string(c))
			if i+1 < len(class) && strings.ContainsRune("0123456789abcdefABCDEF ", rune(class[i+1])) {
				b.WriteByte(' ')
			}
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_', c >= 0x80:
			b.WriteByte(c)
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return b.String()
}
