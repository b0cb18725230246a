package mdx

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/components"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/jsx"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// Custom components are React components a docs source defines itself:
// `export const Card = (...) => (...)` in a page, or exported by a snippet
// (.jsx, .tsx, .js, .ts, or the exports of an .mdx) the page imports by
// name. The preprocessor leaves a pair of markers around each use (an
// HTML comment carrying a nonce the source cannot guess), goldmark renders
// the body between them like any content, and Expand replaces each pair,
// innermost first, with what the component renders given its props and
// that body as children. A page without custom components never starts
// a JavaScript runtime.

// maxUses bounds the custom component uses of one page; further uses
// render their body only, with a warning.
const maxUses = 2000

// Components renders the custom components of one export's pages; its
// modules are transpiled once per export. It is safe for concurrent use.
type Components struct {
	mods *jsx.Modules
}

// Evaluators are the processes that run custom components, shared by an
// engine's exports (jsx.Evaluators).
type Evaluators = jsx.Evaluators

// NewEvaluators returns an engine's component evaluators: each process's
// memory bounded to memory bytes, at most processes of them at once (0
// for the defaults).
func NewEvaluators(memory int64, processes int) *Evaluators {
	return jsx.NewEvaluators(jsx.EvaluatorOptions{Memory: memory, Processes: processes})
}

// NewComponents returns the custom component renderer of one export. load
// reads snippet files; budget is the time one page's components may run
// (0 for jsx.DefaultBudget); ev runs them (nil: processes of the
// export's own, ended by Close).
func NewComponents(load func(string) (string, error), budget time.Duration, ev *Evaluators) *Components {
	return &Components{mods: jsx.NewModules(jsx.Options{
		Load: load,
		ESM: func(src string) string {
			_, body := SplitFrontmatter([]byte(src))
			return esmOf(string(body))
		},
		Builtin: func(name string, attrs map[string]string, rich map[string]markup.HTML) (markup.HTML, markup.HTML) {
			// Shared by every page, so English: the evaluator does not
			// say which page a built-in renders for.
			return components.RenderRich(name, attrs, rich, nil)
		},
		Builtins:   components.Names,
		Budget:     budget,
		Evaluators: ev,
	})}
}

// Close ends the component evaluators the export started itself.
func (c *Components) Close() { c.mods.Close() }

// noteUnknown records a component that renders as the generic wrapper:
// neither one of the platform's nor bound by the document's module. MDX
// would refuse to compile the page; the export shows its content.
func (m *mdx) noteUnknown(name string) {
	if m.comp == nil || components.Has(name) {
		return
	}
	for _, n := range m.comp.unknown {
		if n == name {
			return
		}
	}
	m.comp.unknown = append(m.comp.unknown, name)
}

// Page is a preprocessed page: the Markdown goldmark renders and what
// Expand needs for the custom components it uses.
type Page struct {
	// Markdown is the page as Markdown with HTML, for Bound and ToHTML.
	Markdown string
	comp     *pageComponents
	labels   *Labels // the page's interface texts; nil is English
}

// HasComponents reports whether the page uses a custom component, so
// its rendered HTML goes through Expand.
func (p *Page) HasComponents() bool { return p.comp != nil && len(p.comp.uses) > 0 }

// AutoIDs are the ids the page's steps, accordions and updates were
// given from their titles, in document order, for WithComponentHeadings
// to number apart from the page's other ids.
func (p *Page) AutoIDs() []string {
	if p.comp == nil {
		return nil
	}
	return p.comp.autoIDs
}

// NeedsIDPass reports whether the rendered page, whose Markdown headings
// are hs, must go through WithComponentHeadings: it uses custom
// components, a component drew an entry of the contents list, or an id
// made from a title is taken by a heading or another such id (ids an
// author writes in HTML are not looked for). Most pages with steps or
// accordions need none, and the pass reads the whole page.
func (p *Page) NeedsIDPass(hs []Heading) bool {
	if p.comp == nil {
		return false
	}
	if p.HasComponents() || p.comp.tocEntries {
		return true
	}
	if len(p.comp.autoIDs) == 0 {
		return false
	}
	seen := make(map[string]bool, len(hs)+len(p.comp.autoIDs))
	for _, h := range hs {
		seen[h.ID] = true
	}
	for _, id := range p.comp.autoIDs {
		if seen[id] {
			return true
		}
		seen[id] = true
	}
	return false
}

// PreprocessPage is Preprocess for a page of an export: custom components
// the page defines or imports are left as markers for Expand. file is the
// page's path in the source, from which relative imports resolve.
func PreprocessPage(src string, load func(string) (string, error), file string) Page {
	return PreprocessPageIn(src, load, file, 1, EnglishLabels)
}

// PreprocessPageIn is PreprocessPage for a page in the language of l:
// the components write l's texts (a field's pills, an Expandable's
// summary, the examples' titles); src starts on line firstLine of file,
// which messages name.
func PreprocessPageIn(src string, load func(string) (string, error), file string, firstLine int, l Labels) Page {
	return PreprocessPageWith(src, load, file, firstLine, PageOptions{Labels: l})
}

// PageOptions are the site's settings that change how a page reads.
type PageOptions struct {
	Labels Labels
	// NoMath leaves $ and $$ as text (docs.json styling.latex false).
	NoMath bool
}

// PreprocessPageWith is PreprocessPageIn with the site's settings.
func PreprocessPageWith(src string, load func(string) (string, error), file string, firstLine int, opt PageOptions) Page {
	comp := &pageComponents{}
	l := opt.Labels
	m := &mdx{snippets: map[string]string{}, load: load, comp: comp, labels: &l, lineNo: firstLine - 1, noMath: opt.NoMath}
	m.bindModule(src, file, nil)
	return Page{Markdown: m.run(src), comp: comp, labels: &l}
}

// bindModule reads the import and export statements of a page or an
// inlined snippet; when they bind components, the document gets a scope
// of its own. A snippet's props are constants of its scope, so its
// components may be given them ({title}).
func (m *mdx) bindModule(src, file string, props map[string]string) {
	m.file, m.props = file, props
	m.scope = -1
	if !strings.Contains(src, "export ") && !strings.Contains(src, "import ") {
		return
	}
	m.esmSrc = esmOf(src)
	names := componentNames(m.esmSrc)
	if len(names) == 0 {
		return
	}
	m.names = names
	m.ensureScope()
}

// ensureScope gives the document its scope, made of its module's
// statements, the first time one of its tags needs evaluating.
func (m *mdx) ensureScope() {
	if m.scope >= 0 {
		return
	}
	m.scope = len(m.comp.scopes)
	m.comp.scopes = append(m.comp.scopes, jsx.Scope{ESM: propConsts(m.props, m.esmSrc) + m.esmSrc, File: m.file})
}

// evaluatedBuiltin reports whether a tag of one of the platform's
// components has an attribute that only JavaScript can give a value
// (`href={"/x/" + slug}`, `cols={columns}`), so the tag is evaluated like
// a custom component's, with the page's module in scope: the prelude
// renders the platform's component from the values. Literals (strings,
// numbers, booleans, JSON) are read as they are written.
func (m *mdx) evaluatedBuiltin(t *jsxTag) bool {
	if m.comp == nil || t.closing || m.names[t.name] || !components.Has(t.name) {
		return false
	}
	for _, e := range t.exprs {
		if !json.Valid([]byte(e)) {
			return true
		}
	}
	return false
}

// nested preprocesses an inlined snippet with the props it was given.
func (m *mdx) nested(file, body string, props map[string]string) string {
	c := &mdx{snippets: map[string]string{}, props: props, load: m.load, depth: m.depth + 1, comp: m.comp, labels: m.labels, scope: -1, draw: m.draw, noMath: m.noMath}
	if m.comp != nil {
		c.bindModule(body, file, props)
	}
	return c.run(body)
}

// declares reports whether a module's statements bind name at the top
// level: declared, exported or imported.
func declares(esm, name string) bool {
	word := `\b` + regexp.QuoteMeta(name) + `\b`
	if regexp.MustCompile(`(?:const|let|var|function\*?|class)\s+` + word).MatchString(esm) {
		return true
	}
	for _, m := range importStmt.FindAllStringSubmatch(esm, -1) {
		if regexp.MustCompile(word).MatchString(m[1]) {
			return true
		}
	}
	return false
}

var jsIdent = regexp.MustCompile(`^[A-Za-z_$][\w$]*$`)

// jsReserved are the words a prop name cannot be declared as.
var jsReserved = map[string]bool{
	"break": true, "case": true, "catch": true, "class": true, "const": true, "continue": true, "debugger": true,
	"default": true, "delete": true, "do": true, "else": true, "enum": true, "export": true, "extends": true,
	"false": true, "finally": true, "for": true, "function": true, "if": true, "import": true, "in": true,
	"instanceof": true, "let": true, "new": true, "null": true, "return": true, "super": true, "switch": true,
	"this": true, "throw": true, "true": true, "try": true, "typeof": true, "var": true, "void": true,
	"while": true, "with": true, "yield": true, "await": true, "static": true, "implements": true,
	"interface": true, "package": true, "private": true, "protected": true, "public": true,
}

// propConsts declares a snippet's props as string constants, leaving out
// names its own statements mention (they would clash).
func propConsts(props map[string]string, esm string) string {
	keys := make([]string, 0, len(props))
	for k := range props {
		if jsIdent.MatchString(k) && !jsReserved[k] && !declares(esm, k) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		v, _ := json.Marshal(props[k])
		b.WriteString("const " + k + " = " + string(v) + ";\n")
	}
	return b.String()
}

// pageComponents is what the preprocessor records of a page's custom
// components.
type pageComponents struct {
	unknown  []string    // components neither the platform's nor bound by a module
	props    []string    // warnings about attributes of the platform's components not drawn
	nonce    string      // set on the first use
	scopes   []jsx.Scope // the page's module and those of inlined snippets
	uses     []use       // by marker id
	overflow int         // uses past maxUses
	classes  []string    // class names written in className (flowhtml.go)
	autoIDs  []string    // ids made from components' titles (componentID), in order
	// tocEntries: a component drew an entry of the contents list (a
	// step's heading-sized title, an update's label).
	tocEntries bool
}

type use struct {
	scope, call int // the use is Calls[call] of scopes[scope]
	name        string
	selfClosing bool
	// file and line are where the use is written.
	file string
	line int
	// evaluated is set for a platform component whose attributes are
	// expressions (evaluatedBuiltin): tag is how it was written and
	// literal its attributes that need no evaluation, which a failure
	// renders with.
	evaluated bool
	tag       string
	literal   map[string]string
	// expr is set for an expression in the page's content ({1 + 1},
	// {items.map(...)}): its source, shown as written when it fails.
	expr string
	// tex is set for a formula ($…$, $$…$$): its TeX, typeset on its own
	// line when display (math.go).
	tex     string
	display bool
}

func newNonce() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// add records a use of a component and returns its opening and closing
// markers; ok is false past maxUses.
func (m *mdx) addUse(t *jsxTag) (open, closing string, ok bool) {
	c := m.comp
	if len(c.uses) >= maxUses {
		c.overflow++
		return "", "", false
	}
	if c.nonce == "" {
		c.nonce = newNonce()
	}
	m.ensureScope()
	id := strconv.Itoa(len(c.uses))
	s := &c.scopes[m.scope]
	u := use{scope: m.scope, call: len(s.Calls), name: t.name, selfClosing: t.selfClosing, file: m.file, line: m.lineNo}
	if !m.names[t.name] {
		u.evaluated, u.tag = true, clip(t.src, 120)
		u.literal = map[string]string{}
		for k, v := range t.attrs {
			if e, isExpr := t.exprs[k]; !isExpr || json.Valid([]byte(e)) {
				u.literal[k] = v
			}
		}
	}
	c.uses = append(c.uses, u)
	s.Calls = append(s.Calls, jsx.Call{Name: t.name, Props: jsProps(t.src)})
	return "<!--jsx " + c.nonce + " " + id + "-->", "<!--/jsx " + c.nonce + " " + id + "-->", true
}

// addExpression records an expression of the page's content, evaluated
// like a component whose one child is its value, and returns its
// markers; ok is false past maxUses.
func (m *mdx) addExpression(expr string) (markers string, ok bool) {
	if !m.roomForUse() {
		return "", false
	}
	c := m.comp
	m.ensureScope()
	s := &c.scopes[m.scope]
	c.uses = append(c.uses, use{scope: m.scope, call: len(s.Calls), selfClosing: true,
		expr: expr, file: m.file, line: m.lineNo})
	// The newline ends a // comment the expression may close with.
	s.Calls = append(s.Calls, jsx.Call{Name: "React.Fragment", Props: "{children: (" + expr + "\n)}"})
	return c.markers(len(c.uses) - 1), true
}

// roomForUse reports whether the page may hold one more use, counting
// the ones past maxUses, and gives the page its nonce on the first.
func (m *mdx) roomForUse() bool {
	c := m.comp
	if len(c.uses) >= maxUses {
		c.overflow++
		return false
	}
	if c.nonce == "" {
		c.nonce = newNonce()
	}
	return true
}

// markers are the opening and closing markers of use id, with nothing
// between them: a use without a body.
func (c *pageComponents) markers(id int) string {
	n := strconv.Itoa(id)
	return "<!--jsx " + c.nonce + " " + n + "--><!--/jsx " + c.nonce + " " + n + "-->"
}

// customTag writes the markers of a block-level use of a custom component.
func (m *mdx) customTag(t *jsxTag) bool {
	openM, closeM, ok := m.addUse(t)
	if !ok {
		return false
	}
	m.block(openM)
	if t.selfClosing {
		m.block(closeM)
		return true
	}
	m.stack = append(m.stack, openBlock{name: t.name, close: closeM, indent: -1})
	return true
}

// The kinds of the warnings Expand gives.
const (
	// WarnContent: a component or an expression not rendered as written.
	WarnContent = "content"
	// WarnMath: a formula KaTeX could not typeset.
	WarnMath = "math"
)

// Expand replaces the markers of the page's custom components in its
// rendered HTML with what each component renders. A component that
// cannot be evaluated shows its body; warn receives one message per
// failure, naming the component, with its kind (WarnContent, WarnMath).
func (c *Components) Expand(ctx context.Context, p *Page, rendered []byte, warn func(kind, msg string)) []byte {
	if p.comp == nil {
		return rendered
	}
	for _, name := range p.comp.unknown {
		warn(WarnContent, "<"+name+"> is neither a component of the platform the export knows nor one the page defines or imports; its content is shown without it")
	}
	for _, msg := range p.comp.props {
		warn(WarnContent, msg)
	}
	if !p.HasComponents() {
		return rendered
	}
	pc := p.comp
	if pc.overflow > 0 {
		warn(WarnContent, strconv.Itoa(pc.overflow)+" uses of custom components past the first "+strconv.Itoa(maxUses)+" show their content only")
	}
	ev := c.mods.NewPage(ctx, pc.scopes)
	defer ev.Close()
	x := expander{pc: pc, ev: ev, warn: warn, labels: p.labels, open: "<!--jsx " + pc.nonce + " ", close: "<!--/jsx " + pc.nonce + " "}
	out := []byte(x.expand(string(rendered), 0))
	for _, c := range ev.Classes() {
		if len(pc.classes) >= maxClasses {
			break
		}
		pc.classes = append(pc.classes, c)
	}
	return out
}

type expander struct {
	pc          *pageComponents
	ev          *jsx.Page
	warn        func(kind, msg string)
	open, close string
	labels      *Labels
	warned      map[string]bool // checkDrawn's warnings given
}

// expand replaces the marker pairs of s, each one's content expanded
// first; a closing marker without its opening one is dropped.
func (x *expander) expand(s string, depth int) string {
	var out strings.Builder
	for {
		i := strings.Index(s, x.open)
		if i < 0 {
			out.WriteString(x.dropClosing(s))
			return out.String()
		}
		out.WriteString(x.dropClosing(s[:i]))
		rest := s[i+len(x.open):]
		end := strings.Index(rest, "-->")
		id, err := strconv.Atoi(rest[:max(end, 0)])
		if end < 0 || err != nil || id < 0 || id >= len(x.pc.uses) {
			s = rest // not one of ours after all
			continue
		}
		rest = rest[end+3:]
		closeM := x.close + strconv.Itoa(id) + "-->"
		var body string
		if j := strings.Index(rest, closeM); j >= 0 {
			body, rest = rest[:j], rest[j+len(closeM):]
		}
		if depth < maxNesting {
			body = x.expand(body, depth+1)
		}
		out.WriteString(x.render(id, body))
		s = rest
	}
}

func (x *expander) dropClosing(s string) string {
	for {
		i := strings.Index(s, x.close)
		if i < 0 {
			return s
		}
		end := strings.Index(s[i:], "-->")
		if end < 0 {
			return s
		}
		s = s[:i] + s[i+end+3:]
	}
}

// render returns what use id renders around body. A component that
// cannot be evaluated shows body in the wrapper MDX gives a component it
// does not know, as before components were evaluated.
func (x *expander) render(id int, body string) string {
	u := x.pc.uses[id]
	// body is goldmark's output of the page, links not yet rewritten.
	if u.tex != "" {
		return x.formula(u)
	}
	out, err := x.ev.Render(u.scope, u.call, markup.Rendered(strings.TrimSpace(body)), u.selfClosing)
	if err != nil && u.expr != "" {
		x.warn(WarnContent, fmt.Sprintf("the expression {%s} (line %d of %s) could not be evaluated (%s); it is shown as written",
			clip(u.expr, 120), u.line, u.file, err))
		return html.EscapeString("{" + u.expr + "}")
	}
	if err != nil && u.evaluated {
		x.warn(WarnContent, fmt.Sprintf("an expression of %s (line %d of %s) could not be evaluated (%s); the component is shown without the attributes that need it",
			u.tag, u.line, u.file, err))
		openHTML, closeHTML := components.Render(u.name, u.literal, x.labels)
		return openHTML.String() + body + closeHTML.String()
	}
	if err != nil {
		x.warn(WarnContent, "the component <"+u.name+"> could not be rendered ("+err.Error()+"); its content is shown without it")
		openHTML, closeHTML := components.Render(u.name, nil, x.labels)
		return openHTML.String() + body + closeHTML.String()
	}
	x.checkDrawn(u)
	return out.String()
}

// checkDrawn warns about the props of the platform's components that use
// u drew (itself, for a platform component with evaluated attributes)
// as the preprocessor does for those a page writes; each warning once a
// page.
func (x *expander) checkDrawn(u use) {
	for _, d := range x.ev.TakeDrawn() {
		for _, msg := range components.Unrendered(d.Name, d.Attrs, u.file, u.line) {
			if !u.evaluated {
				msg += " (drawn by <" + u.name + ">)"
			}
			if !x.warned[msg] {
				if x.warned == nil {
					x.warned = map[string]bool{}
				}
				x.warned[msg] = true
				x.warn(WarnContent, msg)
			}
		}
	}
}

// esmOf returns the import and export statements of an MDX document:
// the lines the preprocessor drops, outside code fences, at the top level.
func esmOf(src string) string {
	var b strings.Builder
	m := &mdx{snippets: map[string]string{}}
	var fence codeFence
	for line := range strings.Lines(src) {
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		trimmed := strings.TrimSpace(line)
		if fence.inside() {
			fence.close(trimmed)
			continue
		}
		if m.skipping == 0 && (fence.open(trimmed) || !isESM(trimmed) || line[0] == ' ' || line[0] == '\t') {
			continue
		}
		b.WriteString(line)
		b.WriteByte('\n')
		m.esm(trimmed)
	}
	return b.String()
}

var (
	exportName = regexp.MustCompile(`(?m)^\s*export\s+(?:default\s+)?(?:const|let|var|class|(?:async\s+)?function\*?)\s+([A-Z][\w$]*)`)
	importStmt = regexp.MustCompile(`(?m)^\s*import\s+([^;'"]+?)\s+from\s+['"]([^'"]+)['"]`)
	importItem = regexp.MustCompile(`^([\w$]+)(?:\s+as\s+([\w$]+))?$`)
)

// componentNames lists the names a page's module binds that can be
// components (they start with a capital): its exports, and the imports
// of modules of the source (a path), except the default import of an
// .mdx or .md snippet, which the preprocessor inlines.
func componentNames(esm string) map[string]bool {
	names := map[string]bool{}
	for _, m := range exportName.FindAllStringSubmatch(esm, -1) {
		names[m[1]] = true
	}
	for _, m := range importStmt.FindAllStringSubmatch(esm, -1) {
		clause, spec := strings.TrimSpace(m[1]), m[2]
		if !strings.HasPrefix(spec, "/") && !strings.HasPrefix(spec, ".") {
			continue // a package: nothing of the source
		}
		mdxFile := path.Ext(spec) == ".mdx" || path.Ext(spec) == ".md"
		named := ""
		if i := strings.IndexByte(clause, '{'); i >= 0 {
			named = clause[i+1:]
			if j := strings.IndexByte(named, '}'); j >= 0 {
				named = named[:j]
			}
			clause = strings.TrimRight(strings.TrimSpace(clause[:i]), ",")
		}
		if clause != "" && !mdxFile && !strings.HasPrefix(clause, "*") {
			addName(names, strings.TrimSpace(clause))
		}
		for _, item := range strings.Split(named, ",") {
			if im := importItem.FindStringSubmatch(strings.TrimSpace(item)); im != nil {
				if im[2] != "" {
					addName(names, im[2])
				} else {
					addName(names, im[1])
				}
			}
		}
	}
	return names
}

func addName(names map[string]bool, n string) {
	if n != "" && n[0] >= 'A' && n[0] <= 'Z' {
		names[n] = true
	}
}

// jsProps writes the attributes of a tag (its source, as parseTag read
// it) as a JavaScript object literal: strings as string literals,
// expressions and spreads as written, bare attributes as true.
func jsProps(src string) string {
	var b strings.Builder
	b.WriteString("{")
	i := 1
	for i < len(src) && (isNameByte(src[i]) || src[i] == '/') {
		i++
	}
	for i < len(src) {
		for i < len(src) && isSpace(src[i]) {
			i++
		}
		if i >= len(src) || src[i] == '>' || src[i] == '/' {
			break
		}
		if src[i] == '{' {
			end := matchBrace(src, i)
			if end < 0 {
				break
			}
			if e := strings.TrimSpace(src[i+1 : end]); strings.HasPrefix(e, "...") {
				b.WriteString("...(" + e[3:] + "),")
			}
			i = end + 1
			continue
		}
		ns := i
		for i < len(src) && (isNameByte(src[i]) || src[i] == ':') {
			i++
		}
		if ns == i {
			break
		}
		key, _ := json.Marshal(src[ns:i])
		b.Write(key)
		b.WriteString(":")
		if i >= len(src) || src[i] != '=' {
			b.WriteString("true,")
			continue
		}
		i++
		if i >= len(src) {
			break
		}
		switch q := src[i]; q {
		case '"', '\'':
			end := strings.IndexByte(src[i+1:], q)
			if end < 0 {
				return "{}"
			}
			v, _ := json.Marshal(html.UnescapeString(src[i+1 : i+1+end]))
			b.Write(v)
			i += end + 2
		case '{':
			end := matchBrace(src, i)
			if end < 0 {
				return "{}"
			}
			if e := strings.TrimSpace(src[i+1 : end]); e != "" {
				b.WriteString("(" + e + ")")
			} else {
				b.WriteString("undefined")
			}
			i = end + 1
		default:
			return "{}"
		}
		b.WriteString(",")
	}
	b.WriteString("}")
	return b.String()
}

// clip shortens s to at most n bytes for a message, at a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
