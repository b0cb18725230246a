package export

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// MDX API pages (frontmatter "api") have no spec: the request they
// document is what their ParamField components declare. This file turns
// those declarations into the same playgroundConfig an OpenAPI operation
// gives, so both kinds of page get one "Try it" panel, built and sent by
// the same playground.js.

// mdxField is one ParamField of an MDX API page. Body fields nested in
// another body field (directly or inside an Expandable) are its children.
type mdxField struct {
	name, in, typ, def string
	required           bool
	children           []*mdxField
}

// paramFieldPlaces are the attributes that name a ParamField and say
// where it goes, in the order the components read them.
var paramFieldPlaces = []string{"path", "query", "header", "cookie", "body"}

// mdxFields reads the ParamField declarations of an MDX page, and of the
// snippets it imports and uses (load reads them; nil skips them). Fenced
// code is skipped, since a ParamField shown as an example declares
// nothing.
func mdxFields(src string, load func(string) (string, error)) []*mdxField {
	sc := &fieldScan{load: load}
	sc.scan(src, 0)
	return sc.top
}

// fieldScan collects ParamFields across a page and its snippets.
type fieldScan struct {
	load func(string) (string, error)
	top  []*mdxField
	open []*mdxField // the ParamFields whose closing tag is still ahead
	// expanded counts snippet uses scanned: a snippet used many times by
	// one that is itself used many times must not cost exponential work.
	expanded int
}

// maxSnippetScans bounds the snippet uses one page's panel reads.
const maxSnippetScans = 256

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
	if sc.load == nil || depth >= 8 || sc.expanded >= maxSnippetScans {
		return
	}
	sc.expanded++
	src, err := sc.load(file)
	if err != nil {
		return // the page's rendering reports the missing snippet
	}
	_, body := splitFrontmatter([]byte(src))
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
	switch parent := openBodyField(sc.open); {
	case f == nil:
	case parent != nil:
		f.in = "body"
		parent.children = append(parent.children, f)
	case f.in == "name":
		f = nil // a field outside a body field needs a place to go
	default:
		sc.top = append(sc.top, f)
	}
	if !t.selfClosing {
		sc.open = append(sc.open, f) // nil keeps the closing tags paired
	}
}

// openBodyField is the innermost open body field, the parent of a field
// declared inside it.
func openBodyField(open []*mdxField) *mdxField {
	for i := len(open) - 1; i >= 0; i-- {
		if open[i] != nil && open[i].in == "body" {
			return open[i]
		}
	}
	return nil
}

// paramField reads one ParamField tag; nil when it names no field.
// Nested properties are often written with name= instead of body=.
func paramField(t *jsxTag) *mdxField {
	f := &mdxField{typ: strings.TrimSpace(t.attr("type")), def: t.attrs["default"], required: t.flag("required")}
	for _, in := range append(paramFieldPlaces, "name") {
		if v := strings.TrimSpace(t.attrs[in]); v != "" && v != "true" {
			f.name, f.in = v, in
			break
		}
	}
	if f.name == "" {
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

// splitAPI splits the "api" frontmatter into its method and either a
// full URL's origin and path or a relative path (origin "").
func splitAPI(api string) (method, origin, route string, ok bool) {
	method, route, ok = strings.Cut(strings.TrimSpace(api), " ")
	if !ok {
		return "", "", "", false
	}
	method, route = strings.ToUpper(method), strings.TrimSpace(route)
	if i := strings.Index(route, "://"); i > 0 {
		origin, route = route, "/"
		if k := strings.IndexByte(origin[i+3:], '/'); k >= 0 {
			origin, route = origin[:i+3+k], origin[i+3+k:]
		}
	}
	return method, origin, route, true
}

// mdxPlaygroundConfig builds the playground's request model of an MDX API
// page: its servers (a full URL in "api" wins over api.mdx.server), its
// authentication, its parameters and a JSON body from its body fields.
// It returns nil, after a warning, when the page gives nowhere to send.
func (j *job) mdxPlaygroundConfig(p *page, fields []*mdxField) *playgroundConfig {
	method, route, servers, why := j.mdxTarget(p)
	if why != "" {
		j.warn("%s: api %q %s; no playground shown", p.file, p.fm.API, why)
		return nil
	}
	cfg := &playgroundConfig{Method: method, Path: route, Servers: servers, Locked: j.kind == KindAirGapped,
		Params: []pgParam{}, Security: [][]scheme{}}
	if sc, ok := j.mdxScheme(p); ok {
		cfg.Security = append(cfg.Security, []scheme{sc})
	}
	declared := map[string]bool{}
	var body []*mdxField
	for _, f := range fields {
		if f.in == "body" {
			body = append(body, f)
			continue
		}
		if declared[f.in+":"+f.name] {
			continue // declared twice (a snippet used again): one input
		}
		declared[f.in+":"+f.name] = true
		cfg.Params = append(cfg.Params, pgParam{Name: f.name, In: f.in, Type: f.typ, Default: f.def,
			Required: f.required || f.in == "path"})
	}
	// A path parameter of the template that no ParamField declares still
	// needs a value, or the request goes out with "{name}" in its path.
	for _, name := range templateNames(route) {
		if !declared["path:"+name] {
			cfg.Params = append(cfg.Params, pgParam{Name: name, In: "path", Type: "string", Required: true})
		}
	}
	if len(body) > 0 {
		cfg.Bodies = []pgBody{{Media: "application/json", Example: bodyExample(body)}}
		if fields, ok := fileForm(body); ok {
			cfg.Bodies = []pgBody{{Media: "multipart/form-data", Form: "multipart", Fields: fields}}
		}
		for _, f := range body {
			cfg.BodyReq = cfg.BodyReq || f.required
		}
	}
	return cfg
}

// mdxTarget is where an MDX API page sends to, or why it cannot send.
func (j *job) mdxTarget(p *page) (method, route string, servers []string, why string) {
	method, origin, route, ok := splitAPI(p.fm.API)
	switch {
	case !ok:
		return "", "", nil, `is not "METHOD /path" or "METHOD https://..."`
	case origin != "":
		return method, route, []string{origin}, ""
	case !strings.HasPrefix(route, "/"):
		return "", "", nil, `has a path that does not start with "/"`
	case len(j.cfg.API.MDX.Server) > 0:
		return method, route, j.cfg.API.MDX.Server, ""
	}
	return "", "", nil, "has a relative path and docs.json sets no api.mdx.server"
}

// mdxPanel is the "Try it" panel of an MDX API page, with its stylesheet
// and script, or "" when the page shows none: kinds without the
// playground feature, and the simple and none modes, as on OpenAPI pages.
func (j *job) mdxPanel(p *page, prefix markup.Prefix) markup.HTML {
	if p.api != nil || p.fm.API == "" || !j.features["playground"] || j.playgroundMode(p) != "interactive" {
		return markup.HTML{}
	}
	cfg := j.mdxPlaygroundConfig(p, mdxFields(string(p.body), j.loadSnippet))
	if cfg == nil {
		return markup.HTML{}
	}
	var b markup.Builder
	stylesheet(&b, prefix, "_static/api.css")
	writePlayground(&b, cfg)
	script(&b, prefix, "_static/playground.js")
	return b.Fragment()
}

// fileForm is the multipart form of a body that takes a file (a body
// field of type file or file[]): a file can only be sent as a form part.
func fileForm(body []*mdxField) ([]pgField, bool) {
	var out []pgField
	files := false
	for _, f := range body {
		typ := strings.ToLower(f.typ)
		pf := pgField{Name: f.name, Type: f.typ, Required: f.required, Default: f.def,
			Binary: strings.TrimSuffix(typ, "[]") == "file", Multiple: strings.HasSuffix(typ, "[]")}
		files = files || pf.Binary
		out = append(out, pf)
	}
	return out, files
}

// templateNames lists the {name} parameters of a path, in order.
func templateNames(route string) []string {
	var out []string
	for {
		i := strings.IndexByte(route, '{')
		if i < 0 {
			return out
		}
		k := strings.IndexByte(route[i:], '}')
		if k < 0 {
			return out
		}
		if name := route[i+1 : i+k]; name != "" {
			out = append(out, name)
		}
		route = route[i+k+1:]
	}
}

// bodyExample is the JSON body the panel starts with: the required fields
// and those with a default, in the order the page declares them. Optional
// fields without a default are left out, so the request does not send
// values the reader never chose.
func bodyExample(fields []*mdxField) string {
	var b bytes.Buffer
	writeFields(&b, fields)
	var out bytes.Buffer
	if json.Indent(&out, b.Bytes(), "", "  ") != nil {
		return b.String()
	}
	return out.String()
}

func writeFields(b *bytes.Buffer, fields []*mdxField) {
	b.WriteByte('{')
	n := 0
	for _, f := range fields {
		if !f.required && f.def == "" {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		k, _ := json.Marshal(f.name)
		b.Write(k)
		b.WriteByte(':')
		writeValue(b, f)
	}
	b.WriteByte('}')
}

// writeValue writes a field's default as its type reads it, else an empty
// value of the type; objects hold their nested fields.
func writeValue(b *bytes.Buffer, f *mdxField) {
	typ := strings.ToLower(f.typ)
	if f.def != "" {
		switch {
		case typ == "string":
		case json.Valid([]byte(f.def)):
			b.WriteString(f.def)
			return
		}
		s, _ := json.Marshal(f.def)
		b.Write(s)
		return
	}
	switch {
	case strings.HasSuffix(typ, "[]") || strings.HasPrefix(typ, "array"):
		b.WriteByte('[')
		if len(f.children) > 0 {
			writeFields(b, f.children)
		}
		b.WriteByte(']')
	case typ == "number" || typ == "integer" || typ == "int" || typ == "float":
		b.WriteByte('0')
	case typ == "boolean" || typ == "bool":
		b.WriteString("false")
	case typ == "object" || len(f.children) > 0:
		writeFields(b, f.children)
	default:
		b.WriteString(`""`)
	}
}
