package apipages

import (
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
)

// refWarner reports a broken reference of page p's spec once per export.
func (w *Pages) refWarner(p Page) func(error) {
	return func(err error) {
		if _, dup := w.refWarned.LoadOrStore(err.Error(), true); !dup {
			w.warnRef("OpenAPI reference shown by name only", "page", p.Out, "error", err.Error())
		}
	}
}

// Schema renders the generated part of the page p documenting the data
// model r, as Endpoint does for an operation.
func (w *Pages) Schema(r *openapi.SchemaRef, p Page) (top, rest markup.HTML, hs []mdx.Heading) {
	prefix := p.Prefix
	v := &schemaWriter{View: &openapi.View{Spec: r.Spec, Budget: openapi.SchemaBudget, Warn: w.refWarner(p), Work: p.Work}, md: p.Markdown, l: p.labels()}
	v.post, v.openAll = w.api.Params.Post, w.api.Params.Expanded == "all"
	ref := openapi.NewObj()
	ref.Set("$ref", r.Ref())
	f := v.Flatten(ref)
	var b markup.Builder
	stylesheet(&b, prefix, "_static/api.css")
	b.Markup(`<div class="endpoint api-endpoint"><span class="method method-schema">SCHEMA</span><code class="api-path">`)
	b.Text(r.Name)
	b.Markup(`</code>`)
	if f.O.Flag("deprecated") {
		b.Markup(`<span class="field-deprecated">`)
		b.Text(v.l.Deprecated)
		b.Markup(`</span>`)
	}
	b.Markup(`</div>`)
	v.description(&b, f.O.Str("description"))
	top = b.Fragment()
	b.Reset()
	section := sectionWriter(&b, &hs, v.l.Code)
	b.Markup(`<div class="api-reference">`)
	section("attributes", v.l.Attributes)
	v.path = []string{"schema"}
	v.schemaBlock(&b, ref)
	v.path = nil
	v.Budget, v.Side = openapi.ExampleBudget, openapi.ExModel
	if ex := v.Example(ref, 0); ex != nil {
		section("example", v.l.Example)
		w.codeGroup(&b, []sample{{title: r.Name, lang: "json", code: openapi.Pretty(ex)}}, p.Work, v.l)
	}
	b.Markup(`</div>`)
	return top, b.Fragment(), hs
}

// sectionWriter returns the function the reference pages (endpoints and
// schemas) open a section with: an h2 with its anchor link in b, and the
// heading in hs for the page's table of contents. The title is in the
// page's language, the id the same in every language; l names the
// anchor link.
func sectionWriter(b *markup.Builder, hs *[]mdx.Heading, l mdx.Labels) func(id, title string) {
	return func(id, title string) {
		*hs = append(*hs, mdx.Heading{Level: 2, ID: id, Text: title})
		b.Markup(`<h2`)
		b.Attr("id", id)
		b.Markup(`>`)
		b.Text(title)
		mdx.SectionAnchor(b, id, l)
		b.Markup(`</h2>`)
	}
}
