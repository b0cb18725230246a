package icons

import (
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// Library is an icon library the platform documents for icons.library.
type Library string

// The libraries, by their docs.json names.
const (
	FontAwesome Library = "fontawesome"
	Lucide      Library = "lucide"
	Tabler      Library = "tabler"
)

var libraryNames = map[Library]string{FontAwesome: "Font Awesome Free", Lucide: "Lucide", Tabler: "Tabler"}

// ParseLibrary reads icons.library; "" is Font Awesome, the platform's
// default. An unknown value is an error naming the choices, and Font
// Awesome, which the caller may go on with.
func ParseLibrary(s string) (Library, error) {
	l := Library(strings.ToLower(strings.TrimSpace(s)))
	if l == "" {
		return FontAwesome, nil
	}
	if _, ok := libraryNames[l]; !ok {
		return FontAwesome, fmt.Errorf("icons.library %q is none of fontawesome, lucide, tabler", s)
	}
	return l, nil
}

// Ref is an icon as a docs source names it.
type Ref struct {
	Name string
	// Type is Font Awesome's style (iconType, or "style" in docs.json);
	// "" draws the default. Tabler takes "filled" (or "solid").
	Type string
	// Library overrides the site's for this icon (docs.json's icon
	// object); "" uses the site's.
	Library string
}

// Image draws an icon given as an image at u, sized and aligned as an
// icon by name (class "i"); decorative, as the label beside it names it.
func Image(u markup.URL) markup.HTML {
	var b markup.Builder
	b.Markup(`<img class="i" src="`)
	b.URL(u)
	b.Markup(`" alt="">`)
	return b.Fragment()
}

// IsImage reports whether an icon value is an image rather than a name:
// a URL, a path, or a file name with an image extension. The platform
// draws those as images; names never hold a slash or a dot.
func IsImage(v string) bool {
	v = strings.TrimSpace(v)
	if strings.Contains(v, "/") || strings.Contains(v, ":") {
		return true
	}
	switch strings.ToLower(path.Ext(v)) {
	case ".svg", ".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".ico":
		return true
	}
	return false
}

// Set draws the icons of one export and remembers what it drew: the
// libraries (for their licences), the names it does not know and the
// styles it substituted (for warnings). It is safe for concurrent use.
type Set struct {
	lib Library

	mu      sync.Mutex
	cache   map[cacheKey]markup.HTML
	defs    map[string]markup.HTML // the shapes of each icon drawn, by id
	used    map[Library]bool
	unknown map[string]*places // "library\x00name" -> where it was used
	subst   map[string]*places // requested style -> the icons drawn in another
	errs    map[string]bool    // bad per-icon libraries, unreadable data

	// inline draws icons as inline SVG completed by Defs; otherwise
	// they are masks whose drawings CSS writes (mask.go).
	inline bool
	masks  map[string]maskSpec // the drawings drawn as masks, by id
}

type cacheKey struct {
	lib         Library
	style, name string
}

// places are up to maxPlaces descriptions of where something was used,
// and how many uses there were.
type places struct {
	list []string
	n    int
}

const maxPlaces = 5

func (p *places) add(where string) {
	p.n++
	for _, w := range p.list {
		if w == where {
			return
		}
	}
	if len(p.list) < maxPlaces {
		p.list = append(p.list, where)
	}
}

func (p *places) String() string {
	s := strings.Join(p.list, ", ")
	if more := p.n - len(p.list); more > 0 {
		s += " and " + strconv.Itoa(more) + " more"
	}
	return s
}

// NewSet returns the icons of an export whose icons.library is lib.
func NewSet(lib Library) *Set {
	return &Set{lib: lib, cache: map[cacheKey]markup.HTML{}, defs: map[string]markup.HTML{}, used: map[Library]bool{},
		unknown: map[string]*places{}, subst: map[string]*places{}, errs: map[string]bool{}, masks: map[string]maskSpec{}}
}

// NewInlineSet is NewSet for output that has no site stylesheet to hold
// the drawings: each icon is inline SVG, completed per page by Defs.
func NewInlineSet(lib Library) *Set {
	s := NewSet(lib)
	s.inline = true
	return s
}

// Draw returns the markup of r: a span masked by the drawing the site's
// stylesheet holds (CSS) or, for an inline Set, an SVG showing the shapes
// defined once in the page (Defs puts them there). It returns nothing
// when the library has no such icon: a dot would only hide the mistake,
// and the name is recorded with where for the warning. where says where
// the icon is used ("guide.mdx (Card)").
func (s *Set) Draw(r Ref, where string) markup.HTML {
	name := strings.ToLower(strings.TrimSpace(r.Name))
	if name == "" {
		return markup.HTML{}
	}
	lib := s.lib
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.Library != "" {
		l, err := ParseLibrary(r.Library)
		if err != nil {
			s.errs[fmt.Sprintf("%v (at %s); the site's library is used", err, where)] = true
		} else {
			lib = l
		}
	}
	d, err := load(lib)
	if err != nil {
		s.errs[err.Error()] = true
		return markup.HTML{}
	}
	if lib == FontAwesome {
		name = strings.TrimPrefix(name, "fa-")
	}
	want := strings.ToLower(strings.TrimSpace(r.Type))
	for _, st := range styleOrder(lib, want) {
		i, ok := d.Styles[st].Names[name]
		if !ok {
			continue
		}
		if lib == FontAwesome && want != "" && st != want {
			s.substituted(want, name)
		}
		s.used[lib] = true
		k := cacheKey{lib, st, name}
		h, ok := s.cache[k]
		if !ok {
			// One id per drawing: aliases ("home", "house") and styles
			// that share a drawing share its definition.
			id := "i:" + string(lib) + ":" + strconv.Itoa(i)
			if s.inline {
				h = svg(d.Styles[st].Paint, id, d.Icons[i])
				s.defs[id] = shapes(d.Icons[i])
			} else {
				h = maskUse(id)
				s.masks[id] = maskSpec{paint: d.Styles[st].Paint, d: d.Icons[i]}
			}
			s.cache[k] = h
		}
		return h
	}
	key := string(lib) + "\x00" + name
	if s.unknown[key] == nil {
		s.unknown[key] = &places{}
	}
	s.unknown[key].add(where)
	return markup.HTML{}
}

func (s *Set) substituted(want, name string) {
	if s.subst[want] == nil {
		s.subst[want] = &places{}
	}
	s.subst[want].add(name)
}

// freeStyles are Font Awesome Free's styles; the others are Pro's.
var freeStyles = map[string]bool{"solid": true, "regular": true, "brands": true}

// styleOrder is the styles of lib to look a name up in, best first.
// Without a style Font Awesome tries regular, the outline look, first;
// Free has few regular icons, so most come in solid. A Pro style is drawn in the free
// style closest to it: the outline styles (light, thin) in regular, the
// filled ones (duotone, sharp-solid) in solid. Brands are found whatever
// the style.
func styleOrder(lib Library, want string) []string {
	switch lib {
	case Lucide:
		return []string{""}
	case Tabler:
		if want == "filled" || want == "solid" {
			return []string{"filled", "outline"}
		}
		return []string{"outline", "filled"}
	}
	switch {
	case want == "solid", strings.Contains(want, "duotone"), want == "sharp-solid":
		return []string{"solid", "regular", "brands"}
	case want == "brands":
		return []string{"brands", "solid", "regular"}
	}
	return []string{"regular", "solid", "brands"}
}

// Warnings are what the docs author should know, each once: a name no
// library style holds (with where it was used), a Font Awesome style
// drawn in another, a bad library.
func (s *Set) Warnings() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for k, p := range s.unknown {
		lib, name, _ := strings.Cut(k, "\x00")
		pkg := ""
		if d, err := load(Library(lib)); err == nil {
			pkg = " (" + d.Package + ")"
		}
		out = append(out, fmt.Sprintf("icon %q is not in %s%s; drawn as nothing at %s", name, libraryNames[Library(lib)], pkg, p))
	}
	for want, p := range s.subst {
		why := "is a Font Awesome Pro style, which the export cannot ship"
		if freeStyles[want] {
			why = "has no free drawing of these icons"
		} else if !strings.HasPrefix(want, "sharp") && want != "light" && want != "thin" && !strings.Contains(want, "duotone") {
			why = "is not a Font Awesome style (solid, regular, brands; Pro: light, thin, duotone, sharp-*)"
		}
		drawn := styleOrder(FontAwesome, want)[0]
		if freeStyles[want] {
			drawn = "another free style"
		}
		n := strconv.Itoa(p.n) + " icons"
		if p.n == 1 {
			n = "1 icon"
		}
		out = append(out, fmt.Sprintf("iconType %q %s; %s drawn in %s instead: %s", want, why, n, drawn, p))
	}
	for e := range s.errs {
		out = append(out, e)
	}
	sort.Strings(out)
	return out
}

// Licenses are the licences of the libraries the set drew from, in
// library order; a bundle ships them with the icons.
func (s *Set) Licenses() ([]License, error) {
	s.mu.Lock()
	libs := make([]string, 0, len(s.used))
	for l := range s.used {
		libs = append(libs, string(l))
	}
	s.mu.Unlock()
	sort.Strings(libs)
	out := make([]License, 0, len(libs))
	for _, l := range libs {
		lic, err := license(Library(l))
		if err != nil {
			return nil, err
		}
		out = append(out, lic)
	}
	return out, nil
}
