package apipages

import (
	"slices"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
)

// Reference is the generated part of an endpoint page.
type Reference struct {
	// Top goes above the page's own content, Rest below it.
	Top, Rest markup.HTML
	// Request and Response are the request samples (a tab per language)
	// and the response examples (a tab per status) that the page shows
	// in its right-hand column; either may be empty.
	Request, Response markup.HTML
	// Headings are what the reference adds to the table of contents.
	Headings []mdx.Heading
}

// Endpoint renders the generated part of the page p documenting
// operation o.
func (w *Pages) Endpoint(o *openapi.Operation, p Page) Reference {
	var hs []mdx.Heading
	prefix := p.Prefix
	v := &schemaWriter{View: &openapi.View{Spec: o.Spec, Budget: openapi.ExampleBudget, Warn: w.refWarner(p), Work: p.Work}, md: p.Markdown, l: p.labels()}
	e := o.Resolve(v.View)
	v.Budget = openapi.SchemaBudget
	v.post, v.openAll = w.api.Params.Post, w.api.Params.Expanded == "all"
	// The platform shows no playground for an API without a server: there
	// is nowhere to send to.
	tryIt := w.playground && !o.Webhook && len(e.Servers) > 0 && w.Mode(p) == "interactive"
	var b markup.Builder
	stylesheet(&b, prefix, "_static/api.css")
	b.Markup(`<div class="endpoint api-endpoint">`)
	methodBadge(&b, o.Method)
	b.Markup(`<code class="api-path">`)
	b.Text(o.Path)
	b.Markup(`</code>`)
	if o.Op.Flag("deprecated") || p.Deprecated {
		b.Markup(`<span class="field-deprecated">`)
		b.Text(v.l.Deprecated)
		b.Markup(`</span>`)
	}
	b.Markup(`</div>`)
	if len(e.Servers) > 1 {
		b.Markup(`<label class="api-servers">`)
		b.Text(v.l.Server)
		b.Markup(` <select class="api-server-select">`)
		for _, s := range e.Servers {
			b.Markup(`<option`)
			b.Attr("value", s)
			b.Markup(`>`)
			b.Text(s)
			b.Markup(`</option>`)
		}
		b.Markup(`</select></label>`)
	}
	if len(e.Servers) > 0 && !o.Webhook {
		b.Markup(`<p class="api-url"><code`)
		b.Attr("data-path", o.Path)
		b.Markup(`>`)
		b.Text(openapi.JoinURL(e.Servers[0], o.Path))
		b.Markup(`</code></p>`)
	}
	v.description(&b, o.Op.Str("description"))
	top := b.Fragment()
	b.Reset()

	section := sectionWriter(&b, &hs, v.l.Code)
	b.Markup(`<div class="api-reference">`)
	if tryIt {
		w.panel(&b, e, p.Work, v.l)
	}
	if len(e.Security) > 0 {
		section("authorizations", v.l.Authorizations)
		for i, set := range e.Security {
			if i > 0 {
				b.Markup(`<p class="api-or">`)
				b.Text(v.l.Or)
				b.Markup(`</p>`)
			}
			for _, sc := range set {
				authField(&b, sc, v)
			}
		}
	}
	for _, in := range []struct{ in, id, title string }{{"path", "path-parameters", v.l.PathParams}, {"query", "query-parameters", v.l.QueryParams}, {"header", "headers", v.l.Headers}, {"cookie", "cookies", v.l.Cookies}} {
		var ps []openapi.Param
		for _, p := range e.Params {
			if p.In == in.in {
				ps = append(ps, p)
			}
		}
		if len(ps) == 0 {
			continue
		}
		section(in.id, in.title)
		for _, p := range ps {
			schema := p.O.Get("schema")
			if schema == nil {
				schema = openapi.NewObj()
			}
			withDesc := openapi.MergedParam(p.O, schema, v.View)
			v.field(&b, p.Name, p.In, withDesc, p.Required, 0)
		}
	}
	if e.Body != nil {
		section("body", v.l.Body)
		if d := e.Body.Str("description"); d != "" {
			b.HTML(v.md(d))
		}
		content := e.Body.Sub("content")
		for _, mt := range e.Media {
			m := content.Sub(mt)
			mediaLine(&b, mt, e.Body.Flag("required"), v.l)
			if m != nil {
				v.path = []string{"body"}
				v.schemaBlock(&b, m.Get("schema"))
				v.path = nil
			}
		}
	}
	w.callbacks(&b, o, v, section)
	answers := w.responses(&b, e, v, section)
	b.Markup(`</div>`)
	// api.js switches the server and the examples of a status.
	if len(e.Servers) > 1 || slices.ContainsFunc(answers, func(a answer) bool { return len(a.samples) > 1 }) {
		script(&b, prefix, "_static/api.js")
	}
	if tryIt {
		script(&b, prefix, "_static/playground.js")
	}
	ref := Reference{Top: top, Rest: b.Fragment(), Headings: hs}
	if samples := w.requestSamples(e, v.View); !o.Webhook && len(samples) > 0 {
		b.Reset()
		w.codeGroup(&b, samples, p.Work, v.l)
		ref.Request = b.Fragment()
	}
	if len(answers) > 0 {
		b.Reset()
		w.statusGroup(&b, answers, p.Work, v.l)
		ref.Response = b.Fragment()
	}
	return ref
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
func mediaLine(b *markup.Builder, media string, required bool, l *Labels) {
	b.Markup(`<p class="api-media"><code>`)
	b.Text(media)
	b.Markup(`</code>`)
	if required {
		b.Markup(` <span class="field-required">`)
		b.Text(l.Required)
		b.Markup(`</span>`)
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
func (v *schemaWriter) schemaBlock(b *markup.Builder, schema any) {
	if schema == nil {
		return
	}
	f := v.Flatten(schema)
	if len(f.Props.Keys) == 0 && !f.Cyclic && f.O.Get("oneOf") == nil && f.O.Get("anyOf") == nil {
		b.Markup(`<p class="api-schema-type"><span class="field-type">`)
		b.Text(v.TypeLabel(f))
		b.Markup(`</span></p>`)
		if openapi.IsArray(f.O) && len(v.Flatten(f.O.Get("items")).Props.Keys) > 0 {
			v.fields(b, schema, 0)
			return
		}
		if d := f.O.Str("description"); d != "" {
			b.HTML(v.md(d))
		}
		v.facts(b, f.O)
		return
	}
	v.fields(b, schema, 0)
}

func authField(b *markup.Builder, sc openapi.Scheme, v *schemaWriter) {
	name, where, typ, desc := "Authorization", "header", "string", sc.Desc
	switch sc.Type {
	case "bearer":
		if desc == "" {
			desc = v.l.Bearer
		}
	case "basic":
		if desc == "" {
			desc = v.l.Basic
		}
	case "apiKey":
		name, where = sc.Param, sc.In
	default:
		name, where, typ = sc.Name, sc.Type, sc.Type
	}
	o := openapi.NewObj()
	o.Set("type", typ)
	if desc != "" {
		o.Set("description", desc)
	}
	v.field(b, name, where, o, true, 0)
}
