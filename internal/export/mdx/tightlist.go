package mdx

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// A component written in a tight list item keeps the list tight in MDX:
//
//  1. Step one
//     <Tip>
//     A tip.
//     </Tip>
//  2. Step two
//
// The preprocessor writes the component's tags as blocks of their own,
// blank lines around them, and in CommonMark those blank lines make the
// list loose: every item's text would become a paragraph. So the
// preprocessor follows whether the author left a blank line in the list
// (followList), marks a list it writes a component into with tightMark
// while the author has left none, and with looseMark once they do. An
// element written in an item lies between inMark and outMark, so that its
// content, which keeps its paragraphs, is told from the item's own text.
// The unwrapper makes a list with a tight mark and no loose mark tight
// again and takes the marks out.
const (
	tightMark = "<!--mdx:tight-->"
	looseMark = "<!--mdx:loose-->"
	inMark    = "<!--mdx:in-->"
	outMark   = "<!--mdx:out-->"
)

// listState is what the preprocessor knows of the top-level list its
// lines are in.
type listState struct {
	blank  bool // the last line of the list was blank
	loose  bool // the author left a blank line between its blocks
	marked bool // tightMark has been written into it
	// inElement: an element inMark started is open.
	inElement bool
}

// noteListLine follows the author's blank lines in the list at a top-level
// line that is not blank; prev is the content column of the item before
// it (0 outside lists).
func (m *mdx) noteListLine(prev int) {
	switch {
	case prev == 0 || m.item == 0:
		m.list = listState{} // a new list, or none
	case m.list.blank && !m.list.loose:
		m.list.loose = true
		if m.list.marked {
			// Into the item that held the last lines: the list is loose
			// after all, as the author wrote it.
			m.out.WriteString(strings.Repeat(" ", prev) + looseMark + "\n\n")
		}
	}
	m.list.blank = false
}

// startInItem marks the start of an element written in a list item:
// the list, once, with tightMark unless the author has made it loose,
// and the element's start with inMark, so that its content is told from
// the item's own text.
func (m *mdx) startInItem() {
	if m.item == 0 || m.list.loose {
		return
	}
	if !m.list.marked {
		m.list.marked = true
		m.block(tightMark)
	}
	m.block(inMark)
	m.list.inElement = true
}

// endInItem marks the end of the element startInItem marked, once the
// line that closes it has been read.
func (m *mdx) endInItem() {
	if !m.list.inElement || len(m.stack) > 0 || m.pending != "" || m.pendingExpr {
		return
	}
	m.list.inElement = false
	m.block(outMark)
}

// followListInElement follows the author's blank lines in an element
// written in a list item: in MDX they make the list loose too.
func (m *mdx) followListInElement(trimmed string) {
	if m.item == 0 {
		return
	}
	if trimmed == "" {
		m.list.blank = true
		return
	}
	m.noteListLine(m.item)
}

// tightenLists makes the lists the preprocessor marked tight again:
// their items' paragraphs become bare text, as in a list the author wrote
// without blank lines. marks are the HTML blocks that hold a mark; each
// is taken out.
func tightenLists(marks []ast.Node, src []byte) {
	tight := map[*ast.List]bool{}
	loose := map[*ast.List]bool{}
	for _, mark := range marks {
		switch markText(mark, src) {
		case tightMark:
			if l := nearestList(mark); l != nil {
				tight[l] = true
			}
		case looseMark:
			if l := outermostList(mark); l != nil {
				loose[l] = true
			}
		}
	}
	for l := range tight {
		if loose[outermostList(l)] {
			continue
		}
		l.IsTight = true
		for item := l.FirstChild(); item != nil; item = item.NextSibling() {
			inElement := false
			for c := item.FirstChild(); c != nil; c = c.NextSibling() {
				switch {
				case markText(c, src) == inMark:
					inElement = true
				case markText(c, src) == outMark:
					inElement = false
				case !inElement:
					if p, ok := c.(*ast.Paragraph); ok {
						c = asTextBlock(p)
					}
				}
			}
		}
	}
	for _, mark := range marks {
		mark.Parent().RemoveChild(mark.Parent(), mark)
	}
}

// markText is the text of n when n is an HTML block of one line (how
// the preprocessor writes its marks), "" otherwise.
func markText(n ast.Node, src []byte) string {
	hb, ok := n.(*ast.HTMLBlock)
	if !ok || hb.Lines().Len() != 1 {
		return ""
	}
	line := hb.Lines().At(0)
	return string(bytes.TrimSpace(line.Value(src)))
}

// nearestList is the list whose item holds n, or nil.
func nearestList(n ast.Node) *ast.List {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if l, ok := p.(*ast.List); ok {
			return l
		}
	}
	return nil
}

// outermostList is the list at the top of the lists that hold n
// (n itself if it is one), or nil.
func outermostList(n ast.Node) *ast.List {
	var outer *ast.List
	for p := n; p != nil; p = p.Parent() {
		if l, ok := p.(*ast.List); ok {
			outer = l
		}
	}
	return outer
}

// asTextBlock puts a text block with p's lines and children in p's place
// and returns it.
func asTextBlock(p *ast.Paragraph) ast.Node {
	tb := ast.NewTextBlock()
	tb.SetLines(p.Lines())
	for c := p.FirstChild(); c != nil; {
		next := c.NextSibling()
		tb.AppendChild(tb, c)
		c = next
	}
	p.Parent().ReplaceChild(p.Parent(), p, tb)
	return tb
}
