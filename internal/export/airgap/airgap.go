package airgap

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"golang.org/x/net/html"
)

// embedKinds names what the placeholder says an element was. Containers
// (video, audio, object, picture, iframe, script) are replaced whole,
// with their fallback content and <source> children, when anything in
// them is remote.
var embedKinds = map[string]string{
	"iframe": "Embedded page", "frame": "Embedded page", "video": "Video", "audio": "Audio",
	"embed": "Embedded content", "object": "Embedded content", "picture": "Image",
	"script": "Script", "link": "Linked resource", "img": "Image", "image": "Image",
	"source": "Media", "track": "Captions", "input": "Image", "use": "Graphic", "feimage": "Image",
}

// containers hold children that load too; they are judged as a whole.
var containers = map[string]bool{"iframe": true, "video": true, "audio": true, "object": true, "picture": true, "script": true}

// svgLoads are the SVG elements that load their href (or xlink:href)
// without a click; an SVG <script> runs it.
var svgLoads = map[string]bool{"image": true, "use": true, "feimage": true, "script": true}

// loadingLinks are the rel values of <link> that fetch without a click.
var loadingLinks = []string{"stylesheet", "icon", "preload", "prefetch", "preconnect", "dns-prefetch", "modulepreload", "manifest", "prerender"}

// HTML returns content with embeds that load from outside the bundle
// replaced by placeholders, remote CSS url()s removed, and the other ways
// a page reaches out without a click taken away: a meta refresh or a
// form target outside the bundle, <base>, and ping. It returns the
// addresses it took out, in order, and content as is when there were
// none. prefix leads from the page to the bundle root: a relative
// reference that climbs above it is outside (Outside), and a root-relative
// CSS url() is made relative to it, so it stays inside the bundle; base is
// the path the live site is served under ("/docs", or ""), taken off such
// a url() that starts with it.
func HTML(content []byte, prefix, base string) ([]byte, []string) {
	if !mayReachOut(content) {
		return content, nil // most pages: the tokeniser's pass would find nothing
	}
	return rewrite(content, prefix, base)
}

// rewrite is HTML's full pass over the tokens of content.
func rewrite(content []byte, prefix, base string) ([]byte, []string) {
	z := html.NewTokenizer(bytes.NewReader(content))
	out := make([]byte, 0, len(content)+256)
	var removed []string
	// The open container being judged: its name, nesting depth, where its
	// markup starts in out, and the remote addresses found inside it.
	var cont struct {
		name  string
		depth int
		start int
		urls  []string
		label string
		// inline is an inline script: removed without a placeholder,
		// since a reader has nothing to copy.
		inline bool
	}
	inStyle := false // the text token is the CSS of a <style> element
	// rewritten: something changed that took nothing out (a root-relative
	// url() made relative), so out is returned even with nothing removed.
	rewritten := false
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		raw := z.Raw()
		mark := len(out)
		if tt != html.TextToken {
			inStyle = false
		}
		out = append(out, raw...)
		switch tt {
		case html.StartTagToken, html.SelfClosingTagToken:
			name := rawTagName(raw)
			if embedKinds[name] == "" && name != "style" && !reachesOut(name, raw) {
				continue // most tags: nothing to load, and parsing them would be the cost of the pass
			}
			tok := z.Token()
			if gone, ok := dropped(&tok, prefix); ok {
				out = out[:mark]
				removed = append(removed, gone)
				continue
			}
			urls, gone, edited := remoteRefs(&tok, prefix, base)
			if edited { // a style lost a remote url(), or a target or ping went
				out = append(out[:mark], tok.String()...)
				removed = append(removed, gone...)
				rewritten = true
			}
			if cont.name != "" {
				cont.urls = append(cont.urls, urls...)
				if tok.Data == cont.name && tt == html.StartTagToken {
					cont.depth++
				}
				continue
			}
			if containers[tok.Data] && tt == html.StartTagToken {
				cont.name, cont.depth, cont.start, cont.urls, cont.label = tok.Data, 1, mark, urls, attr(&tok, "title")
				// An inline script would be refused by the page's CSP; data
				// blocks (JSON-LD and the like) do not run and may stay, and
				// a script the bundle ships (a local src) is allowed.
				cont.inline = tok.Data == "script" && attr(&tok, "src") == "" && len(urls) == 0 &&
					RunsAsScript(attr(&tok, "type"))
				continue
			}
			inStyle = tok.Data == "style" && tt == html.StartTagToken
			if len(urls) > 0 {
				out = append(out[:mark], placeholder(tok.Data, attr(&tok, "alt"), urls)...)
				removed = append(removed, urls...)
			}
		case html.EndTagToken:
			if cont.name == "" {
				continue
			}
			if name, _ := z.TagName(); string(name) == cont.name {
				if cont.depth--; cont.depth == 0 {
					switch {
					case len(cont.urls) > 0:
						out = append(out[:cont.start], placeholder(cont.name, cont.label, cont.urls)...)
						removed = append(removed, cont.urls...)
					case cont.inline:
						out = out[:cont.start]
						removed = append(removed, "an inline script")
					}
					cont.name = ""
				}
			}
		case html.TextToken:
			if inStyle {
				if css, urls := CSS(string(raw), prefix, base); css != string(raw) {
					out = append(out[:mark], css...)
					removed = append(removed, urls...)
					rewritten = true
				}
			}
		}
	}
	if cont.name != "" && len(cont.urls) > 0 { // unclosed at the end
		out = append(out[:cont.start], placeholder(cont.name, cont.label, cont.urls)...)
		removed = append(removed, cont.urls...)
	}
	if len(removed) == 0 && !rewritten {
		return content, nil
	}
	return out, removed
}

// reachesOut is the quick test for a tag other than an embed that may
// still make the browser go somewhere by itself: a style with url(), a
// ping, a form target, a meta refresh, <base>.
func reachesOut(name string, raw []byte) bool {
	if name == "base" || name == "meta" {
		return true
	}
	if bytes.ContainsAny(raw, `&\`) {
		return true // an entity or a CSS escape may spell url( in a style
	}
	lower := bytes.ToLower(raw)
	return bytes.Contains(lower, []byte("url(")) || bytes.Contains(lower, []byte("ping")) || bytes.Contains(lower, []byte("action"))
}

// dropped reports an element removed whole, with what it pointed at:
// <base> (it would move every relative reference of the page) and a meta
// refresh to a place outside the bundle, read from the page prefix leads
// from to the bundle root.
func dropped(tok *html.Token, prefix string) (string, bool) {
	switch tok.Data {
	case "base":
		return "<base href=" + attr(tok, "href") + ">", true
	case "meta":
		if !strings.EqualFold(strings.TrimSpace(attr(tok, "http-equiv")), "refresh") {
			return "", false
		}
		target, ok := RefreshTarget(attr(tok, "content"))
		if ok && target != "" && Outside(target, prefix) {
			return target, true
		}
	}
	return "", false
}

// remoteRefs returns the addresses outside the bundle that tok would load
// as an element. It also edits tok where an attribute goes rather than
// the element, and then reports edited: remote url()s leave its style
// (root-relative ones are made relative to prefix), a ping goes, a form
// target outside the bundle goes; those addresses are returned as gone.
func remoteRefs(tok *html.Token, prefix, base string) (urls, gone []string, edited bool) {
	kind := embedKinds[tok.Data]
	isLink := tok.Data == "link" && loadingLink(attr(tok, "rel"))
	kept := tok.Attr[:0]
	for _, a := range tok.Attr {
		switch key := strings.ToLower(a.Key); {
		case key == "ping":
			gone, edited = append(gone, "ping "+a.Val), true
			continue
		case (key == "action" || key == "formaction") && Outside(a.Val, prefix):
			gone, edited = append(gone, a.Val), true
			continue
		case key == "style":
			if v, u := CSS(a.Val, prefix, base); v != a.Val {
				a.Val, gone, edited = v, append(gone, u...), true
			}
		case key == "srcdoc" && tok.Data == "iframe":
			// The frame's document resolves against this page and is held
			// to its policy alone: it is taken out of as this page is.
			if v, u := HTML([]byte(a.Val), prefix, base); string(v) != a.Val {
				a.Val, gone, edited = string(v), append(gone, u...), true
			}
		}
		kept = append(kept, a)
	}
	tok.Attr = kept
	if kind == "" {
		return nil, gone, edited
	}
	for _, a := range tok.Attr {
		switch key := strings.ToLower(a.Key); {
		case key == "srcset" || key == "imagesrcset":
			for _, c := range strings.Split(a.Val, ",") {
				if f := strings.Fields(c); len(f) > 0 && Outside(f[0], prefix) {
					urls = append(urls, f[0])
				}
			}
		case key == "src" || key == "poster" || key == "data" && tok.Data == "object",
			(key == "href" || key == "xlink:href") && (isLink || svgLoads[tok.Data]):
			if Outside(a.Val, prefix) {
				urls = append(urls, strings.TrimSpace(a.Val))
			}
		}
	}
	return urls, gone, edited
}

// rawTagName is the lower-case name of the tag whose markup is raw.
func rawTagName(raw []byte) string {
	name := raw[1:]
	if end := bytes.IndexAny(name, " \t\r\n\f/>"); end >= 0 {
		name = name[:end]
	}
	return strings.ToLower(string(name))
}

// RunsAsScript reports a <script> type the browser executes; data blocks
// (JSON-LD and the like) do not run.
func RunsAsScript(typ string) bool {
	switch strings.ToLower(strings.TrimSpace(typ)) {
	case "", "module", "text/javascript", "application/javascript", "text/ecmascript", "application/ecmascript":
		return true
	}
	return false
}

func loadingLink(rel string) bool {
	for _, r := range strings.Fields(strings.ToLower(rel)) {
		for _, l := range loadingLinks {
			if r == l {
				return true
			}
		}
	}
	return false
}

func attr(tok *html.Token, name string) string {
	for _, a := range tok.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}

// placeholder is what a reader sees instead of a remote element: what it
// was, its title or alt text, and the address as selectable text. It is
// a <span> so that it is valid wherever the element stood, inside a
// paragraph too; the stylesheet makes it a block.
func placeholder(tag, label string, urls []string) string {
	var b markup.Builder
	b.Markup(`<span class="remote-embed" role="note"><span class="remote-embed-note">`)
	b.Text(embedKinds[tag])
	if label != "" {
		b.Markup(` “`)
		b.Text(label)
		b.Markup(`”`)
	}
	b.Markup(` not included in this offline copy; address:</span>`)
	seen := map[string]bool{}
	for _, u := range urls {
		if !seen[u] {
			seen[u] = true
			b.Markup(` <code class="remote-embed-url">`)
			b.Text(u)
			b.Markup(`</code>`)
		}
	}
	b.Markup(`</span>`)
	return b.String()
}

// CSS replaces each url() outside the bundle by `none` followed by a
// comment naming the address, and an @import of one by a comment; `none`
// is valid wherever an image is and harmlessly invalid elsewhere (a font
// source), so nothing is fetched. A root-relative address (/fonts/a.woff)
// is made relative to prefix, the way from the stylesheet to the bundle
// root, so it stays inside the bundle rather than reaching the root of
// the reader's disk; one starting with base, the path the live site is
// served under ("/docs", or ""), loses it first (/docs/fonts/a.woff is
// the bundle's fonts/a.woff).
func CSS(css, prefix, base string) (string, []string) {
	lower := asciiLower(css)
	if strings.Contains(css, `\`) {
		// u\72l( is url( to a browser: where escaped letters hide a url()
		// or an @import, the CSS is read with them unescaped. Otherwise it
		// stays as written, so the addresses named are as the author wrote
		// them.
		plain := unescapeLetters(css)
		lowerPlain := asciiLower(plain)
		if active(lowerPlain) > active(lower) {
			css, lower = plain, lowerPlain
		}
	}
	if !strings.Contains(lower, "url(") && !strings.Contains(lower, "@import") {
		return css, nil
	}
	var b strings.Builder
	var urls []string
	last := 0
	// replace puts text in place of css[from:to].
	replace := func(from, to int, text string) {
		b.WriteString(css[last:from])
		b.WriteString(text)
		last = to
	}
	for i := 0; i < len(css); {
		switch {
		case strings.HasPrefix(lower[i:], "@import"):
			end := strings.IndexByte(css[i:], ';')
			if end < 0 {
				end = len(css) - i - 1
			}
			rule := css[i : i+end+1]
			ref := importTarget(rule[len("@import"):])
			if local, ok := inBundle(ref, base); ok {
				replace(i, i+end+1, `@import url("`+cssString(prefix+local)+`");`)
			} else if Outside(ref, prefix) {
				replace(i, i+end+1, "/* remote stylesheet not included: "+cssComment(ref)+" */")
				urls = append(urls, ref)
			}
			i += end + 1
		case strings.HasPrefix(lower[i:], "url("):
			end := strings.IndexByte(css[i:], ')')
			if end < 0 {
				i = len(css)
				continue
			}
			ref := strings.Trim(strings.TrimSpace(css[i+4:i+end]), `"'`)
			if local, ok := inBundle(ref, base); ok {
				replace(i, i+end+1, `url("`+cssString(prefix+local)+`")`)
			} else if Outside(ref, prefix) {
				replace(i, i+end+1, "none /* remote: "+cssComment(ref)+" */")
				urls = append(urls, ref)
			}
			i += end + 1
		default:
			i++
		}
	}
	if last == 0 {
		return css, nil
	}
	b.WriteString(css[last:])
	return b.String(), urls
}

// inBundle is a root-relative ref as a path from the bundle root, when
// that path stays in the bundle: "/../../etc/x" reads as "/etc/x" on a
// web server, but made relative it would climb out of the bundle.
func inBundle(ref, base string) (string, bool) {
	if !rootRelative(ref) {
		return "", false
	}
	local := fromRoot(ref, base)
	return local, !Outside(local, "")
}

// unescapeLetters writes each CSS escape of an ASCII letter (\72 or \72
// followed by one white space, or \r) as the letter: the same CSS, in
// which a function or at-rule name can be found as written. Every other
// escape stays as it is.
func unescapeLetters(css string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(css); i++ {
		if css[i] != '\\' || i+1 == len(css) {
			continue
		}
		end := i + 1
		for end < len(css) && end-i <= 6 && isHex(css[end]) {
			end++
		}
		var c rune
		switch {
		case end > i+1: // hex digits, then one white space (CRLF counts once)
			v, _ := strconv.ParseUint(css[i+1:end], 16, 32)
			c = rune(v)
			if strings.HasPrefix(css[end:], "\r\n") {
				end += 2
			} else if end < len(css) && isSpace(css[end]) {
				end++
			}
		case css[i+1] == '\n' || css[i+1] == '\r' || css[i+1] == '\f':
			continue // a line continuation in a string, not an escape
		default:
			c, end = rune(css[i+1]), i+2
		}
		if c < 0x80 && ('a' <= c|0x20 && c|0x20 <= 'z') {
			b.WriteString(css[last:i])
			b.WriteRune(c)
			last = end
		}
		i = end - 1
	}
	if last == 0 {
		return css
	}
	b.WriteString(css[last:])
	return b.String()
}

// asciiLower is s with ASCII letters in lower case, byte for byte: CSS
// names are matched in ASCII case only, and an index into the result is
// one into s (strings.ToLower writes an invalid byte as three, and the
// indexes of CSS were past the end of css for such a stylesheet).
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// active counts the url( and @import of lower-cased CSS.
func active(lower string) int {
	return strings.Count(lower, "url(") + strings.Count(lower, "@import")
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f'
}

// fromRoot is root-relative ref as a path from the bundle root: without
// its leading slash, and without base when it starts with it.
func fromRoot(ref, base string) string {
	p := markup.BrowserRef(ref)[1:]
	if b := strings.TrimPrefix(base, "/"); b != "" {
		if q, ok := strings.CutPrefix(p, b+"/"); ok {
			return q
		}
	}
	return p
}

// rootRelative is a reference from the root of the site (/a/b), not a
// protocol-relative or backslashed host.
func rootRelative(ref string) bool {
	ref = markup.BrowserRef(ref)
	return strings.HasPrefix(ref, "/") && !strings.HasPrefix(ref, "//") && !strings.HasPrefix(ref, `/\`)
}

// cssString keeps an address inside the double-quoted CSS string it is
// written in.
func cssString(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", "", "\r", "", "\f", "").Replace(s)
}

// importTarget is the address of an @import rule's prelude: a string or a
// url().
func importTarget(prelude string) string {
	p := strings.TrimSpace(prelude)
	if len(p) > 4 && strings.EqualFold(p[:4], "url(") {
		if end := strings.IndexByte(p, ')'); end > 0 {
			return strings.Trim(strings.TrimSpace(p[4:end]), `"'`)
		}
	}
	if len(p) > 0 && (p[0] == '"' || p[0] == '\'') {
		if end := strings.IndexByte(p[1:], p[0]); end >= 0 {
			return p[1 : end+1]
		}
	}
	return ""
}

// cssComment keeps an address from ending the comment it is written in.
func cssComment(s string) string { return strings.ReplaceAll(s, "*/", "*\\/") }
