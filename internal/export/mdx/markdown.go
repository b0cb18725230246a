package mdx

import (
	"bytes"
	"strings"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/components"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/highlight"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Heading is an entry of a page's table of contents.
type Heading struct {
	Level int
	ID    string
	Text  string
}

// Labels are the interface texts mdx writes into a page, in the page's
// language: a code block's copy button and a heading's link here, the
// rest in the platform's components. The type is the components
// package's, so that the facade fills one table for both.
type Labels = components.Labels

// EnglishLabels are the labels of an English page.
var EnglishLabels = components.EnglishLabels

// NewMarkdown builds the goldmark converter of English pages; see
// NewMarkdownIn.
func NewMarkdown() goldmark.Markdown { return NewMarkdownIn(EnglishLabels) }

// NewMarkdownIn builds the goldmark converter shared by all workers for
// the pages of one language (l); goldmark
// keeps per-document state in the parser context, so one instance is safe
// for concurrent use. As in MDX there is no indented code (parsing);
// the preprocessor also takes the indentation off a component's
// content, where MDX reads headings and lists at any depth. Heading ids are made by ToHTML, once a
// heading's inline content is parsed (goldmark's own would see only the
// raw line, markup and link addresses included).
func NewMarkdownIn(l Labels) goldmark.Markdown {
	return goldmark.New(append(parsing(),
		goldmark.WithRendererOptions(
			html.WithUnsafe(), // components are emitted as raw HTML
			renderer.WithNodeRenderers(util.Prioritized(&codeRenderer{labels: l}, 100)),
		),
		structure(),
	)...)
}

// structure is how the page's elements are written where that differs
// from goldmark's defaults (footnotes as MDX writes them), which the
// test against the reference compiler shares.
func structure() goldmark.Option {
	return goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(footnoteList{}, 100)))
}

// parsing returns the options that decide how a page's Markdown is
// parsed, apart from how it is written out.
func parsing() []goldmark.Option {
	// MDX has no indented code: indentation is how authors lay out
	// the content of components, and a page indented by four spaces is
	// prose. Code is fenced.
	// goldmark's own block parsers at their own priorities, the
	// indented code block's (500) left out.
	blocks := []util.PrioritizedValue{
		util.Prioritized(parser.NewSetextHeadingParser(), 100),
		util.Prioritized(parser.NewThematicBreakParser(), 200),
		util.Prioritized(parser.NewListParser(), 300),
		util.Prioritized(parser.NewListItemParser(), 400),
		util.Prioritized(parser.NewATXHeadingParser(), 600),
		util.Prioritized(parser.NewFencedCodeBlockParser(), 700),
		util.Prioritized(parser.NewBlockquoteParser(), 800),
		util.Prioritized(parser.NewHTMLBlockParser(), 900),
		util.Prioritized(indentedProse{parser.NewParagraphParser()}, 1000),
	}
	return []goldmark.Option{
		goldmark.WithParser(parser.NewParser(
			parser.WithBlockParsers(blocks...),
			parser.WithInlineParsers(parser.DefaultInlineParsers()...),
			parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
		)),
		goldmark.WithExtensions(extension.GFM, extension.Footnote),
		// `## Title {#my-id}` names the heading's id, as on the platform.
		goldmark.WithParserOptions(parser.WithHeadingAttribute(),
			parser.WithASTTransformers(util.Prioritized(unwrapper{}, 100))),
	}
}

// ToHTML converts preprocessed Markdown and returns the headings of
// levels 2 and 3 for the table of contents. Every heading gets its id
// from its text (headingIDs) and holds no block element (inlineHeading).
func ToHTML(md goldmark.Markdown, src []byte, w *bytes.Buffer) ([]Heading, error) {
	return ToHTMLWithin(md, src, w, nil)
}

// HighlightBudget is an export's budget of highlighting time
// (highlight.Budget), named here for the facade, which highlights nothing
// itself.
type HighlightBudget = highlight.Budget

// NewHighlightBudget returns a budget of d.
func NewHighlightBudget(d time.Duration) *HighlightBudget { return highlight.NewBudget(d) }

// highlightKey is the document metadata that carries the highlighting
// budget to codeRenderer, which goldmark shares between exports.
const highlightKey = "docsadmin.highlight"

// ToHTMLWithin is ToHTML with fenced code highlighted within hl, the
// export's budget (nil: none).
func ToHTMLWithin(md goldmark.Markdown, src []byte, w *bytes.Buffer, hl *highlight.Budget) ([]Heading, error) {
	doc := md.Parser().Parse(text.NewReader(src))
	if d, ok := doc.(*ast.Document); ok && hl != nil {
		d.AddMeta(highlightKey, hl)
	}
	ids := newHeadingIDs()
	var toc []Heading
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		h, ok := n.(*ast.Heading)
		if !ok {
			return ast.WalkContinue, nil
		}
		txt := headingText(h, src)
		var id string
		if custom, ok := h.AttributeString("id"); ok && len(asBytes(custom)) > 0 {
			// Named by the author: kept as written, and taken.
			id = string(asBytes(custom))
			ids.used[id] = true
		} else {
			id = ids.next(txt)
		}
		h.SetAttributeString("id", []byte(id))
		if h.Level >= 2 && h.Level <= 3 {
			toc = append(toc, Heading{Level: h.Level, ID: id, Text: txt})
		}
		inlineHeading(h, src)
		return ast.WalkSkipChildren, nil
	})
	if err != nil {
		return nil, err
	}
	return toc, md.Renderer().Render(w, src, doc)
}

// indentedProse is goldmark's paragraph parser, which also opens on a line
// indented by four spaces or more: without indented code, such a line is
// prose, as in MDX.
type indentedProse struct{ parser.BlockParser }

func (indentedProse) CanAcceptIndentedLine() bool { return true }

// codeRenderer highlights fenced code at export time (package highlight), so pages
// need no client-side highlighter, and gives headings anchor links. The info string is "lang title", as the
// platform writes code block titles.
type codeRenderer struct{ labels Labels }

func (r *codeRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, r.render)
	reg.Register(ast.KindHeading, r.renderHeading)
}

// renderHeading adds a visible anchor link to headings with an id, so a
// reader can copy a link to any section without script.
func (r *codeRenderer) renderHeading(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Heading)
	level := "0123456"[n.Level : n.Level+1]
	if entering {
		_, _ = w.WriteString("<h" + level)
		if n.Attributes() != nil {
			html.RenderAttributes(w, node, html.HeadingAttributeFilter)
		}
		_ = w.WriteByte('>')
		return ast.WalkContinue, nil
	}
	// An author's noAnchor turns the link off.
	if id, ok := n.AttributeString("id"); ok && !hasAttr(n, noAnchorAttr) {
		if b, ok := id.([]byte); ok {
			var a markup.Builder
			SectionAnchor(&a, string(b), r.labels)
			_, _ = w.WriteString(a.String())
		}
	}
	_, _ = w.WriteString("</h" + level + ">\n")
	return ast.WalkContinue, nil
}

func (r *codeRenderer) render(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	cb := n.(*ast.FencedCodeBlock)
	lang, title, info := "", "", ""
	if cb.Info != nil {
		info = string(cb.Info.Segment.Value(src))
		lang, title = codeInfo(info)
	}
	var code strings.Builder
	for i := 0; i < cb.Lines().Len(); i++ {
		seg := cb.Lines().At(i)
		code.Write(seg.Value(src))
	}
	if strings.EqualFold(lang, "mermaid") {
		writeDiagram(w, code.String(), info)
		return ast.WalkSkipChildren, nil
	}
	label := title
	if label == "" {
		label = lang
	}
	var head markup.Builder
	CodeHead(&head, label, r.labels)
	_, _ = w.WriteString(head.String())
	var hl *highlight.Budget
	if d := n.OwnerDocument(); d != nil {
		hl, _ = d.Meta()[highlightKey].(*highlight.Budget)
	}
	if err := hl.Write(w, lang, code.String()); err != nil {
		_, _ = w.WriteString(highlight.Plain(code.String()).String())
	}
	_, _ = w.WriteString("</div>\n")
	return ast.WalkSkipChildren, nil
}

// CodeHead opens a code block with its title bar and copy button; the
// caller closes the block's <div>. The button's text is l.Copy.
func CodeHead(b *markup.Builder, title string, l Labels) {
	b.Markup(`<div class="code-block"`)
	b.Attr("data-title", title)
	b.Markup(`><div class="code-head"><span class="code-title">`)
	b.Text(title)
	b.Markup(`</span><button class="copy" type="button">`)
	b.Text(l.Copy)
	b.Markup(`</button></div>`)
}

// SectionAnchor is the link icon of a heading: a link to its own id,
// named l.AnchorLink.
func SectionAnchor(b *markup.Builder, id string, l Labels) {
	b.Markup(`<a class="anchor" href="`)
	b.URL(markup.Fragment(id))
	b.Markup(`"`)
	b.Attr("aria-label", l.AnchorLink)
	b.Markup(`></a>`)
}

// codeInfo splits a fence's info string: "lang title words {1,3} lines"
// or "lang title=\"name\"". Line ranges and display flags are dropped,
// since they style the block rather than name it.
func codeInfo(info string) (lang, title string) {
	info = strings.TrimSpace(info)
	lang, rest, _ := strings.Cut(info, " ")
	if i := strings.Index(rest, `title="`); i >= 0 {
		if end := strings.IndexByte(rest[i+7:], '"'); end >= 0 {
			return lang, rest[i+7 : i+7+end]
		}
	}
	var words []string
	for _, f := range strings.Fields(rest) {
		if strings.HasPrefix(f, "{") || strings.Contains(f, "=") || f == "lines" || f == "wrap" || f == "expandable" {
			continue
		}
		words = append(words, f)
	}
	return lang, strings.Join(words, " ")
}

// asBytes is an attribute value goldmark parsed, as bytes.
func asBytes(v any) []byte {
	switch v := v.(type) {
	case []byte:
		return v
	case string:
		return []byte(v)
	}
	return nil
}

func hasAttr(n ast.Node, name string) bool {
	_, ok := n.AttributeString(name)
	return ok
}
