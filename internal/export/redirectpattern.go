package export

import (
	"regexp"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
)

// A docs.json redirect whose source has wildcards (create/redirects.mdx):
// `:name` stands for one path segment, `:name*` for the rest of the path
// (none included), and a bare `*` for the rest of the path from where it
// stands, so "/articles/concepts-*" catches every page whose path starts
// so. The destination may name the same parameters ("/v2/:slug*",
// "/new/article-*"), which take what the source caught.
//
// A static bundle answers no request it has no file for, so a pattern
// works in two ways: a link of the site that a pattern catches goes to
// its destination (linker.resolve), and a redirect page is written for
// every page of the bundle that the destination names, at the path the
// source gives it ("/beta/:slug*" → "/v2/:slug*" writes beta/x.html for
// every page v2/x).
type redirectPattern struct {
	source, destination string
	src, dst            *pathPattern
}

// pathPattern is one side of a redirect: a regular expression over page
// keys (no leading slash) and the parameters it captures, in order.
type pathPattern struct {
	text  string
	re    *regexp.Regexp
	names []string // "slug" for :slug and :slug*, "*" for a bare *
}

// paramToken matches a parameter: `:name`, `:name*`, or a bare `*`.
var paramToken = regexp.MustCompile(`:([A-Za-z_][A-Za-z0-9_]*)(\*?)|\*`)

// compilePath reads one side of a redirect, its base path taken off.
func compilePath(p, base string) *pathPattern {
	key := strings.Trim(p, "/")
	if q, ok := unbased(key, base); ok {
		key = q
	}
	var re strings.Builder
	re.WriteString("^")
	pp := &pathPattern{text: key}
	last := 0
	for _, m := range paramToken.FindAllStringSubmatchIndex(key, -1) {
		lit := key[last:m[0]]
		last = m[1]
		switch {
		case key[m[0]] == '*':
			re.WriteString(regexp.QuoteMeta(lit) + "(.*)")
			pp.names = append(pp.names, "*")
		case m[5] > m[4]: // :name*, the rest of the path
			if strings.HasSuffix(lit, "/") {
				// "beta/:slug*" catches "beta" too.
				re.WriteString(regexp.QuoteMeta(strings.TrimSuffix(lit, "/")) + "(?:/(.*))?")
			} else {
				re.WriteString(regexp.QuoteMeta(lit) + "(.*)")
			}
			pp.names = append(pp.names, key[m[2]:m[3]])
		default: // :name, one segment
			re.WriteString(regexp.QuoteMeta(lit) + "([^/]+)")
			pp.names = append(pp.names, key[m[2]:m[3]])
		}
	}
	re.WriteString(regexp.QuoteMeta(key[last:]) + "$")
	pp.re = regexp.MustCompile(re.String())
	return pp
}

// fill writes the pattern with its parameters set from vals; false when
// it names one vals lacks.
func (pp *pathPattern) fill(vals map[string]string) (string, bool) {
	ok := true
	out := paramToken.ReplaceAllStringFunc(pp.text, func(tok string) string {
		name := strings.TrimSuffix(strings.TrimPrefix(tok, ":"), "*")
		if tok == "*" {
			name = "*"
		}
		v, found := vals[name]
		if !found {
			ok = false
		}
		return v
	})
	return strings.Trim(strings.ReplaceAll(out, "//", "/"), "/"), ok
}

// match returns the parameters pp catches in key.
func (pp *pathPattern) match(key string) (map[string]string, bool) {
	m := pp.re.FindStringSubmatch(key)
	if m == nil {
		return nil, false
	}
	vals := make(map[string]string, len(pp.names))
	for i, n := range pp.names {
		vals[n] = m[i+1]
	}
	return vals, true
}

// redirectPatterns reads the docs.json redirects whose source has
// wildcards, in order; warn reports one whose destination names a
// parameter its source does not catch.
func redirectPatterns(rs []docsjson.Redirect, base string, warn func(string, ...any)) []*redirectPattern {
	var out []*redirectPattern
	for _, r := range rs {
		if !strings.ContainsAny(r.Source, ":*") || r.Destination == "" {
			continue
		}
		rp := &redirectPattern{source: r.Source, destination: r.Destination, src: compilePath(r.Source, base)}
		if !hasScheme(r.Destination) {
			rp.dst = compilePath(strings.SplitN(strings.SplitN(r.Destination, "#", 2)[0], "?", 2)[0], base)
			caught := map[string]bool{}
			for _, n := range rp.src.names {
				caught[n] = true
			}
			for _, n := range rp.dst.names {
				if !caught[n] {
					warn("docs.json: redirect %q goes to %q, which names a parameter the source does not catch; skipped", r.Source, r.Destination)
					rp = nil
					break
				}
			}
		}
		if rp != nil {
			out = append(out, rp)
		}
	}
	return out
}

// destination is where the redirect sends key, false if it does not
// catch it: the destination as written, its parameters filled in.
func (rp *redirectPattern) destinationOf(key string) (string, bool) {
	vals, ok := rp.src.match(key)
	if !ok {
		return "", false
	}
	if rp.dst == nil {
		return rp.destination, true // an address elsewhere, as written
	}
	p, ok := rp.dst.fill(vals)
	if !ok {
		return "", false
	}
	rest := ""
	if i := strings.IndexAny(rp.destination, "?#"); i >= 0 {
		rest = rp.destination[i:]
	}
	return "/" + p + rest, true
}

// sourceOf is the path that redirects to page key, false when the
// destination does not name key or the source needs a parameter the
// destination does not give back.
func (rp *redirectPattern) sourceOf(key string) (string, bool) {
	if rp.dst == nil || len(rp.dst.names) == 0 {
		return "", false
	}
	vals, ok := rp.dst.match(key)
	if !ok {
		return "", false
	}
	src, ok := rp.src.fill(vals)
	if !ok || src == "" {
		return "", false
	}
	back, ok := rp.destinationOf(src)
	if i := strings.IndexAny(back, "?#"); i >= 0 {
		back = back[:i]
	}
	if !ok || strings.Trim(back, "/") != key {
		return "", false // the source would not catch its own path
	}
	return src, true
}
