package markup

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// URL is a reference that is safe to write into an href or src
// attribute: relative (a path, a query or a fragment) or absolute with
// one of the allowed schemes. Only this package makes one.
type URL struct{ s string }

// String returns the reference as written (not HTML-escaped).
func (u URL) String() string { return u.s }

// Empty reports the zero URL.
func (u URL) Empty() bool { return u.s == "" }

// allowedSchemes are the only schemes a generated page links to or loads
// from. Everything else (javascript:, data:, vbscript:, file:, custom
// app schemes) is refused: a docs source is untrusted input.
var allowedSchemes = map[string]bool{"http": true, "https": true, "mailto": true, "tel": true}

// ErrScheme is returned for a reference whose scheme is not allowed.
var ErrScheme = errors.New("only relative links and http, https, mailto and tel are allowed")

// BrowserRef is ref as a browser reads it before resolving it: leading
// and trailing spaces and control characters dropped, ASCII tab and
// newline removed anywhere. "java\tscript:" and " javascript:" are
// javascript: to a browser, and so to everything that reads BrowserRef.
func BrowserRef(ref string) string {
	ref = strings.TrimFunc(ref, func(r rune) bool { return r <= ' ' })
	if strings.ContainsAny(ref, "\t\n\r") {
		ref = dropTabsAndNewlines.Replace(ref)
	}
	return ref
}

var dropTabsAndNewlines = strings.NewReplacer("\t", "", "\n", "", "\r", "")

// Scheme returns the scheme of ref in lower case, "" when it has none,
// read as a browser reads it (BrowserRef).
func Scheme(ref string) string {
	ref = BrowserRef(ref)
	for i := 0; i < len(ref); i++ {
		c := ref[i]
		switch {
		case c == ':':
			if i == 0 {
				return ""
			}
			return strings.ToLower(ref[:i])
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return ""
		}
	}
	return ""
}

// Parse checks a reference taken from a source (docs.json, frontmatter,
// a component's attribute): a relative reference, or an absolute URL
// whose scheme is allowed. Anything else is an error the caller reports
// with the field it came from. A relative reference whose first segment
// holds a colon would read as a scheme, so it is never accepted as
// written: Path makes such paths safe.
func Parse(ref string) (URL, error) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return URL{}, errors.New("empty link")
	}
	if sch := Scheme(ref); sch != "" {
		if !allowedSchemes[sch] {
			return URL{}, fmt.Errorf("%q: %w", clip(ref), ErrScheme)
		}
		return URL{ref}, nil
	}
	if strings.ContainsAny(ref, "\x00\t\n\r") {
		return URL{}, fmt.Errorf("%q: a link may not hold control characters", clip(ref))
	}
	if strings.HasPrefix(ref, "\\\\") || strings.HasPrefix(ref, "/\\") || strings.HasPrefix(ref, "\\/") {
		// Browsers read backslashes as slashes: \\host is //host.
		return URL{}, fmt.Errorf("%q: a link may not start with backslashes", clip(ref))
	}
	return URL{ref}, nil
}

// MustParse is Parse for references written in the code.
func MustParse(ref constant) URL {
	u, err := Parse(string(ref))
	if err != nil {
		panic(err)
	}
	return u
}

// Prefix is the way from a bundle file up to the bundle root: "" for a
// file at the root, "../" for one a directory down, and so on.
type Prefix string

// RootPrefix is the prefix of the bundle file at out (a slash-separated
// path relative to the bundle root).
func RootPrefix(out string) Prefix {
	return Prefix(strings.Repeat("../", strings.Count(out, "/")))
}

// Path is the reference from a page under prefix to the bundle file p
// (slash-separated, relative to the bundle root, optionally followed by
// an already escaped "?query" or "#fragment" in rest). The path is
// percent-escaped; when nothing stands before a first segment that holds
// a colon ("v1:ratio.html"), "./" goes in front, so it never reads as a
// scheme.
func Path(prefix Prefix, p, rest string) URL {
	esc := (&url.URL{Path: p}).EscapedPath()
	if prefix == "" {
		first, _, _ := strings.Cut(esc, "/")
		if strings.Contains(first, ":") {
			esc = "./" + esc
		}
	}
	return URL{string(prefix) + esc + rest}
}

// Fragment is the reference "#id" to an element of the same page.
func Fragment(id string) URL { return URL{"#" + id} }

// Join puts a path under prefix in front of a URL that is relative
// (a bundle path from the link resolver); an absolute one stays as it is.
func Join(prefix Prefix, u URL) URL {
	if u.s == "" || Scheme(u.s) != "" || strings.HasPrefix(u.s, "#") || strings.HasPrefix(u.s, "/") {
		return u
	}
	if prefix != "" {
		// "./v1:ratio.html" needs its "./" only at the root.
		return URL{string(prefix) + strings.TrimPrefix(u.s, "./")}
	}
	if prefix == "" {
		first, _, _ := strings.Cut(u.s, "/")
		if strings.Contains(first, ":") {
			return URL{"./" + u.s}
		}
	}
	return URL{string(prefix) + u.s}
}

// Attr is u escaped for a quoted attribute value, for code that rewrites
// rendered HTML in place.
func (u URL) Attr() string { return Escape(u.s) }

// clip shortens what an error repeats of a hostile value.
func clip(s string) string {
	const most = 80
	if len(s) <= most {
		return s
	}
	return s[:most] + "…"
}
