package export

import (
	"bytes"
	"io/fs"
	"net/url"
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
	"github.com/yuin/goldmark"
)

// linker rewrites the links and asset references of page content so that
// every one is relative: the bundle must work under any sub-path and from
// file://. It also records which static files pages reference, so only
// those are copied.
type linker struct {
	src    fs.FS
	domain string
	// base is the path the live site is served under ("/docs"), or "":
	// authors write their own links with it, and those name what the same
	// links without it name.
	base     string
	exported map[string]*page
	all      map[string]string // every page key of the source -> file

	// warn reports references refused because they leave the source.
	warn func(format string, args ...any)
	// redirects maps the key of a docs.json redirect source (a plain
	// path) to its destination as written: a link to a moved page is
	// followed to where it went.
	redirects map[string]string
	// patterns are the docs.json redirects with wildcards, in order.
	patterns []*redirectPattern

	mu     sync.Mutex
	assets map[string]bool // source files referenced by pages
	broken map[string]bool // "page: target" references that resolve to nothing
	// noted, when set, is told of each asset and broken reference as it
	// is recorded, with the page (or "index", for docs.json) it is from.
	noted func(from string, ref linkRef)
}

// linkRef is what resolving one reference recorded: a file of the
// source the bundle must carry, or a reference to nothing ("page: ref").
type linkRef struct {
	Asset, Broken string
}

// add records r as if resolved again.
func (l *linker) add(r linkRef) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if r.Asset != "" {
		l.assets[r.Asset] = true
	}
	if r.Broken != "" {
		l.broken[r.Broken] = true
	}
}

func newLinker(src fs.FS, domain string, exported map[string]*page, all map[string]string) *linker {
	return &linker{src: src, domain: domain, exported: exported, all: all,
		assets: map[string]bool{}, broken: map[string]bool{}}
}

// target resolves a reference written in page from to a path inside the
// bundle (relative to its root), or to an absolute URL. ok is false when
// the reference is external or cannot be resolved and must stay as written.
func (l *linker) target(from, ref string) (markup.URL, bool) {
	return l.targetVia(from, from, ref, 0)
}

// maxRedirectHops bounds the redirects one link is followed through (a
// chain of moves, or a loop in docs.json).
const maxRedirectHops = 8

// targetVia is target, hops redirects in; what it records is noted as
// by's, the page whose link it follows.
func (l *linker) targetVia(by, from, ref string, hops int) (markup.URL, bool) {
	if ref == "" || ref[0] == '#' || strings.HasPrefix(ref, "//") || hasScheme(ref) {
		return markup.URL{}, false
	}
	rest := ""
	if i := strings.IndexAny(ref, "?#"); i >= 0 {
		ref, rest = ref[:i], ref[i:]
	}
	if u, err := url.PathUnescape(ref); err == nil {
		ref = u // "My%20Pic.png" names the file "My Pic.png"
	}
	var p string
	if strings.HasPrefix(ref, "/") {
		p = path.Clean(ref)
	} else {
		p = path.Clean("/" + path.Join(path.Dir(from), ref))
	}
	p = strings.TrimPrefix(p, "/")
	// A root-relative reference written with the base path names what it
	// names without it; when that is nothing, it is tried as written (a
	// folder of the source may have the base path's name).
	if q, ok := l.unbased(p); ok && strings.HasPrefix(ref, "/") {
		u, ok, err := l.resolve(by, q, rest, hops)
		if ok || l.outside(from, ref, err) {
			return u, ok
		}
	}
	u, ok, err := l.resolve(by, p, rest, hops)
	if ok || l.outside(from, ref, err) {
		return u, ok
	}
	l.mu.Lock()
	l.broken[from+": "+ref] = true
	l.mu.Unlock()
	if l.noted != nil {
		l.noted(by, linkRef{Broken: from + ": " + ref})
	}
	return markup.URL{}, false
}

// unbased returns p, a path from the site's root without its leading
// slash, without the base path, and whether p started with it.
func (l *linker) unbased(p string) (string, bool) { return unbased(p, l.base) }

func unbased(p, base string) (string, bool) {
	if base == "" {
		return p, false
	}
	b := base[1:]
	if p == b {
		return "", true
	}
	if q, ok := strings.CutPrefix(p, b+"/"); ok {
		return q, true
	}
	return p, false
}

// resolve finds p, a path from the source root, among the pages, the
// redirect sources and the files of the source; rest is the query or
// fragment to keep. err is the error of looking p up as a file.
func (l *linker) resolve(by, p, rest string, hops int) (markup.URL, bool, error) {
	if p == "" || p == "." {
		p = "index"
	}
	key := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(p, ".html"), ".mdx"), ".md")
	for _, k := range []string{key, key + "/index"} {
		if _, ok := l.exported[k]; ok {
			return markup.Path("", k+".html", rest), true, nil
		}
		if _, ok := l.all[k]; ok {
			// Left out by the request's paths: the live site still has it.
			return l.canonicalURL(k, rest), true, nil
		}
	}
	if dest, ok := l.redirects[key]; ok && hops < maxRedirectHops {
		if u, ok := l.follow(by, dest, rest, hops); ok {
			return u, true, nil
		}
	}
	st, err := fs.Stat(l.src, p)
	if err != nil && hops < maxRedirectHops {
		// Neither a page nor a file: a wildcard redirect may catch it.
		for _, rp := range l.patterns {
			if dest, ok := rp.destinationOf(key); ok {
				if u, ok := l.follow(by, dest, rest, hops); ok {
					return u, true, nil
				}
				break
			}
		}
	}
	if err == nil && st.Mode().IsRegular() {
		l.mu.Lock()
		l.assets[p] = true
		l.mu.Unlock()
		if l.noted != nil {
			l.noted(by, linkRef{Asset: p})
		}
		return markup.Path("", p, rest), true, nil
	}
	return markup.URL{}, false, err
}

// follow resolves the destination of a redirect, keeping the query or
// fragment of the link unless the destination has its own.
func (l *linker) follow(by, dest, rest string, hops int) (markup.URL, bool) {
	if i := strings.IndexAny(dest, "?#"); i >= 0 {
		rest = "" // the destination's own query or fragment wins
	}
	if hasScheme(dest) {
		u, err := markup.Parse(dest + rest)
		return u, err == nil
	}
	return l.targetVia(by, "index", "/"+strings.TrimPrefix(dest, "/")+rest, hops+1)
}

// outside reports, with a warning, a reference that err says leaves the
// docs source.
func (l *linker) outside(from, ref string, err error) bool {
	if !docsjson.IsOutside(err) || l.warn == nil {
		return false
	}
	l.warn("%s: %q is a link out of the docs source; refused and left as written", from, ref)
	return true
}

// hrefPath escapes a bundle path for use in a URL.
func hrefPath(p string) string { return (&url.URL{Path: p}).EscapedPath() }

// canonical is the extensionless public URL of a page.
func (l *linker) canonical(key string) string {
	if key == "index" {
		return "https://" + l.domain + hrefPath(l.base) + "/"
	}
	return "https://" + l.domain + hrefPath(l.base) + "/" + hrefPath(strings.TrimSuffix(key, "/index"))
}

// canonicalURL is canonical as a link, with rest (an escaped query or
// fragment) after it.
func (l *linker) canonicalURL(key, rest string) markup.URL {
	u, err := markup.Parse(l.canonical(key) + rest)
	if err != nil {
		return markup.URL{} // unreachable: the domain was checked when the export started
	}
	return u
}

// rewrite fixes every href and src attribute of rendered content of page
// from, whose root is reached through prefix ("../.." style). Code is
// safe: goldmark and chroma escape quotes, so `="` never occurs in it.
func (l *linker) rewrite(content []byte, from string, prefix markup.Prefix) []byte {
	var out []byte
	last := 0
	for i := 0; ; {
		j := bytes.Index(content[i:], []byte(`="`))
		if j < 0 {
			break
		}
		j += i
		i = j + 2
		attr := urlAttr(content[:j])
		if attr == "" {
			continue
		}
		end := bytes.IndexByte(content[i:], '"')
		if end < 0 {
			break
		}
		ref := strings.ReplaceAll(string(content[i:i+end]), "&amp;", "&")
		var repl string
		if attr == "srcset" {
			continue // candidates are resolved by the browser; remote ones by offlineHTML
		}
		t, ok := l.target(from, ref)
		if !ok {
			continue
		}
		repl = markup.Join(prefix, t).Attr()
		if out == nil {
			out = make([]byte, 0, len(content)+256)
		}
		out = append(out, content[last:i]...)
		out = append(out, repl...)
		last = i + end
		i = last
	}
	if out == nil {
		return content
	}
	return append(out, content[last:]...)
}

// urlAttr returns the name of the URL attribute (href, src, srcset or
// poster) ending b, or "".
func urlAttr(b []byte) string {
	for _, name := range []string{"href", "src", "srcset", "poster"} {
		n := len(name)
		if len(b) > n && bytes.EqualFold(b[len(b)-n:], []byte(name)) && isHTMLSpace(b[len(b)-n-1]) {
			if name == "poster" {
				return "src" // loads like a source
			}
			return name
		}
	}
	return ""
}

// hasScheme reports an absolute URL (one with a scheme), as browsers read it.
func hasScheme(s string) bool { return markup.Scheme(s) != "" }

func isHTMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// untrusted renders Markdown of docs.json and of specs as sanitized
// HTML, with links resolved like a page's. Its receiver is named j, as
// these methods were the pipeline's, so their bodies stay as they were.
type untrusted struct {
	md goldmark.Markdown
	// mdFor is the converter in the language of the page with key, whose
	// code blocks and headings carry that language's labels; nil is md.
	mdFor func(key string) goldmark.Markdown
	link  *linker
	warn  func(format string, args ...any)
}

// mdHTML renders Markdown that the repository's authors did not
// necessarily write (a spec's descriptions, the docs.json banner), with
// links made relative like any page content and the HTML sanitized:
// formatting survives, script and unsafe URLs do not.
func (j *untrusted) mdHTML(s, key string, prefix markup.Prefix) markup.HTML {
	return j.untrustedHTML(s, key, prefix, "")
}

// specHTML is mdHTML for the descriptions of a spec, shown on the page
// built from file: images come only from the bundle, and each one from
// elsewhere that is left out is named in a warning.
func (j *untrusted) specHTML(s, key string, prefix markup.Prefix, file string) markup.HTML {
	return j.untrustedHTML(s, key, prefix, file)
}

// remoteImage finds the address of an image from another server in
// rendered HTML.
var remoteImage = regexp.MustCompile(`(?i)<img[^>]*\ssrc="((?:https?:)?//[^"]*)"`)

// untrustedHTML renders s; a specFile other than "" is the spec's page,
// whose images must come from the bundle.
func (j *untrusted) untrustedHTML(s, key string, prefix markup.Prefix, specFile string) markup.HTML {
	if !strings.ContainsAny(s, "*_`[]<>#|\n&!~\\") && !strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "+") &&
		(len(s) == 0 || s[0] < '0' || s[0] > '9') {
		// Plain sentences, most descriptions, need no Markdown parser.
		return markup.Concat(markup.Const(`<p>`), markup.Text(strings.TrimSpace(s)), markup.Const(`</p>`))
	}
	var buf bytes.Buffer
	md := j.md
	if j.mdFor != nil {
		md = j.mdFor(key)
	}
	if _, err := mdx.ToHTML(md, []byte(s), &buf); err != nil {
		return markup.Concat(markup.Const(`<p>`), markup.Text(s), markup.Const(`</p>`))
	}
	out := string(j.link.rewrite(buf.Bytes(), key, prefix))
	if specFile == "" {
		return markup.Sanitized(out)
	}
	for _, m := range remoteImage.FindAllStringSubmatch(out, -1) {
		j.warn("%s: an image of a spec description comes from another server and is left out: %s", specFile, m[1])
	}
	return markup.SanitizedBundleImages(out)
}
