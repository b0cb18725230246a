package markup

import (
	"regexp"
	"sync"

	"github.com/microcosm-cc/bluemonday"
)

// Sanitized is HTML written by someone other than the repository's authors
// (an OpenAPI description, a docs.json banner: a spec is often generated
// from code or fetched from elsewhere) reduced to what reads as formatted
// text: headings, paragraphs, emphasis, lists, tables, quotes, code, links
// with a safe scheme and images (from the bundle, or over http and https:
// an image runs nothing, and an air-gapped export replaces remote ones
// afterwards, with a warning). Scripts, event handlers, styles, forms,
// frames, embedded objects and every other URL scheme are removed,
// whatever the Markdown renderer let through.
//
// The work is done by bluemonday, an allowlist sanitizer built on the
// HTML5 tokenizer of golang.org/x/net/html: it parses as a browser does,
// which hand-written filters get wrong.
func Sanitized(untrusted string) HTML {
	return HTML{webImagesPolicy().Sanitize(untrusted)}
}

// SanitizedBundleImages is Sanitized that keeps only images from the
// bundle itself: for text from a spec, whose author may be anyone, an
// image from another server would tell that server who reads the docs.
func SanitizedBundleImages(untrusted string) HTML {
	return HTML{bundleImagesPolicy().Sanitize(untrusted)}
}

var (
	webImagesPolicy    = sync.OnceValue(func() *bluemonday.Policy { return textPolicy(imageRef) })
	bundleImagesPolicy = sync.OnceValue(func() *bluemonday.Policy { return textPolicy(bundleRef) })
)

// textPolicy is the allowlist of formatted text, with images whose source
// matches images.
func textPolicy(images *regexp.Regexp) *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowElements(
		"h1", "h2", "h3", "h4", "h5", "h6", "p", "br", "hr", "div", "span",
		"em", "strong", "b", "i", "u", "s", "del", "ins", "sub", "sup", "small", "mark", "abbr", "cite", "q",
		"code", "pre", "kbd", "samp", "var", "blockquote",
		"ul", "ol", "li", "dl", "dt", "dd", "details", "summary",
		"table", "thead", "tbody", "tfoot", "tr", "th", "td", "caption",
		"section",
	)
	// Class names style code (chroma) and admonitions; ids are heading and
	// footnote anchors. Neither can carry script.
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^[\w\- ]{1,200}$`)).Globally()
	p.AllowAttrs("id").Matching(regexp.MustCompile(`^[\p{L}\p{N}_\-:.]{1,200}$`)).Globally()
	p.AllowAttrs("title").Globally()
	p.AllowAttrs("start").Matching(bluemonday.Integer).OnElements("ol")
	p.AllowAttrs("align").Matching(regexp.MustCompile(`^(left|right|center)$`)).OnElements("th", "td")
	p.AllowStyles("text-align").MatchingEnum("left", "right", "center").OnElements("th", "td")
	p.AllowAttrs("colspan", "rowspan").Matching(bluemonday.Integer).OnElements("th", "td")
	p.AllowAttrs("open").OnElements("details")
	// GFM task lists render as disabled check boxes.
	p.AllowAttrs("type").Matching(regexp.MustCompile(`^checkbox$`)).OnElements("input")
	p.AllowAttrs("checked", "disabled").OnElements("input")
	p.AllowElements("input")

	// Links: relative references and the schemes markup.Parse allows.
	p.RequireParseableURLs(true)
	p.AllowRelativeURLs(true)
	p.AllowURLSchemes("http", "https", "mailto", "tel")
	p.AllowAttrs("href").OnElements("a")
	// Images from the bundle (a relative path) or from a web server; never
	// another scheme, a protocol-relative or backslashed host.
	p.AllowAttrs("src").Matching(images).OnElements("img")
	p.AllowAttrs("alt", "width", "height").OnElements("img")
	return p
}

// imageRef is an http or https URL, or a relative reference that stays
// on the bundle: no scheme (no colon before the first slash, question mark
// or hash), no leading slash or backslash (root- or protocol-relative,
// UNC).
var imageRef = regexp.MustCompile(`^(?i:https?://[^/\\]|[^/\\:?#][^:?#]*([?#].*)?$)`)

// bundleRef is the relative half of imageRef: a file of the bundle.
var bundleRef = regexp.MustCompile(`^[^/\\:?#][^:?#]*([?#].*)?$`)
