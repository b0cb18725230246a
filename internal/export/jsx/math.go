package jsx

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/thirdparty"

	"github.com/dop251/goja"
	"golang.org/x/net/html"
)

// Math in a page ($…$, $$…$$) is typeset at export time by KaTeX, the
// renderer the platform uses, pinned in internal/export/thirdparty. It
// runs in the evaluator process like a page's components, under the
// same bounds (memory, the page's time budget, the export's context),
// because the formula is the source's: KaTeX's macros can loop
// (\def\a{\a\a}) and its regular expressions see hostile text.
//
// It runs in a runtime of its own that no page's code ever reaches, and
// what it writes is checked against the markup KaTeX writes (texAllowed)
// before a page holds it.

// texOptions are KaTeX's: an error is an error (the page shows the
// formula as typed, with a warning), \href and \includegraphics and the
// like stay off (trust), expansion and sizes are bounded.
const texOptions = `{displayMode: display, throwOnError: true, trust: false, strict: "ignore",
	maxExpand: 1000, maxSize: 50, output: "htmlAndMathml"}`

var katexProgram = sync.OnceValues(func() (*goja.Program, error) {
	src, err := thirdparty.Files.ReadFile("katex/katex.min.js")
	if err != nil {
		return nil, err
	}
	return goja.Compile("katex.min.js", string(src), false)
})

// texRuntime is KaTeX loaded in a runtime of its own.
type texRuntime struct {
	vm     *goja.Runtime
	render goja.Callable
}

func newTexRuntime() (*texRuntime, error) {
	prog, err := katexProgram()
	if err != nil {
		return nil, fmt.Errorf("katex: %w", err)
	}
	vm := goja.New()
	vm.SetMaxCallStackSize(maxCallStack)
	if _, err := vm.RunProgram(prog); err != nil {
		return nil, fmt.Errorf("katex: %w", err)
	}
	f, err := vm.RunString(`(function (tex, display) { return katex.renderToString(tex, ` + texOptions + `); })`)
	if err != nil {
		return nil, fmt.Errorf("katex: %w", err)
	}
	render, ok := goja.AssertFunction(f)
	if !ok {
		return nil, errors.New("katex: no renderToString")
	}
	return &texRuntime{vm: vm, render: render}, nil
}

// math typesets one formula of the current page.
func (e *evaluator) math(tex string, display bool) *message {
	p := e.page
	if p == nil {
		return &message{Op: "error", Err: "no page to render"}
	}
	if p.spent {
		return &message{Op: "error", Kind: kindBudget}
	}
	if e.tex == nil {
		t, err := newTexRuntime()
		if err != nil {
			return &message{Op: "error", Err: err.Error()}
		}
		e.tex = t
	}
	vm := e.tex.vm
	timer := time.AfterFunc(p.budget, func() { vm.Interrupt(errBudget) })
	v, err := e.tex.render(goja.Undefined(), vm.ToValue(tex), vm.ToValue(display))
	timer.Stop()
	if err != nil {
		var intr *goja.InterruptedError
		if errors.As(err, &intr) {
			p.spent = true
			e.tex = nil // stopped midway: a fresh one for the next page
			return &message{Op: "error", Kind: kindBudget}
		}
		return &message{Op: "error", Err: strings.TrimPrefix(jsMessage(err), "ParseError: ")}
	}
	return &message{Op: "done", Tree: v.String()}
}

// Math typesets a formula of the page (tex, between its dollars) with
// KaTeX, as a display block or inline. An error says why it could not
// be; the caller shows the formula as typed.
func (p *Page) Math(tex string, display bool) (markup.HTML, error) {
	if err := p.ready(); err != nil {
		return markup.HTML{}, err
	}
	out, err := p.call(&message{Op: "math", Tex: tex, Display: display})
	if err != nil {
		return markup.HTML{}, err
	}
	if len(out) > maxOutput-p.written {
		return markup.HTML{}, errOutput
	}
	h, err := texAllowed(out)
	p.written += len(h.String())
	return h, err
}

// texElements and texAttributes are the markup KaTeX writes: its HTML
// (spans, and SVG for stretchy symbols) and its MathML.
var texElements = setOf("span", "math", "semantics", "annotation", "mrow", "mi", "mo", "mn", "ms", "mtext",
	"mspace", "msup", "msub", "msubsup", "mfrac", "msqrt", "mroot", "mover", "munder", "munderover",
	"mtable", "mtr", "mtd", "mlabeledtr", "mstyle", "mpadded", "mphantom", "menclose", "merror", "mglyph",
	"svg", "path", "line", "g", "br")

var texAttributes = setOf("class", "style", "aria-hidden", "xmlns", "display", "encoding", "width", "height",
	"viewbox", "viewBox", "preserveaspectratio", "preserveAspectRatio", "d", "x", "y", "x1", "x2", "y1", "y2",
	"stroke-width", "mathvariant", "mathcolor", "mathbackground", "stretchy", "fence", "separator", "lspace",
	"rspace", "columnalign", "rowalign", "rowspacing", "columnspacing", "columnlines", "rowlines", "frame",
	"scriptlevel", "displaystyle", "accent", "accentunder", "minsize", "maxsize", "linethickness", "depth",
	"voffset", "notation", "movablelimits", "symmetric", "largeop", "form", "side", "align")

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// errTexMarkup is KaTeX's output holding markup KaTeX does not write.
var errTexMarkup = errors.New("the typeset formula holds markup KaTeX does not write")

// texAllowed writes KaTeX's output again from its tokens, refusing any
// element or attribute KaTeX does not write and any style that could
// load something (url()).
func texAllowed(s string) (markup.HTML, error) {
	z := html.NewTokenizer(strings.NewReader(s))
	var b markup.Builder
	for {
		switch z.Next() {
		case html.ErrorToken:
			return b.Fragment(), nil
		case html.TextToken:
			b.Text(string(z.Text()))
		case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
			tok := z.Token()
			if !texElements[tok.Data] {
				return markup.HTML{}, fmt.Errorf("%w: <%s>", errTexMarkup, tok.Data)
			}
			if tok.Type == html.EndTagToken {
				b.HTML(markup.Rendered("</" + tok.Data + ">")) // a name from texElements
				continue
			}
			b.HTML(markup.Rendered("<" + tok.Data))
			for _, a := range tok.Attr {
				if !texAttributes[a.Key] || a.Namespace != "" || (a.Key == "style" && strings.ContainsAny(a.Val, `\(`)) {
					return markup.HTML{}, fmt.Errorf("%w: %s=%q on <%s>", errTexMarkup, a.Key, a.Val, tok.Data)
				}
				b.HTML(markup.Rendered(" " + a.Key + `="`)) // a name from texAttributes
				b.Text(a.Val)
				b.Markup(`"`)
			}
			if tok.Type == html.SelfClosingTagToken {
				b.Markup("/>")
			} else {
				b.Markup(">")
			}
		default:
			return markup.HTML{}, fmt.Errorf("%w: %q", errTexMarkup, z.Raw())
		}
	}
}
