// Package markup is the one way the export writes HTML. Text is escaped
// unless its type says it is already safe (HTML), literal markup can only
// come from constants in the code (the unexported constant type accepts
// untyped string constants and nothing else), and every URL written into
// an attribute is a URL value made by this package: a relative reference
// or one of the schemes http, https, mailto and tel.
//
// It knows nothing of pages, docs sources or exports: it is the leaf every
// other export package writes through. Nothing outside it escapes HTML by
// hand.
package markup

import (
	"encoding/json"
	"html"
	"strings"
)

// constant is the type of literal markup. Outside this package only an
// untyped string constant converts to it implicitly; a string variable
// cannot, so text from a source can never reach the page unescaped by
// being passed where markup is expected.
type constant string

// HTML is a fragment that is safe to write as it is: built by a Builder,
// from constants, from escaped text, or from the output of a renderer
// that escapes by itself (Rendered).
type HTML struct{ s string }

// String returns the fragment's markup.
func (h HTML) String() string { return h.s }

// Empty reports whether the fragment writes nothing.
func (h HTML) Empty() bool { return h.s == "" }

// Const is literal markup written in the code.
func Const(c constant) HTML { return HTML{string(c)} }

// Text is s escaped for use as text or as a quoted attribute value.
func Text(s string) HTML { return HTML{html.EscapeString(s)} }

// Rendered marks the output of a renderer that escapes what it writes by
// itself: goldmark and chroma, JSON encoded with HTML escaping, and the
// raw HTML a repository's own MDX pages contain (their authors are
// trusted, as on the platform). Every call site says which of these it is.
func Rendered(s string) HTML { return HTML{s} }

// Concat joins fragments.
func Concat(parts ...HTML) HTML {
	var b Builder
	for _, p := range parts {
		b.HTML(p)
	}
	return b.Fragment()
}

// Escape is s escaped as text or a quoted attribute value. It exists for
// code that rewrites already rendered HTML in place (the link rewriter);
// everything else writes through a Builder.
func Escape(s string) string { return html.EscapeString(s) }

// Builder accumulates HTML. The zero value is ready to use.
type Builder struct{ b strings.Builder }

// Markup writes literal markup.
func (b *Builder) Markup(c constant) { b.b.WriteString(string(c)) }

// Text writes s escaped: as element text or inside a quoted attribute.
func (b *Builder) Text(s string) { b.b.WriteString(html.EscapeString(s)) }

// HTML writes a safe fragment.
func (b *Builder) HTML(h HTML) { b.b.WriteString(h.s) }

// URL writes a URL escaped for a quoted attribute value.
func (b *Builder) URL(u URL) { b.b.WriteString(html.EscapeString(u.s)) }

// Attr writes ` name="value"` with value escaped.
func (b *Builder) Attr(name constant, value string) {
	b.b.WriteString(" " + string(name) + `="`)
	b.b.WriteString(html.EscapeString(value))
	b.b.WriteByte('"')
}

// Len is the number of bytes written so far.
func (b *Builder) Len() int { return b.b.Len() }

// Grow reserves room for n more bytes.
func (b *Builder) Grow(n int) { b.b.Grow(n) }

// Reset empties the builder.
func (b *Builder) Reset() { b.b.Reset() }

// String returns the markup written so far.
func (b *Builder) String() string { return b.b.String() }

// Fragment returns what was written as a safe fragment.
func (b *Builder) Fragment() HTML { return HTML{b.b.String()} }

// JSON encodes v for a <script type="application/json"> element:
// json.Marshal escapes <, > and & as \u003c and so on, so nothing in v can
// close the element early or start a comment.
func JSON(v any) (HTML, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return HTML{}, err
	}
	return HTML{string(data)}, nil
}
