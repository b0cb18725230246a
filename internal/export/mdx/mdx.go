package mdx

import (
	"path"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/components"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// mdx turns MDX into the Markdown-with-HTML that goldmark understands:
// imports and exports go, comments go, components become HTML tags placed
// on lines of their own with blank lines around them, so that Markdown
// between them is still parsed as Markdown (CommonMark HTML blocks end at a
// blank line). Content nested in components is dedented, because MDX does
// not treat indentation as a code block while Markdown would.
type mdx struct {
	noMath   bool // docs.json styling.latex false: $ is text
	out      strings.Builder
	snippets map[string]string // component name -> snippet file
	props    map[string]string // attributes a snippet was called with
	load     func(file string) (string, error)
	depth    int // snippet nesting, bounded against import cycles
	stack    []openBlock
	tree     *treeList // a tree's Markdown list being collected (treelist.go)
	fence    codeFence
	comment  bool   // inside a {/* */} comment spanning lines
	skipping int    // open braces of a multi-line export, or -1 in an import
	pending  string // a tag split over several lines, being joined
	// pendingLines counts the lines joined into pending; pendingExpr is
	// set when pending is an expression, not a tag.
	pendingLines int
	pendingExpr  bool
	// inMath is set while a display formula ($$ on lines of its own) is
	// read into math (math.go).
	inMath bool
	math   []string
	// comp records the page's custom components (nil outside
	// PreprocessPage); names are the components this document's own
	// module binds, evaluated in comp's scope number scope.
	comp  *pageComponents
	names map[string]bool
	scope int // -1 until the document needs one (ensureScope)
	// file and esmSrc are the document's path and module statements,
	// for its scope.
	file, esmSrc string
	// lineNo is the line of the document being read, from 1; a page's
	// own count starts after its frontmatter.
	lineNo int
	// labels are the interface texts of the page's language; nil is
	// English.
	labels *Labels
	// heading is a heading element being read (headingtag.go).
	heading *headingElem
	// draw renders one of the platform's components; nil is
	// components.Render. The differential test (oracle_test.go) draws
	// each component as an element named after it instead.
	draw func(name string, attrs map[string]string, l *Labels) (open, closing markup.HTML)
	// item is the content column of the list item the last top-level
	// lines belong to, 0 outside lists; prefix is the indentation that
	// keeps the element being written inside that item (listitem.go).
	item   int
	prefix string
	// list is what is known of the author's blank lines in that list
	// (tightlist.go).
	list listState
}

// maxTagLines and maxTagBytes bound how much one component tag may span,
// so an unterminated tag costs a bounded rescan, not the rest of the page.
const (
	maxTagLines = 30
	maxTagBytes = 64 << 10
)

// maxNesting bounds how deep components nest; deeper tags stay text. Real
// pages nest a handful of levels, and the Markdown parser's cost grows
// with depth.
const maxNesting = 64

type openBlock struct {
	name   string
	close  string
	indent int // indentation of content lines, -1 until the first one
	// titleSize is a <Steps>' size of its steps' titles.
	titleSize string
}

// preprocess converts one MDX document. load reads snippet files; it may be
// nil when snippets are not available.
func preprocess(src string, load func(string) (string, error), props map[string]string) string {
	m := &mdx{snippets: map[string]string{}, props: props, load: load}
	return m.run(src)
}

func (m *mdx) run(src string) string {
	m.out.Grow(len(src) + len(src)/4)
	for line := range strings.Lines(src) {
		m.lineNo++
		m.line(strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r"))
		m.endInItem()
	}
	if tl := m.tree; tl != nil {
		m.tree = nil // a tree never closed: its lines are read as written
		for _, l := range tl.lines {
			m.line(l)
		}
	}
	if m.pending != "" {
		m.text(m.pending)
		m.pending, m.pendingExpr = "", false
	}
	if m.inMath {
		m.flushMath()
	}
	if m.heading != nil {
		m.writeHeading(m.heading) // never closed: what was read is its text
	}
	for i := len(m.stack) - 1; i >= 0; i-- {
		m.block(m.stack[i].close) // close what the author left open
	}
	return m.out.String()
}

func (m *mdx) line(line string) {
	if m.tree != nil && m.treeLine(line) {
		return
	}
	if m.pendingExpr {
		m.expressionLine(line)
		return
	}
	if m.inMath {
		m.mathBlockLine(m.dedent(line))
		return
	}
	if m.pending != "" {
		m.pending += "\n" + line
		m.pendingLines++
		// A tag that never closes must not swallow the page.
		if _, n, ok := parseTag(m.pending); ok || n == 0 || m.pendingLines > maxTagLines || len(m.pending) > maxTagBytes {
			l := m.pending
			m.pending = ""
			m.tagLine(l)
		}
		return
	}
	top := len(m.stack) == 0
	if !top && strings.HasPrefix(m.prefix, ">") {
		// Inside an element that a quote holds: the quote's marks come
		// off here and go back on as the element is written.
		line = strings.TrimPrefix(strings.TrimPrefix(strings.TrimLeft(line, " "), ">"), " ")
	}
	line = m.dedent(line)
	trimmed := strings.TrimSpace(line)
	if m.fence.inside() {
		m.fence.close(trimmed)
		m.raw(line)
		return
	}
	if line = m.stripComments(line); strings.TrimSpace(line) == "" && trimmed != "" {
		return
	}
	trimmed = strings.TrimSpace(line)
	if m.skipping != 0 || (len(m.stack) == 0 && isESM(trimmed)) {
		m.esm(trimmed)
		return
	}
	if m.fence.open(trimmed) {
		m.raw(line)
		return
	}
	if m.heading != nil {
		m.headingLine(trimmed)
		return
	}
	if m.startHeading(trimmed) || m.startMath(trimmed) {
		return
	}
	quoted := false
	if !top {
		m.followListInElement(trimmed)
	} else {
		m.prefix = ""
		m.followList(line)
		if rest, ok := quotedElement(trimmed); ok {
			// > <Note>Quoted.</Note>
			m.prefix, line, trimmed, quoted = "> ", rest, rest, true
		}
	}
	if trimmed == "<>" || trimmed == "</>" {
		m.fragment(trimmed == "</>")
		return
	}
	if isComponentStart(trimmed) || isHTMLStart(trimmed) {
		if top && !quoted {
			m.prefix = m.listPrefix(line)
			if m.prefix != "" {
				m.startInItem()
			}
		}
		if _, n, ok := parseTag(trimmed); !ok && n < 0 {
			m.pending, m.pendingLines = trimmed, 1
			return
		}
		m.tagLine(trimmed)
		return
	}
	// Content ending with the close of the open component: "text</Note>".
	if n := len(m.stack); n > 0 && strings.HasSuffix(trimmed, "</"+m.stack[n-1].name+">") {
		name := m.stack[n-1].name
		m.text(strings.TrimSuffix(strings.TrimRight(line, " \t"), "</"+name+">"))
		m.blockTag(jsxTag{name: name, closing: true})
		return
	}
	if isExpression(trimmed) {
		// An expression alone is a block of its own, not a paragraph.
		m.unwrapNext()
	} else if m.comp != nil && strings.HasPrefix(trimmed, "{") && matchBrace(trimmed, 0) < 0 {
		// An expression that goes on over lines: read to its end.
		m.pending, m.pendingLines, m.pendingExpr = line, 1, true
		return
	}
	m.text(line)
}

// expressionLine reads a line of an expression that started on an
// earlier line. Once it closes it is written as one block; one that
// does not close within the bounds of a tag is written as the lines it
// was.
func (m *mdx) expressionLine(line string) {
	m.pending += "\n" + line
	m.pendingLines++
	if end := matchBrace(m.pending, strings.IndexByte(m.pending, '{')); end >= 0 {
		expr := m.pending
		m.pending, m.pendingExpr = "", false
		if strings.TrimSpace(expr[end+1:]) == "" {
			m.unwrapNext()
		}
		m.text(expr)
		return
	}
	if m.pendingLines > maxTagLines || len(m.pending) > maxTagBytes {
		lines := m.pending
		m.pending, m.pendingExpr = "", false
		for l := range strings.Lines(lines) {
			m.text(strings.TrimSuffix(l, "\n"))
		}
	}
}

// isExpression reports whether s is one braced JavaScript expression.
func isExpression(s string) bool {
	return strings.HasPrefix(s, "{") && matchBrace(s, 0) == len(s)-1
}

// fragment opens or closes <>…</>, an element that draws nothing.
func (m *mdx) fragment(closing bool) {
	if closing {
		for i := len(m.stack) - 1; i >= 0; i-- {
			if m.stack[i].name == "" {
				m.blockTag(jsxTag{closing: true})
				return
			}
		}
		return
	}
	if len(m.stack) < maxNesting {
		m.out.WriteString("\n")
		m.stack = append(m.stack, openBlock{indent: -1})
	}
}

// dedent removes the indentation of content inside components, measured
// on the first content line of the innermost one.
func (m *mdx) dedent(line string) string {
	if len(m.stack) == 0 {
		return line
	}
	top := &m.stack[len(m.stack)-1]
	ws := len(line) - len(strings.TrimLeft(line, " \t"))
	if ws == len(line) {
		return ""
	}
	if top.indent < 0 {
		if !m.fence.inside() && isComponentStart(line[ws:]) {
			return line[ws:]
		}
		top.indent = ws
	}
	return line[min(ws, top.indent):]
}

// stripComments removes {/* ... */}, which may span lines.
func (m *mdx) stripComments(line string) string {
	var b strings.Builder
	for {
		if m.comment {
			end := strings.Index(line, "*/}")
			if end < 0 {
				return b.String()
			}
			m.comment = false
			line = line[end+3:]
		}
		start := indexOutsideCode(line, "{/*")
		if start < 0 {
			if b.Len() == 0 {
				return line
			}
			b.WriteString(line)
			return b.String()
		}
		b.WriteString(line[:start])
		line = line[start+3:]
		m.comment = true
	}
}

// isESM reports whether a top-level line starts an import or export
// statement; prose that merely begins with "import" or "export" stays.
func isESM(l string) bool {
	if rest, ok := strings.CutPrefix(l, "import "); ok {
		rest = strings.TrimSpace(rest)
		return strings.Contains(rest, " from ") || strings.HasPrefix(rest, "{") || strings.HasPrefix(rest, "*") ||
			strings.HasPrefix(rest, "'") || strings.HasPrefix(rest, `"`)
	}
	if rest, ok := strings.CutPrefix(l, "export "); ok {
		rest = strings.TrimSpace(rest)
		for _, kw := range []string{"const ", "let ", "var ", "function ", "async ", "default ", "class ", "{", "*"} {
			if strings.HasPrefix(rest, kw) {
				return true
			}
		}
	}
	return false
}

// esm drops import and export statements, remembering snippet imports so
// that their components can be inlined.
func (m *mdx) esm(line string) {
	if m.skipping == 0 && strings.HasPrefix(line, "import ") {
		m.importLine(line)
		if !strings.Contains(line, " from ") && !strings.HasSuffix(line, ";") && !strings.HasPrefix(line, "import '") && !strings.HasPrefix(line, "import \"") {
			m.skipping = -1
		}
		return
	}
	if m.skipping < 0 {
		if strings.Contains(line, " from ") || strings.HasPrefix(line, "}") {
			m.skipping = 0
		}
		return
	}
	m.skipping += strings.Count(line, "{") + strings.Count(line, "(") + strings.Count(line, "[") -
		strings.Count(line, "}") - strings.Count(line, ")") - strings.Count(line, "]")
	if m.skipping < 0 {
		m.skipping = 0
	}
}

func (m *mdx) importLine(line string) {
	rest := strings.TrimSpace(strings.TrimPrefix(line, "import "))
	from := strings.LastIndex(rest, " from ")
	if from < 0 {
		return
	}
	name := strings.TrimSpace(rest[:from])
	spec := strings.Trim(strings.TrimSpace(rest[from+6:]), "'\";")
	if strings.ContainsAny(name, "{},* ") || !strings.Contains(spec, "snippets/") {
		return // named or namespace imports of JSX snippets cannot run here
	}
	ext := path.Ext(spec)
	if ext != ".mdx" && ext != ".md" {
		return
	}
	file := path.Clean("/" + spec)[1:]
	if i := strings.Index(file, "snippets/"); i > 0 {
		file = file[i:]
	}
	m.snippets[name] = file
}

// tagLine handles a line that starts with a component tag.
func (m *mdx) tagLine(line string) {
	t, n, ok := parseTag(line)
	if !ok {
		m.text(line)
		return
	}
	if !isComponentStart(line) {
		m.htmlLine(t, line, n)
		return
	}
	rest := strings.TrimSpace(line[n:])
	switch {
	case rest == "":
		m.blockTag(t)
	case !t.closing && !t.selfClosing && strings.HasSuffix(rest, "</"+t.name+">") && onlyElement(t.name, rest):
		// <Note>One line of content</Note>: a paragraph that is only the
		// element is the element, its content phrasing (unwrap.go).
		m.blockTag(t)
		m.unwrapNext()
		m.text(strings.TrimSuffix(rest, "</"+t.name+">"))
		m.blockTag(jsxTag{name: t.name, closing: true})
	case !t.closing && !t.selfClosing && isBlockComponent(t.name) && !onlyElements(line):
		// <Note>Text that goes on
		// over lines</Note>
		m.blockTag(t)
		m.unwrapNext()
		m.text(rest)
	default:
		if onlyElements(line) {
			m.unwrapNext()
		}
		m.text(line)
	}
}

// isBlockComponent reports components that hold blocks of content; used
// to decide how to read an opening tag followed by text on its line.
func isBlockComponent(name string) bool {
	switch name {
	case "Icon", "Badge", "Tooltip", "Tree.File":
		return false
	}
	return true
}

func (m *mdx) blockTag(t jsxTag) {
	if t.closing {
		for i := len(m.stack) - 1; i >= 0; i-- {
			if m.stack[i].name == t.name {
				for j := len(m.stack) - 1; j >= i; j-- {
					m.block(m.stack[j].close)
				}
				m.stack = m.stack[:i]
				return
			}
		}
		return // a stray closing tag renders nothing
	}
	if file, ok := m.snippets[t.name]; ok {
		m.snippet(file, t)
		return
	}
	if len(m.stack) >= maxNesting && !t.selfClosing {
		return // deeper nesting renders its content without the frame
	}
	if (m.names[t.name] || m.evaluatedBuiltin(&t)) && m.customTag(&t) {
		return
	}
	m.noteUnknown(t.name)
	openHTML, closeHTML := m.component(t)
	m.block(openHTML.String())
	if t.selfClosing {
		m.block(closeHTML.String())
		return
	}
	m.stack = append(m.stack, openBlock{name: t.name, close: closeHTML.String(), indent: -1, titleSize: t.attrs["titleSize"]})
	m.startTreeList(t.name)
}

// component renders the HTML around one of the platform's components.
func (m *mdx) component(t jsxTag) (open, closing markup.HTML) {
	if v, ok := t.attrs["className"]; ok {
		m.noteClasses(`"` + v + `"`)
	}
	if m.draw != nil {
		return m.draw(t.name, t.attrs, m.labels)
	}
	if m.comp != nil { // the props it does not draw are warnings (Expand)
		m.comp.props = append(m.comp.props, components.Unrendered(t.name, t.attrs, m.file, m.lineNo)...)
	}
	// What the platform gives a component the author did not write.
	m.inheritTitleSize(&t)
	m.componentID(&t)
	m.noteTOCEntry(&t)
	return components.Render(t.name, t.attrs, m.labels)
}

// inheritTitleSize gives a step the title size of the <Steps> it is in
// when it names none: the title's element decides whether the step is
// in the table of contents.
func (m *mdx) inheritTitleSize(t *jsxTag) {
	if t.name != "Step" || t.attrs["titleSize"] != "" {
		return
	}
	for i := len(m.stack) - 1; i >= 0; i-- {
		if m.stack[i].name == "Steps" {
			if size := m.stack[i].titleSize; size != "" {
				if t.attrs == nil {
					t.attrs = map[string]string{}
				}
				t.attrs["titleSize"] = size
			}
			return
		}
	}
}

// componentID gives a step or an accordion written without an id one
// made from its title, and an update one made from its label, as the
// platform does, so that every one can be linked to; WithComponentHeadings numbers it apart from the page's
// other ids.
func (m *mdx) componentID(t *jsxTag) {
	from := "title"
	switch t.name {
	case "Step", "Accordion":
	case "Update":
		from = "label" // its anchor, by the heading rules (components/update.mdx)
	default:
		return
	}
	if strings.TrimSpace(t.attrs["id"]) != "" {
		return
	}
	id := HeadingSlug(t.attrs[from])
	if id == "" {
		return
	}
	if t.attrs == nil {
		t.attrs = map[string]string{}
	}
	t.attrs["id"] = id
	if m.comp != nil {
		m.comp.autoIDs = append(m.comp.autoIDs, id)
	}
}

// noteTOCEntry records a component that draws an entry of the contents
// list: an update, or a step whose title is a heading.
func (m *mdx) noteTOCEntry(t *jsxTag) {
	if m.comp == nil {
		return
	}
	size := t.attrs["titleSize"]
	if t.name == "Update" || t.name == "Step" && t.attrs["title"] != "" && (size == "h2" || size == "h3") {
		m.comp.tocEntries = true
	}
}

// snippet inlines an imported snippet, converted with the tag's attributes
// as its props.
func (m *mdx) snippet(file string, t jsxTag) {
	if m.load == nil || m.depth >= 8 {
		return
	}
	src, err := m.load(file)
	if err != nil {
		m.block(markup.Concat(markup.Const("<!-- snippet "), markup.Text(file), markup.Const(" not found -->")).String())
		return
	}
	_, body := SplitFrontmatter([]byte(src))
	m.block(m.nested(file, string(body), t.attrs))
}

func (m *mdx) block(html string) {
	if html == "" {
		return
	}
	m.out.WriteString(m.blank())
	if m.prefix != "" {
		html = m.prefix + strings.ReplaceAll(html, "\n", "\n"+m.prefix)
	}
	m.out.WriteString(html)
	m.out.WriteString("\n" + m.blank())
}

// blank is an empty line where the element being written is: in a
// quote it keeps the quote's mark, or the quote would end there.
func (m *mdx) blank() string {
	if strings.HasPrefix(m.prefix, ">") {
		return ">\n"
	}
	return "\n"
}

// quotedElement returns the rest of a quote's line that starts with an
// element.
func quotedElement(trimmed string) (string, bool) {
	rest, ok := strings.CutPrefix(trimmed, ">")
	rest = strings.TrimLeft(rest, " ")
	return rest, ok && (isComponentStart(rest) || isHTMLStart(rest))
}

func (m *mdx) raw(line string) {
	switch {
	case m.prefix == "" || len(m.stack) == 0:
	case line != "":
		m.out.WriteString(m.prefix)
	default:
		m.out.WriteString(strings.TrimSuffix(m.blank(), "\n"))
	}
	m.out.WriteString(line)
	m.out.WriteByte('\n')
}

// text writes a Markdown line, rewriting inline components (outside code
// spans) and snippet props written as {name}.
func (m *mdx) text(line string) {
	if !strings.ContainsAny(line, "<{$") {
		m.raw(line)
		return
	}
	var b strings.Builder
	var closes []string
	inCode := false
	unclosed := false
	nextClose := -1 // index of the next '}' at or after i, or len(line)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '`':
			inCode = !inCode
		case inCode:
		case c == '<' && isComponentStart(line[i:]):
			t, n, ok, stop := scanTag(line[i:])
			if !ok {
				// What the broken tag spans stays text, unscanned again.
				b.WriteString(line[i : i+stop])
				i += stop - 1
				continue
			}
			i += n - 1
			b.WriteString(m.inlineTag(t, &closes))
			continue
		case c == '{' && (strings.HasPrefix(line[i:], `{" "}`) || strings.HasPrefix(line[i:], `{' '}`)):
			b.WriteByte(' ') // JSX's explicit space
			i += 4
			continue
		case c == '$' && m.comp != nil && !m.noMath && (i == 0 || line[i-1] != '\\'):
			if end, tex, ok := inlineFormula(line, i); ok {
				if markers, ok := m.addFormula(tex, false); ok {
					b.WriteString(markers)
					i = end - 1
					continue
				}
			}
		case c == '{' && m.comp != nil && !unclosed && (m.props == nil || !m.isProp(line[i:])):
			end := matchBrace(line, i)
			if end < 0 {
				// MDX would refuse the page; no later brace is tried,
				// which keeps a line of many '{' linear.
				unclosed = true
				break
			}
			if out, ok := m.expression(line[i+1 : end]); ok {
				b.WriteString(out)
				i = end
				continue
			}
		case c == '{' && m.props != nil:
			if nextClose < i {
				// Found once per '}', not once per '{': linear on "{{{{".
				nextClose = len(line)
				if end := strings.IndexByte(line[i:], '}'); end >= 0 {
					nextClose = i + end
				}
			}
			if end := nextClose - i; nextClose < len(line) {
				if v, ok := m.props[strings.TrimSpace(line[i+1:i+end])]; ok {
					b.WriteString(v)
					i += end
					continue
				}
			}
		case c == ' ' && strings.HasPrefix(line[i:], " className="):
			b.WriteString(" class=")
			i += len(" className=") - 1
			m.noteClasses(line[i+1:])
			continue
		}
		b.WriteByte(c)
	}
	m.raw(b.String())
}

func (m *mdx) inlineTag(t jsxTag, closes *[]string) string {
	if t.closing {
		if n := len(*closes); n > 0 {
			c := (*closes)[n-1]
			*closes = (*closes)[:n-1]
			return c
		}
		return ""
	}
	if file, ok := m.snippets[t.name]; ok && m.load != nil && m.depth < 8 {
		if src, err := m.load(file); err == nil {
			_, body := SplitFrontmatter([]byte(src))
			return strings.TrimSpace(m.nested(file, string(body), t.attrs))
		}
		return ""
	}
	if m.names[t.name] || m.evaluatedBuiltin(&t) {
		if openM, closeM, ok := m.addUse(&t); ok {
			if t.selfClosing {
				return openM + closeM
			}
			*closes = append(*closes, closeM)
			return openM
		}
	}
	m.noteUnknown(t.name)
	openHTML, closeHTML := m.component(t)
	if t.selfClosing {
		return openHTML.String() + closeHTML.String()
	}
	*closes = append(*closes, closeHTML.String())
	return openHTML.String()
}

// Preprocess converts an MDX page into the Markdown with HTML that ToHTML
// renders. load reads the snippet files it imports; it may be nil when
// snippets are not available.
func Preprocess(src string, load func(string) (string, error)) string {
	return preprocess(src, load, nil)
}
