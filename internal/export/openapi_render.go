package export

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
)

// endpoint is an operation with everything its page needs resolved.
type endpoint struct {
	op       *operation
	servers  []string
	params   []param
	security [][]scheme // alternatives, each a set of schemes used together
	body     *obj       // the request body, nil when none
	media    []string   // request content types in spec order
	example  any        // example of the first request content type
}

type param struct {
	name, in string
	required bool
	o        *obj
}

type scheme struct {
	Name   string `json:"name"`
	Type   string `json:"type"`              // "bearer", "basic", "apiKey", "oauth2", "openIdConnect"
	In     string `json:"in,omitempty"`      // header, query or cookie, for apiKey
	Param  string `json:"param,omitempty"`   // the header, query or cookie name
	Prefil string `json:"prefill,omitempty"` // x-default
	desc   string
}

// resolve gathers the operation's servers, parameters, security and body.
func (o *operation) resolve(v *schemaView) *endpoint {
	s := o.spec
	e := &endpoint{op: o, servers: s.servers}
	for _, src := range []*obj{o.item, o.op} {
		var list []string
		for _, sv := range src.list("servers") {
			if so, ok := sv.(*obj); ok && so.str("url") != "" {
				list = append(list, serverURL(so))
			}
		}
		if len(list) > 0 {
			e.servers = list
		}
	}
	// Operation parameters override path-item ones of the same name and place.
	for _, src := range []*obj{o.item, o.op} {
		for _, raw := range src.list("parameters") {
			po, _, err := s.deref(raw)
			if err != nil || po == nil || po.str("name") == "" {
				continue
			}
			p := param{name: po.str("name"), in: po.str("in"), required: po.flag("required") || po.str("in") == "path", o: po}
			replaced := false
			for i := range e.params {
				if e.params[i].name == p.name && e.params[i].in == p.in {
					e.params[i], replaced = p, true
				}
			}
			if !replaced {
				e.params = append(e.params, p)
			}
		}
	}
	reqs := s.root.list("security")
	if sec, ok := o.op.m["security"]; ok {
		reqs, _ = sec.([]any)
	}
	schemes := s.root.sub("components").sub("securitySchemes")
	for _, r := range reqs {
		ro, ok := r.(*obj)
		if !ok {
			continue
		}
		var set []scheme
		for _, name := range ro.keys {
			so, _, err := s.deref(schemes.get(name))
			if err != nil || so == nil {
				continue
			}
			sc := scheme{Name: name, Type: so.str("type"), In: so.str("in"), Param: so.str("name"), Prefil: so.str("x-default"), desc: so.str("description")}
			if sc.Type == "http" {
				sc.Type = strings.ToLower(so.str("scheme"))
			}
			set = append(set, sc)
		}
		if len(set) > 0 {
			e.security = append(e.security, set)
		}
	}
	if rb, _, err := s.deref(o.op.get("requestBody")); err == nil && rb != nil {
		e.body = rb
		content := rb.sub("content")
		if content != nil {
			e.media = content.keys
		}
		if len(e.media) > 0 {
			e.example = mediaExample(v, content.sub(e.media[0]))
		}
	}
	return e
}

// mediaExample is the first example a media type gives, else one built
// from its schema.
func mediaExample(v *schemaView, m *obj) any {
	if m == nil {
		return nil
	}
	if ex, ok := m.m["example"]; ok {
		return ex
	}
	if exs := m.sub("examples"); exs != nil && len(exs.keys) > 0 {
		if eo, _, err := v.s.deref(exs.get(exs.keys[0])); err == nil && eo != nil {
			return eo.get("value")
		}
	}
	return v.example(m.get("schema"), 0)
}

// apiReference renders the generated part of an endpoint page: top goes
// above the page's own content, rest below it. It returns the headings
// it adds to the table of contents.
func (j *job) apiReference(p *page, prefix markup.Prefix) (top, rest markup.HTML, hs []mdx.Heading) {
	o := p.api
	v := &schemaView{s: o.spec, budget: schemaBudget, md: func(s string) markup.HTML { return j.mdHTML(s, p.key, prefix) },
		warn: func(err error) {
			if _, dup := j.apiWarns.LoadOrStore(err.Error(), true); !dup {
				j.warnAPI("OpenAPI reference shown by name only", "page", p.out, "error", err.Error())
			}
		}}
	v.budget = exampleBudget
	e := o.resolve(v)
	v.budget = schemaBudget
	v.post, v.openAll = j.cfg.API.Params.Post, j.cfg.API.Params.Expanded == "all"
	// The platform shows no playground for an API without a server: there
	// is nowhere to send to.
	tryIt := j.features["playground"] && !o.webhook && len(e.servers) > 0 && j.playgroundMode(p) == "interactive"
	var b markup.Builder
	stylesheet(&b, prefix, "_static/api.css")
	b.Markup(`<div class="endpoint api-endpoint">`)
	methodBadge(&b, o.method)
	b.Markup(`<code class="api-path">`)
	b.Text(o.path)
	b.Markup(`</code>`)
	if o.op.flag("deprecated") || p.fm.Deprecated {
		b.Markup(`<span class="field-deprecated">deprecated</span>`)
	}
	b.Markup(`</div>`)
	if len(e.servers) > 1 {
		b.Markup(`<label class="api-servers">Server <select class="api-server-select">`)
		for _, s := range e.servers {
			b.Markup(`<option`)
			b.Attr("value", s)
			b.Markup(`>`)
			b.Text(s)
			b.Markup(`</option>`)
		}
		b.Markup(`</select></label>`)
	}
	if len(e.servers) > 0 && !o.webhook {
		b.Markup(`<p class="api-url"><code`)
		b.Attr("data-path", o.path)
		b.Markup(`>`)
		b.Text(joinURL(e.servers[0], o.path))
		b.Markup(`</code></p>`)
	}
	if d := o.op.str("description"); d != "" {
		b.Markup(`<div class="api-description">`)
		b.HTML(v.md(d))
		b.Markup(`</div>`)
	}
	top = b.Fragment()
	b.Reset()

	section := sectionWriter(&b, &hs)
	b.Markup(`<div class="api-reference">`)
	if tryIt {
		j.playground(&b, e)
	}
	if len(e.security) > 0 {
		section("authorizations", "Authorizations")
		for i, set := range e.security {
			if i > 0 {
				b.Markup(`<p class="api-or">or</p>`)
			}
			for _, sc := range set {
				authField(&b, sc, v)
			}
		}
	}
	for _, in := range []struct{ in, title string }{{"path", "Path Parameters"}, {"query", "Query Parameters"}, {"header", "Headers"}, {"cookie", "Cookies"}} {
		var ps []param
		for _, p := range e.params {
			if p.in == in.in {
				ps = append(ps, p)
			}
		}
		if len(ps) == 0 {
			continue
		}
		section(markup.Slug(in.title), in.title)
		for _, p := range ps {
			schema := p.o.get("schema")
			if schema == nil {
				schema = newObj()
			}
			withDesc := mergedParam(p.o, schema, v)
			v.field(&b, p.name, p.in, withDesc, p.required, 0)
		}
	}
	if e.body != nil {
		section("body", "Body")
		if d := e.body.str("description"); d != "" {
			b.HTML(v.md(d))
		}
		content := e.body.sub("content")
		for _, mt := range e.media {
			m := content.sub(mt)
			mediaLine(&b, mt, e.body.flag("required"))
			if m != nil {
				v.path = []string{"body"}
				v.schemaBlock(&b, m.get("schema"))
				v.path = nil
			}
		}
	}
	j.callbacks(&b, o, v, section)
	j.responses(&b, e, v, section)
	if samples := j.requestSamples(e, v); !o.webhook && len(samples) > 0 {
		section("examples", "Request examples")
		j.codeGroup(&b, samples)
	}
	b.Markup(`</div>`)
	if len(e.servers) > 1 {
		script(&b, prefix, "_static/api.js")
	}
	if tryIt {
		script(&b, prefix, "_static/playground.js")
	}
	return top, b.Fragment(), hs
}

// methodBadge writes an operation's method as the coloured badge.
func methodBadge(b *markup.Builder, method string) {
	b.Markup(`<span`)
	b.Attr("class", "method method-"+strings.ToLower(method))
	b.Markup(`>`)
	b.Text(method)
	b.Markup(`</span>`)
}

// statusBadge writes a response status code, coloured by its class.
func statusBadge(b *markup.Builder, code string) {
	class := "status"
	if code != "" {
		class += " status-" + code[:1] + "xx"
	}
	b.Markup(`<span`)
	b.Attr("class", class)
	b.Markup(`>`)
	b.Text(code)
	b.Markup(`</span>`)
}

// mediaLine writes the content type a body or response is shown in.
func mediaLine(b *markup.Builder, media string, required bool) {
	b.Markup(`<p class="api-media"><code>`)
	b.Text(media)
	b.Markup(`</code>`)
	if required {
		b.Markup(` <span class="field-required">required</span>`)
	}
	b.Markup(`</p>`)
}

// stylesheet links a stylesheet of the bundle.
func stylesheet(b *markup.Builder, prefix markup.Prefix, file string) {
	b.Markup(`<link rel="stylesheet" href="`)
	b.URL(markup.Path(prefix, file, ""))
	b.Markup(`">`)
}

// script loads a script of the bundle.
func script(b *markup.Builder, prefix markup.Prefix, file string) {
	b.Markup(`<script src="`)
	b.URL(markup.Path(prefix, file, ""))
	b.Markup(`"></script>`)
}

// schemaBlock writes a request or response schema: its fields, or a
// single typed line for a schema that is not an object.
func (v *schemaView) schemaBlock(b *markup.Builder, schema any) {
	if schema == nil {
		return
	}
	f := v.flatten(schema)
	if len(f.props.keys) == 0 && !f.cyclic && f.o.get("oneOf") == nil && f.o.get("anyOf") == nil {
		b.Markup(`<p class="api-schema-type"><span class="field-type">`)
		b.Text(v.typeLabel(f))
		b.Markup(`</span></p>`)
		if isArray(f.o) && len(v.flatten(f.o.get("items")).props.keys) > 0 {
			v.fields(b, schema, 0)
			return
		}
		if d := f.o.str("description"); d != "" {
			b.HTML(v.md(d))
		}
		v.facts(b, f.o)
		return
	}
	v.fields(b, schema, 0)
}

// mergedParam lets a parameter's own description and example show with
// its schema's type and constraints.
func mergedParam(p *obj, schema any, v *schemaView) any {
	so, _, err := v.s.deref(schema)
	if err != nil || so == nil {
		return schema
	}
	m := newObj()
	for _, k := range so.keys {
		m.set(k, so.get(k))
	}
	for _, k := range []string{"description", "example", "deprecated"} {
		if x, ok := p.m[k]; ok {
			m.set(k, x)
		}
	}
	return m
}

func authField(b *markup.Builder, sc scheme, v *schemaView) {
	name, where, typ, desc := "Authorization", "header", "string", sc.desc
	switch sc.Type {
	case "bearer":
		if desc == "" {
			desc = "Bearer authentication header of the form `Bearer <token>`."
		}
	case "basic":
		if desc == "" {
			desc = "Basic authentication header of the form `Basic <base64(username:password)>`."
		}
	case "apiKey":
		name, where = sc.Param, sc.In
	default:
		name, where, typ = sc.Name, sc.Type, sc.Type
	}
	o := newObj()
	o.set("type", typ)
	if desc != "" {
		o.set("description", desc)
	}
	v.field(b, name, where, o, true, 0)
}

// pretty prints a value as indented JSON, strings as they are.
func pretty(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return plain(v)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// joinURL appends an operation's path to a server URL.
func joinURL(server, p string) string {
	return strings.TrimSuffix(server, "/") + p
}

// mdHTML renders a Markdown description of a spec, with links made
// relative like any page content.
func (j *job) mdHTML(s, key string, prefix markup.Prefix) markup.HTML {
	if !strings.ContainsAny(s, "*_`[]<>#|\n&!~\\") && !strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "+") &&
		(len(s) == 0 || s[0] < '0' || s[0] > '9') {
		// Plain sentences, most descriptions, need no Markdown parser.
		return markup.Concat(markup.Const(`<p>`), markup.Text(strings.TrimSpace(s)), markup.Const(`</p>`))
	}
	var buf bytes.Buffer
	if _, err := mdx.ToHTML(j.e.md, []byte(s), &buf); err != nil {
		return markup.Concat(markup.Const(`<p>`), markup.Text(s), markup.Const(`</p>`))
	}
	// goldmark's output, links rewritten.
	return markup.Rendered(string(j.link.rewrite(buf.Bytes(), key, prefix)))
}

// searchText is what offline search finds an endpoint page by besides its
// title: the method, path and parameter names.
func (o *operation) searchText() string {
	parts := []string{o.method, o.path}
	for _, src := range []*obj{o.item, o.op} {
		for _, raw := range src.list("parameters") {
			if po, _, err := o.spec.deref(raw); err == nil && po != nil {
				parts = append(parts, po.str("name"))
			}
		}
	}
	return strings.Join(parts, " ")
}
