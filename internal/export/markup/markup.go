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
	"slices"
	"unsafe"
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
//
// Like strings.Builder, String and Fragment hand out what was written
// without copying it. Unlike it, a builder whose content was only read
// through Bytes keeps its buffer across Reset: a page pipeline that
// writes page after page into one builder allocates it once, not once a
// page (the pages of a 25,000-page site were an eighth of all the bytes
// an export allocated).
type Builder struct {
	b []byte
	// shared is set once String or Fragment has handed out the bytes
	// written so far; Reset must then leave them to their holder.
	shared bool
}

// Markup writes literal markup.
func (b *Builder) Markup(c constant) { b.b = append(b.b, c...) }

// Text writes s escaped: as element text or inside a quoted attribute.
func (b *Builder) Text(s string) { b.b = append(b.b, html.EscapeString(s)...) }

// HTML writes a safe fragment.
func (b *Builder) HTML(h HTML) { b.b = append(b.b, h.s...) }

// URL writes a URL escaped for a quoted attribute value.
func (b *Builder) URL(u URL) { b.b = append(b.b, html.EscapeString(u.s)...) }

// Attr writes ` name="value"` with value escaped.
func (b *Builder) Attr(name constant, value string) {
	b.b = append(b.b, ' ')
	b.b = append(b.b, name...)
	b.b = append(b.b, `="`...)
	b.b = append(b.b, html.EscapeString(value)...)
	b.b = append(b.b, '"')
}

// Len is the number of bytes written so far.
func (b *Builder) Len() int { return len(b.b) }

// Grow reserves room for n more bytes.
func (b *Builder) Grow(n int) { b.b = slices.Grow(b.b, n) }

// Reset empties the builder. It keeps its buffer for what is written
// next unless String or Fragment handed that buffer out.
func (b *Builder) Reset() {
	if b.shared {
		b.b, b.shared = nil, false
		return
	}
	b.b = b.b[:0]
}

// String returns the markup written so far.
func (b *Builder) String() string {
	b.shared = true
	// strings.Builder's own technique: the bytes before len(b.b) are
	// never written again (every write appends, and Reset drops a shared
	// buffer), so the string stays what it was.
	return unsafe.String(unsafe.SliceData(b.b), len(b.b)) //nolint:gosec // see above
}

// Fragment returns what was written as a safe fragment.
func (b *Builder) Fragment() HTML { return HTML{b.String()} }

// Bytes returns the markup written so far without handing it out: it is
// valid until the next write or Reset, and must not be changed.
func (b *Builder) Bytes() []byte { return b.b }

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
