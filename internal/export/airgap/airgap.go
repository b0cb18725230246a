package airgap

import (
	"bytes"
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

// loadingLinks are the rel values of <link> that fetch without a click.
var loadingLinks = []string{"stylesheet", "icon", "preload", "prefetch", "preconnect", "dns-prefetch", "modulepreload", "manifest", "prerender"}

// IsRemote reports whether ref, a URL as written, reaches outside the
// bundle: protocol-relative or with any scheme but data:.
func IsRemote(ref string) bool {
	ref = strings.TrimSpace(ref)
	return strings.HasPrefix(ref, "//") || markup.Scheme(ref) != "" && !strings.HasPrefix(strings.ToLower(ref), "data:")
}

// HTML returns content with remote embeds replaced by placeholders
// and remote CSS url()s removed, and the addresses it took out, in order.
// content is returned as is when nothing is remote.
func HTML(content []byte) ([]byte, []string) {
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
			if name := rawTagName(raw); embedKinds[name] == "" && name != "style" && !bytes.Contains(bytes.ToLower(raw), []byte("url(")) {
				continue // most tags: nothing to load, and parsing them would be the cost of the pass
			}
			tok := z.Token()
			urls, css := remoteRefs(&tok)
			if len(css) > 0 { // a style attribute lost a remote url()
				out = append(out[:mark], tok.String()...)
				removed = append(removed, css...)
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
					isJavaScript(attr(&tok, "type"))
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
				if css, urls := CSS(string(raw)); len(urls) > 0 {
					out = append(out[:mark], css...)
					removed = append(removed, urls...)
				}
			}
		}
	}
	if cont.name != "" && len(cont.urls) > 0 { // unclosed at the end
		out = append(out[:cont.start], placeholder(cont.name, cont.label, cont.urls)...)
		removed = append(removed, cont.urls...)
	}
	if len(removed) == 0 {
		return content, nil
	}
	return out, removed
}

// remoteRefs returns the remote addresses tok would load as an element,
// and strips remote url()s from its style attribute, returning those.
func remoteRefs(tok *html.Token) (urls, css []string) {
	kind := embedKinds[tok.Data]
	isLink := tok.Data == "link" && loadingLink(attr(tok, "rel"))
	for i, a := range tok.Attr {
		switch key := strings.ToLower(a.Key); {
		case key == "style":
			if v, u := CSS(a.Val); len(u) > 0 {
				tok.Attr[i].Val = v
				css = append(css, u...)
			}
		case kind == "":
		case key == "srcset":
			for _, c := range strings.Split(a.Val, ",") {
				if f := strings.Fields(c); len(f) > 0 && IsRemote(f[0]) {
					urls = append(urls, f[0])
				}
			}
		case key == "src" || key == "poster" || key == "data" && tok.Data == "object",
			(key == "href" || key == "xlink:href") && (isLink || tok.Data == "image" || tok.Data == "use" || tok.Data == "feimage"):
			if IsRemote(a.Val) {
				urls = append(urls, strings.TrimSpace(a.Val))
			}
		}
	}
	return urls, css
}

// rawTagName is the lower-case name of the tag whose markup is raw.
func rawTagName(raw []byte) string {
	name := raw[1:]
	if end := bytes.IndexAny(name, " \t\r\n\f/>"); end >= 0 {
		name = name[:end]
	}
	return strings.ToLower(string(name))
}

func isJavaScript(typ string) bool {
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

// CSS replaces each remote url() in css by `none` followed by a
// comment naming the address, and an @import of a remote stylesheet by a
// comment; `none` is valid wherever an image is and harmlessly invalid
// elsewhere (a font source), so nothing is fetched.
func CSS(css string) (string, []string) {
	lower := strings.ToLower(css)
	if !strings.Contains(lower, "url(") && !strings.Contains(lower, "@import") {
		return css, nil
	}
	var b strings.Builder
	var urls []string
	last := 0
	for i := 0; i < len(css); {
		switch {
		case strings.HasPrefix(lower[i:], "@import"):
			end := strings.IndexByte(css[i:], ';')
			if end < 0 {
				end = len(css) - i - 1
			}
			rule := css[i : i+end+1]
			ref := importTarget(rule[len("@import"):])
			if !IsRemote(ref) {
				i += end + 1
				continue
			}
			b.WriteString(css[last:i] + "/* remote stylesheet not included: " + cssComment(ref) + " */")
			urls = append(urls, ref)
			i += end + 1
			last = i
		case strings.HasPrefix(lower[i:], "url("):
			end := strings.IndexByte(css[i:], ')')
			if end < 0 {
				i = len(css)
				continue
			}
			ref := strings.Trim(strings.TrimSpace(css[i+4:i+end]), `"'`)
			if !IsRemote(ref) {
				i += end + 1
				continue
			}
			b.WriteString(css[last:i] + "none /* remote: " + cssComment(ref) + " */")
			urls = append(urls, ref)
			i += end + 1
			last = i
		default:
			i++
		}
	}
	if urls == nil {
		return css, nil
	}
	b.WriteString(css[last:])
	return b.String(), urls
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
