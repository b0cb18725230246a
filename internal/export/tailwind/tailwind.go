// Package tailwind writes the CSS of the Tailwind CSS v3 utility classes
// a docs source's pages use in className, as the platform documents
// (customize/custom-scripts.mdx § Style with Tailwind CSS): only the
// classes used, with the responsive, dark, state (hover, focus, first,
// odd…) and group-hover variants, and without arbitrary values, which
// the platform does not support either. It covers the utilities that
// documentation pages and their components use: layout, spacing,
// sizing, typography, the default colour palette with opacity
// modifiers, borders, rings, shadows, gradients, transforms, filters and
// transitions, and writes the base layer's variables when a rule reads
// one. A class that names a Tailwind utility it does not write is
// returned as such, for a warning. Its output is checked against
// Tailwind CSS itself (generate_test.go). It knows class names and CSS
// only.
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

// states are the pseudo-class variants, in the order Tailwind writes
// them (a later one wins among equals), with their selectors.
var states = []struct{ name, pseudo string }{
	{"first", ":first-child"}, {"last", ":last-child"}, {"only", ":only-child"},
	{"odd", ":nth-child(odd)"}, {"even", ":nth-child(even)"},
	{"open", "[open]"}, {"focus-within", ":focus-within"}, {"hover", ":hover"},
	{"focus", ":focus"}, {"focus-visible", ":focus-visible"}, {"active", ":active"}, {"disabled", ":disabled"},
}

// rule is the CSS of one class.
type rule struct {
	class    string
	media    int    // minimum width, 0 for none
	state    int    // 1 + index in states; 0 for none
	group    string // "hover" for group-hover: the state of a .group ancestor
	dark     bool
	suffix   string // after the class and its state: children, ::placeholder
	decls    []decl
	position int
}

// selector is the rule's selector.
func (r rule) selector() string {
	sel := "." + escape(r.class)
	if r.state > 0 {
		sel += states[r.state-1].pseudo
	}
	if r.dark {
		sel += `:where([data-theme="dark"], [data-theme="dark"] *)`
	}
	sel += r.suffix
	if r.group != "" {
		sel = ".group:" + r.group + " " + sel
	}
	return sel
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
	if readsDefaults(rules) {
		writeRule(&b, "*, ::before, ::after", defaults)
		writeRule(&b, "::backdrop", defaults)
	}
	for _, r := range rules {
		if r.media > 0 {
			b.WriteString("@media (min-width: " + strconv.Itoa(r.media) + "px){")
		}
		writeRule(&b, r.selector(), r.decls)
		if r.media > 0 {
			b.WriteByte('}')
		}
		b.WriteByte('\n')
	}
	sort.Strings(unsupported)
	return b.String(), unsupported
}

func writeRule(b *strings.Builder, selector string, decls []decl) {
	b.WriteString(selector + "{")
	for i, d := range decls {
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteString(d.prop + ":" + d.value)
	}
	b.WriteByte('}')
}

// readsDefaults is whether a rule reads a variable of the base layer
// without a fallback of its own.
func readsDefaults(rules []rule) bool {
	for _, r := range rules {
		for _, d := range r.decls {
			for rest := d.value; ; {
				i := strings.Index(rest, "var(--tw-")
				if i < 0 {
					break
				}
				rest = rest[i+len("var("):]
				name := rest[:strings.IndexAny(rest+")", ",)")]
				if !strings.HasPrefix(rest[len(name):], ",") && hasDefault(name) {
					return true
				}
			}
		}
	}
	return false
}

func hasDefault(name string) bool { return defaultNames[name] }

// defaultNames are the names of defaults, for readsDefaults.
var defaultNames = func() map[string]bool {
	m := make(map[string]bool, len(defaults))
	for _, d := range defaults {
		m[d.prop] = true
	}
	return m
}()

// rank orders variants as Tailwind does: plain, the element's states,
// a group's states, dark.
func rank(r rule) int {
	switch {
	case r.dark:
		return 2 * (len(states) + 1)
	case r.group != "":
		return len(states) + 1 + indexOfState(r.group)
	}
	return r.state
}

func indexOfState(name string) int {
	for i, s := range states {
		if s.name == name {
			return i + 1
		}
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
		case indexOfState(v) > 0 && r.state == 0 && r.group == "":
			r.state = indexOfState(v)
		case strings.HasPrefix(v, "group-") && (v == "group-hover" || v == "group-focus") && r.group == "" && r.state == 0:
			r.group = strings.TrimPrefix(v, "group-")
		default:
			// A variant this package does not write (peer-hover, print…):
			// reported when the utility is Tailwind's.
			d, _ := utility(base)
			return r, false, d != nil || looksLikeUtility(base)
		}
	}
	if strings.ContainsAny(base, "[]") {
		return r, false, looksLikeUtility(base) // arbitrary values: not on the platform either
	}
	r.decls, r.suffix = utility(base)
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
