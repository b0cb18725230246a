package mdx

import (
	"strings"
)

// A <Tree> or <FileTree> may hold a Markdown list instead of Tree.Folder
// and Tree.File elements (components/tree.mdx):
//
//	<FileTree>
//
//	- docs/
//	  - index.mdx
//	- docs.config.ts
//
//	</FileTree>
//
// An item with a trailing slash or with items under it is a folder, open
// when it has items; the others are files; a name loses its inline
// formatting. The preprocessor collects the list's lines while the tree
// is open and writes them as the tree's folders and files when it
// closes. Any other line (an element, a paragraph) means the tree is not
// written that way: the lines collected are read again as they are.

// treeList is the list of a tree being collected.
type treeList struct {
	depth int        // len(m.stack) with the tree open
	lines []string   // as written, to read again
	items []treeItem // the list items so far
}

type treeItem struct {
	indent int
	name   string
}

// startTreeList starts collecting after a tree's opening tag.
func (m *mdx) startTreeList(name string) {
	if (name == "Tree" || name == "FileTree") && m.draw == nil {
		m.tree = &treeList{depth: len(m.stack)}
	}
}

// treeLine takes a line while a tree's list is collected and reports
// whether it did.
func (m *mdx) treeLine(line string) bool {
	tl := m.tree
	trimmed := strings.TrimSpace(line)
	switch {
	case trimmed == "":
		tl.lines = append(tl.lines, line)
		return true
	case len(m.stack) == tl.depth && (trimmed == "</Tree>" || trimmed == "</FileTree>") && len(tl.items) > 0:
		m.tree = nil
		m.block(m.treeHTML(tl.items))
		return false // the closing tag is read as usual
	}
	if col := listContent(line); col > 0 {
		marker := len(line) - len(strings.TrimLeft(line, " "))
		tl.lines = append(tl.lines, line)
		tl.items = append(tl.items, treeItem{indent: marker, name: plainName(line[col:])})
		return true
	}
	// Not a list: what was collected is read as written.
	m.tree = nil
	for _, l := range tl.lines {
		m.line(l)
	}
	return false
}

// treeHTML draws items, each item's children being the items after it
// that are indented more, as the platform's tree components.
func (m *mdx) treeHTML(items []treeItem) string {
	var b strings.Builder
	var walk func(lo, hi int)
	walk = func(lo, hi int) {
		for i := lo; i < hi; {
			end := i + 1
			for end < hi && items[end].indent > items[i].indent {
				end++
			}
			name := strings.TrimSuffix(items[i].name, "/")
			switch {
			case end > i+1:
				open, closing := m.component(jsxTag{name: "Tree.Folder", attrs: map[string]string{"name": name, "defaultOpen": "true"}})
				b.WriteString(open.String())
				walk(i+1, end)
				b.WriteString(closing.String())
			case strings.HasSuffix(items[i].name, "/"):
				open, closing := m.component(jsxTag{name: "Tree.Folder", attrs: map[string]string{"name": name}})
				b.WriteString(open.String() + closing.String())
			default:
				open, closing := m.component(jsxTag{name: "Tree.File", attrs: map[string]string{"name": name}})
				b.WriteString(open.String() + closing.String())
			}
			i = end
		}
	}
	walk(0, len(items))
	return b.String()
}

// plainName is a list item's text without its inline formatting: code
// spans' backticks, and the marks of strong and emphasis around it.
func plainName(s string) string {
	s = strings.ReplaceAll(strings.TrimSpace(s), "`", "")
	for _, mark := range []string{"**", "__", "*", "_"} {
		if len(s) > 2*len(mark) && strings.HasPrefix(s, mark) && strings.HasSuffix(s, mark) {
			s = s[len(mark) : len(s)-len(mark)]
		}
	}
	s = strings.ReplaceAll(s, "**", "")
	return strings.TrimSpace(s)
}
