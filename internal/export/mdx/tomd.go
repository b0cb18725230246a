package mdx

import (
	"strconv"
	"strings"
)

// ToMarkdown turns one MDX page body (frontmatter removed) into plain
// Markdown a reader or a language model can take as it is: imports,
// exports and comments go, snippets are inlined, and the platform's
// components become the Markdown that says the same thing (a callout a
// quote, a step a numbered title, a card a link, a field a line with its
// name and type). Code blocks pass through untouched. Components the
// platform does not know keep their children and lose their tags.
func ToMarkdown(src string, load func(file string) (string, error)) string {
	w := &mdWriter{m: &mdx{snippets: map[string]string{}, load: load}}
	w.run(src)
	return tidyBlankLines(w.out.String())
}

// mdWriter is the state of one ToMarkdown conversion. It reuses the
// preprocessor's reading of ESM, comments and code fences (m), and keeps
// its own stack of open components with the line prefix each adds.
type mdWriter struct {
	m     *mdx
	out   strings.Builder
	stack []mdBlock
	depth int // snippet nesting
	// props are the attributes a snippet was given, written {name} in it.
	props map[string]string
}

type mdBlock struct {
	name   string
	prefix string // added to every line inside ("> " for a callout)
	indent int    // indentation of the first content line, -1 until seen
	step   int    // for Steps: the number of the last step
	after  string // written when the block closes (a frame's caption)
	drop   bool   // nothing inside is written (<Visibility for="humans">)
}

func (w *mdWriter) run(src string) {
	pending := ""
	for line := range strings.Lines(src) {
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		if pending != "" {
			pending += "\n" + line
			if _, n, ok := parseTag(pending); ok || n == 0 || strings.Count(pending, "\n") > maxTagLines {
				l := pending
				pending = ""
				w.tagLine(l)
			}
			continue
		}
		line = w.dedent(line)
		trimmed := strings.TrimSpace(line)
		if w.m.fence.inside() {
			w.m.fence.close(trimmed)
			w.emit(line)
			continue
		}
		if line = w.m.stripComments(line); strings.TrimSpace(line) == "" && trimmed != "" {
			continue
		}
		trimmed = strings.TrimSpace(line)
		if w.m.skipping != 0 || (len(w.stack) == 0 && isESM(trimmed)) {
			w.m.esm(trimmed)
			continue
		}
		if w.m.fence.open(trimmed) {
			w.emit(line)
			continue
		}
		if isComponentStart(trimmed) {
			if _, n, ok := parseTag(trimmed); !ok && n < 0 {
				pending = trimmed
				continue
			}
			w.tagLine(trimmed)
			continue
		}
		if n := len(w.stack); n > 0 && strings.HasSuffix(trimmed, "</"+w.stack[n-1].name+">") {
			name := w.stack[n-1].name
			w.emit(w.inline(strings.TrimSuffix(strings.TrimRight(line, " \t"), "</"+name+">")))
			w.close(name)
			continue
		}
		w.emit(w.inline(line))
	}
	if pending != "" {
		w.emit(w.inline(pending))
	}
	for i := len(w.stack) - 1; i >= 0; i-- {
		w.close(w.stack[i].name)
	}
}

// dedent removes the indentation of content inside components, as the
// preprocessor does, so nested Markdown is not read as a code block.
func (w *mdWriter) dedent(line string) string {
	if len(w.stack) == 0 {
		return line
	}
	top := &w.stack[len(w.stack)-1]
	ws := len(line) - len(strings.TrimLeft(line, " \t"))
	if ws == len(line) {
		return ""
	}
	if top.indent < 0 {
		if !w.m.fence.inside() && isComponentStart(line[ws:]) {
			return line[ws:]
		}
		top.indent = ws
	}
	return line[min(ws, top.indent):]
}

// prefix is what every line inside the open components starts with.
func (w *mdWriter) prefix() string {
	var p strings.Builder
	for _, b := range w.stack {
		p.WriteString(b.prefix)
	}
	return p.String()
}

func (w *mdWriter) emit(line string) {
	for _, b := range w.stack {
		if b.drop {
			return
		}
	}
	p := w.prefix()
	if line == "" {
		w.out.WriteString(strings.TrimRight(p, " "))
	} else {
		w.out.WriteString(p)
		w.out.WriteString(line)
	}
	w.out.WriteByte('\n')
}

// para writes a line of its own, with blank lines around it.
func (w *mdWriter) para(line string) {
	w.emit("")
	w.emit(line)
	w.emit("")
}

func (w *mdWriter) tagLine(line string) {
	t, n, ok := parseTag(line)
	if !ok {
		w.emit(w.inline(line))
		return
	}
	rest := strings.TrimSpace(line[n:])
	switch {
	case rest == "":
		w.tag(t)
	case !t.closing && !t.selfClosing && strings.HasSuffix(rest, "</"+t.name+">"):
		w.tag(t)
		w.emit(w.inline(strings.TrimSuffix(rest, "</"+t.name+">")))
		w.close(t.name)
	case !t.closing && !t.selfClosing && isBlockComponent(t.name):
		w.tag(t)
		w.emit(w.inline(rest))
	default:
		w.emit(w.inline(line))
	}
}

// callout labels are the words a quote of each callout starts with.
var calloutLabel = map[string]string{
	"Note": "Note", "Info": "Info", "Tip": "Tip", "Warning": "Warning",
	"Check": "Check", "Danger": "Danger", "Callout": "",
}

// tag opens (or, for a closing tag, closes) one block component.
func (w *mdWriter) tag(t jsxTag) {
	if t.closing {
		w.close(t.name)
		return
	}
	if file, ok := w.m.snippets[t.name]; ok {
		w.snippet(file, t.attrs)
		return
	}
	if len(w.stack) >= maxNesting {
		return
	}
	b := mdBlock{name: t.name, indent: -1}
	if label, ok := calloutLabel[t.name]; ok {
		w.emit("")
		b.prefix = "> "
		w.stack = append(w.stack, b)
		if label != "" {
			w.emit("**" + label + ":**")
			w.emit("")
		}
		return
	}
	switch t.name {
	case "Step":
		num := 0
		for i := len(w.stack) - 1; i >= 0; i-- {
			if w.stack[i].name == "Steps" {
				w.stack[i].step++
				num = w.stack[i].step
				break
			}
		}
		title := t.attr("title")
		switch {
		case num > 0 && title != "":
			w.para("**" + strconv.Itoa(num) + ". " + title + "**")
		case num > 0:
			w.para("**" + strconv.Itoa(num) + ".**")
		case title != "":
			w.para("**" + title + "**")
		}
	case "Tab", "Accordion", "Expandable":
		title := t.attr("title")
		if title == "" && t.name == "Expandable" {
			title = "properties"
		}
		if title != "" {
			w.para("**" + title + "**")
		}
	case "Card":
		w.para(cardLine(t))
	case "Frame":
		if c := t.attr("caption"); c != "" {
			b.after = "*" + c + "*"
		}
	case "ParamField", "ResponseField":
		w.para(fieldLine(t))
	case "Update":
		w.para("## " + t.attr("label"))
		if d := t.attr("description"); d != "" {
			w.para("*" + d + "*")
		}
	case "Visibility":
		// The Markdown copy is the agents' view: what is for humans only
		// stays on the web page, and what is for agents shows here.
		b.drop = strings.TrimSpace(t.attr("for")) == "humans"
	case "RequestExample":
		w.para("**Request example**")
	case "ResponseExample":
		w.para("**Response example**")
	case "Tree.Folder", "Tree.File":
		depth := 0
		for _, o := range w.stack {
			if o.name == "Tree.Folder" {
				depth++
			}
		}
		name := t.attr("name")
		if t.name == "Tree.Folder" {
			name += "/"
		}
		w.emit(strings.Repeat("  ", depth) + "- " + name)
	}
	if t.selfClosing {
		if b.after != "" {
			w.para(b.after)
		}
		return
	}
	w.stack = append(w.stack, b)
}

// close ends the innermost open component of that name and those inside it.
func (w *mdWriter) close(name string) {
	for i := len(w.stack) - 1; i >= 0; i-- {
		if w.stack[i].name != name {
			continue
		}
		for j := len(w.stack) - 1; j >= i; j-- {
			b := w.stack[j]
			w.stack = w.stack[:j]
			if b.after != "" {
				w.para(b.after)
			}
		}
		w.emit("")
		return
	}
}

func (w *mdWriter) snippet(file string, props map[string]string) {
	if w.m.load == nil || w.depth >= 8 {
		return
	}
	src, err := w.m.load(file)
	if err != nil {
		return
	}
	_, body := SplitFrontmatter([]byte(src))
	c := &mdWriter{m: &mdx{snippets: map[string]string{}, load: w.m.load}, depth: w.depth + 1, props: props}
	c.run(string(body))
	w.emit("")
	for line := range strings.Lines(strings.TrimRight(c.out.String(), "\n")) {
		w.emit(strings.TrimSuffix(line, "\n"))
	}
	w.emit("")
}

// cardLine is a card as a link with its title, or the bold title alone.
func cardLine(t jsxTag) string {
	title := t.attr("title")
	href := t.attr("href")
	switch {
	case href != "" && title != "":
		return "**[" + escapeLinkText(title) + "](" + mdURL(href) + ")**"
	case href != "":
		return "<" + href + ">"
	case title != "":
		return "**" + title + "**"
	}
	return ""
}

// fieldLine is a parameter or property as one line: its name in code,
// where it goes, its type, whether it is required and its default.
func fieldLine(t jsxTag) string {
	name, where := "", ""
	for _, k := range []string{"path", "query", "body", "header", "cookie", "name"} {
		if v := t.attrs[k]; v != "" && v != "true" {
			name, where = v, k
			break
		}
	}
	var parts []string
	if where != "" && where != "name" {
		parts = append(parts, where)
	}
	if ty := t.attr("type"); ty != "" {
		parts = append(parts, ty)
	}
	if t.flag("required") {
		parts = append(parts, "required")
	}
	if t.flag("deprecated") {
		parts = append(parts, "deprecated")
	}
	if d := t.attr("default"); d != "" {
		parts = append(parts, "default: "+d)
	}
	s := "`" + strings.ReplaceAll(name, "`", "") + "`"
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	return s
}

// inline drops the tags of inline components from a line of text (not
// in code spans), keeping what they enclose; an Icon has no text and
// goes entirely. HTML tags stay: Markdown allows them.
func (w *mdWriter) inline(line string) string {
	if len(w.props) > 0 && strings.Contains(line, "{") {
		line = rewriteOutsideCodeSpans(line, func(s string) string {
			for k, v := range w.props {
				s = strings.ReplaceAll(s, "{"+k+"}", v)
			}
			return s
		})
	}
	if !strings.Contains(line, "<") {
		return line
	}
	var b strings.Builder
	code := false
	for i := 0; i < len(line); {
		c := line[i]
		if c == '`' {
			code = !code
		}
		if c != '<' || code || !isComponentStart(line[i:]) {
			b.WriteByte(c)
			i++
			continue
		}
		t, n, ok, stop := scanTag(line[i:])
		if !ok {
			b.WriteString(line[i : i+stop])
			i += stop
			continue
		}
		if t.name == "Icon" && strings.HasSuffix(b.String(), " ") && strings.HasPrefix(line[i+n:], " ") {
			n++ // "an <Icon/> icon" reads "an icon"
		}
		// The tag goes; the text between an opening and a closing tag stays.
		i += n
	}
	return b.String()
}

// escapeLinkText keeps a title from closing the link text early.
func escapeLinkText(s string) string {
	return strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`).Replace(s)
}

// mdURL writes a link destination so spaces and parentheses in it do not
// end it.
func mdURL(u string) string {
	if strings.ContainsAny(u, " ()<>") {
		return "<" + strings.NewReplacer("<", "%3C", ">", "%3E").Replace(u) + ">"
	}
	return u
}

// tidyBlankLines collapses runs of blank (or quote-prefix-only) lines
// outside code blocks to the last of them, the one of the outermost
// block, and trims the ends, so removed tags leave no gaps.
func tidyBlankLines(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	var fence codeFence
	pending := "" // the blank line to write before the next text
	has := false
	for line := range strings.Lines(s) {
		line = strings.TrimRight(line, "\n")
		body := strings.TrimSpace(strings.TrimLeft(line, "> "))
		switch {
		case fence.inside():
			fence.close(body)
		case !fence.open(body) && body == "":
			pending, has = strings.TrimRight(line, " "), true
			continue
		}
		if has && b.Len() > 0 {
			b.WriteString(pending)
			b.WriteByte('\n')
		}
		has = false
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// rewriteOutsideCodeSpans applies f to the parts of line outside `code`.
func rewriteOutsideCodeSpans(line string, f func(string) string) string {
	parts := strings.Split(line, "`")
	for i := 0; i < len(parts); i += 2 {
		parts[i] = f(parts[i])
	}
	return strings.Join(parts, "`")
}
