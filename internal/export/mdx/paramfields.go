package mdx

import "strings"

// MDX API pages (frontmatter "api") have no spec: the request they
// document is what their ParamField components declare. ParamFields
// reads those declarations; the API pages build the playground from them.

// ParamField is one ParamField of an MDX API page. Body fields nested in
// another body field (directly or inside an Expandable) are its children.
type ParamField struct {
	// Name and In (path, query, header, cookie, body, or name for a
	// nested property written with name=) say what the field is.
	Name, In string
	// Type, Default and Placeholder are as written on the tag; the
	// playground's input shows Placeholder when empty.
	Type, Default, Placeholder string
	Required                   bool
	// Children are the fields declared inside a body field.
	Children []*ParamField
}

// paramFieldPlaces are the attributes that name a ParamField and say
// where it goes, in the order the components read them.
var paramFieldPlaces = []string{"path", "query", "header", "cookie", "body"}

// ParamFields reads the ParamField declarations of an MDX page, and of the
// snippets it imports and uses (load reads them; nil skips them). Fenced
// code is skipped, since a ParamField shown as an example declares
// nothing.
func ParamFields(src string, load func(string) (string, error)) []*ParamField {
	sc := &fieldScan{load: load}
	sc.scan(src, 0)
	return sc.top
}

// fieldScan collects ParamFields across a page and its snippets.
type fieldScan struct {
	load func(string) (string, error)
	top  []*ParamField
	// open holds, for each ParamField whose closing tag is still ahead,
	// the innermost body field open at that point (itself when it is
	// one): the parent of a new field is then read from the top, not
	// searched for, which keeps thousands of unclosed tags linear.
	open []*ParamField
	// expanded counts snippet uses scanned: a snippet used many times by
	// one that is itself used many times must not cost exponential work.
	expanded int
}

// MaxSnippetScans bounds the snippet uses one page's panel reads.
const MaxSnippetScans = 256

func (sc *fieldScan) scan(src string, depth int) {
	text := withoutFences(src)
	imports := &mdx{snippets: map[string]string{}}
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "import ") {
			imports.importLine(strings.TrimSpace(line))
		}
	}
	for i := 0; i < len(text); {
		k := strings.IndexByte(text[i:], '<')
		if k < 0 {
			break
		}
		i += k
		if !isComponentStart(text[i:]) {
			i++
			continue
		}
		t, n, ok, stop := scanTag(text[i:])
		if !ok {
			i += stop
			continue
		}
		i += n
		if file, isSnippet := imports.snippets[t.name]; isSnippet && !t.closing {
			sc.snippet(file, depth)
			continue
		}
		if t.name == "ParamField" {
			sc.tag(&t)
		}
	}
}

// snippet scans an imported snippet where the page uses it, bounded in
// depth as the page's own rendering is.
func (sc *fieldScan) snippet(file string, depth int) {
	if sc.load == nil || depth >= 8 || sc.expanded >= MaxSnippetScans {
		return
	}
	sc.expanded++
	src, err := sc.load(file)
	if err != nil {
		return // the page's rendering reports the missing snippet
	}
	_, body := SplitFrontmatter([]byte(src))
	sc.scan(string(body), depth+1)
}

func (sc *fieldScan) tag(t *jsxTag) {
	if t.closing {
		if len(sc.open) > 0 {
			sc.open = sc.open[:len(sc.open)-1]
		}
		return
	}
	f := paramField(t)
	var parent *ParamField
	if len(sc.open) > 0 {
		parent = sc.open[len(sc.open)-1]
	}
	switch {
	case f == nil:
	case parent != nil:
		f.In = "body"
		parent.Children = append(parent.Children, f)
	case f.In == "name":
		f = nil // a field outside a body field needs a place to go
	default:
		sc.top = append(sc.top, f)
	}
	if !t.selfClosing {
		// Every opening tag is pushed, so closing tags stay paired.
		if f != nil && f.In == "body" {
			parent = f
		}
		sc.open = append(sc.open, parent)
	}
}

// paramField reads one ParamField tag; nil when it names no field.
// Nested properties are often written with name= instead of body=.
func paramField(t *jsxTag) *ParamField {
	f := &ParamField{Type: strings.TrimSpace(t.attr("type")), Default: t.attrs["default"], Placeholder: t.attrs["placeholder"], Required: t.flag("required")}
	for _, in := range append(paramFieldPlaces, "name") {
		if v := strings.TrimSpace(t.attrs[in]); v != "" && v != "true" {
			f.Name, f.In = v, in
			break
		}
	}
	if f.Name == "" {
		return nil
	}
	return f
}

// withoutFences blanks the lines of fenced code blocks, keeping the rest.
func withoutFences(src string) string {
	var b strings.Builder
	b.Grow(len(src))
	var fence codeFence
	for _, line := range strings.SplitAfter(src, "\n") {
		trimmed := strings.TrimSpace(line)
		if fence.inside() {
			fence.close(trimmed)
			b.WriteByte('\n')
			continue
		}
		if fence.open(trimmed) {
			b.WriteByte('\n')
			continue
		}
		b.WriteString(line)
	}
	return b.String()
}
