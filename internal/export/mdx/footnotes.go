package mdx

import (
	"strconv"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// footnoteList writes a page's footnotes as remark-gfm, which the
// platform's MDX uses, does: a section labelled by a heading that only
// screen readers show, in place of goldmark's rule and list. The notes,
// their ids are goldmark's; a note's link back is written as
// remark-gfm writes it, after a space.
type footnoteList struct{}

func (footnoteList) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(east.KindFootnoteList, func(w util.BufWriter, _ []byte, _ ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			// The heading has no id, so the contents list leaves it out.
			_, _ = w.WriteString("<section class=\"footnotes\" role=\"doc-endnotes\" aria-label=\"Footnotes\">\n" +
				"<h2 class=\"sr-only\">Footnotes</h2>\n<ol>\n")
		} else {
			_, _ = w.WriteString("</ol>\n</section>\n")
		}
		return ast.WalkContinue, nil
	})
	reg.Register(east.KindFootnoteBacklink, func(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
		if n, ok := node.(*east.FootnoteBacklink); ok && entering {
			ref, index := "fnref", strconv.Itoa(n.Index)
			if n.RefIndex > 0 {
				ref += strconv.Itoa(n.RefIndex)
			}
			_, _ = w.WriteString(` <a href="#` + ref + ":" + index + `" class="footnote-backref" role="doc-backlink" aria-label="Back to reference ` + index + `">↩</a>`)
		}
		return ast.WalkContinue, nil
	})
}
