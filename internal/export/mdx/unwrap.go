package mdx

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// In MDX, a paragraph that holds nothing but one element is that element:
// `<Note>One line.</Note>` is a Note whose content is the text, with no
// paragraph between (the compiler "unravels" it). The preprocessor writes
// the element's content as a paragraph of its own, and marks it with
// unwrapMark on the line before; unwrapper, run on goldmark's tree, turns
// the marked paragraph into bare text and takes the mark out.

// unwrapMark is an HTML comment alone on its line: a block of its own in
// CommonMark, so the paragraph after it starts on the next line.
const unwrapMark = "<!--mdx:unwrap-->"

// unwrapNext marks the paragraph the next text line starts.
func (m *mdx) unwrapNext() {
	m.out.WriteString(m.blank() + m.prefix + unwrapMark + "\n")
}

type unwrapper struct{}

func (unwrapper) Transform(doc *ast.Document, r text.Reader, _ parser.Context) {
	src := r.Source()
	var marks, lists []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch markText(n, src) {
		case unwrapMark:
			marks = append(marks, n)
		case tightMark, looseMark, inMark, outMark:
			lists = append(lists, n)
		}
		return ast.WalkContinue, nil
	})
	for _, mark := range marks {
		parent := mark.Parent()
		if p, ok := mark.NextSibling().(*ast.Paragraph); ok {
			asTextBlock(p)
		}
		parent.RemoveChild(parent, mark)
	}
	tightenLists(lists, src)
}
