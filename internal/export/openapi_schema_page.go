package export

import (
	"fmt"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
)

// schema resolves the openapi-schema frontmatter of a page: a named file's
// schema, else the first spec named by the navigation that has it, else
// any spec of the source.
func (g *apiGen) schema(fm string) (*openapi.SchemaRef, error) {
	f := strings.Fields(fm)
	if len(f) == 0 {
		return nil, fmt.Errorf("openapi-schema %q: want \"Name\" or \"file Name\"", fm)
	}
	name, file := f[len(f)-1], strings.Join(f[:len(f)-1], " ")
	if file != "" {
		s, err := g.specs.Load(file)
		if err != nil {
			return nil, err
		}
		if !s.HasSchema(name) {
			return nil, fmt.Errorf("openapi-schema %q: %s has no schema %s in components.schemas", fm, s.File, name)
		}
		return &openapi.SchemaRef{Spec: s, Name: name}, nil
	}
	for _, s := range g.named {
		if s.HasSchema(name) {
			return &openapi.SchemaRef{Spec: s, Name: name}, nil
		}
	}
	for _, file := range g.specs.Files() {
		if s, err := g.specs.Load(file); err == nil && s.HasSchema(name) {
			return &openapi.SchemaRef{Spec: s, Name: name}, nil
		}
	}
	return nil, fmt.Errorf("openapi-schema %q: no spec of the source has a schema %s in components.schemas", fm, name)
}

// resolveSchemaPages attaches their schema to the pages that name one.
func (j *job) resolveSchemaPages(pages []*page, g *apiGen) {
	for _, p := range pages {
		if p.fm.OpenAPISchema == "" {
			continue
		}
		r, err := g.schema(p.fm.OpenAPISchema)
		if err != nil {
			j.warnAPI("schema page shows no reference", "page", p.file, "error", err.Error())
			continue
		}
		p.schema = r
		if p.fm.Title == "" {
			p.title = r.Name
		}
	}
}

// schemaReference renders the generated part of a schema page, as
// apiReference does for endpoints.
func (j *job) schemaReference(p *page, prefix markup.Prefix) (top, rest markup.HTML, hs []mdx.Heading) {
	r := p.schema
	v := &schemaWriter{View: &openapi.View{Spec: r.Spec, Budget: openapi.SchemaBudget, Warn: j.refWarner(p)},
		md: func(s string) markup.HTML { return j.mdHTML(s, p.key, prefix) }}
	v.post, v.openAll = j.cfg.API.Params.Post, j.cfg.API.Params.Expanded == "all"
	ref := openapi.NewObj()
	ref.Set("$ref", r.Ref())
	f := v.Flatten(ref)
	var b markup.Builder
	stylesheet(&b, prefix, "_static/api.css")
	b.Markup(`<div class="endpoint api-endpoint"><span class="method method-schema">SCHEMA</span><code class="api-path">`)
	b.Text(r.Name)
	b.Markup(`</code>`)
	if f.O.Flag("deprecated") {
		b.Markup(`<span class="field-deprecated">deprecated</span>`)
	}
	b.Markup(`</div>`)
	if d := f.O.Str("description"); d != "" {
		b.Markup(`<div class="api-description">`)
		b.HTML(v.md(d))
		b.Markup(`</div>`)
	}
	top = b.Fragment()
	b.Reset()
	section := sectionWriter(&b, &hs)
	b.Markup(`<div class="api-reference">`)
	section("attributes", "Attributes")
	v.path = []string{"schema"}
	v.schemaBlock(&b, ref)
	v.path = nil
	v.Budget, v.Side = openapi.ExampleBudget, openapi.ExModel
	if ex := v.Example(ref, 0); ex != nil {
		section("example", "Example")
		j.codeGroup(&b, []sample{{title: r.Name, lang: "json", code: openapi.Pretty(ex)}})
	}
	b.Markup(`</div>`)
	return top, b.Fragment(), hs
}

// sectionWriter returns the function the reference pages (endpoints and
// schemas) open a section with: an h2 with its anchor link in b, and the
// heading in hs for the page's table of contents.
func sectionWriter(b *markup.Builder, hs *[]mdx.Heading) func(id, title string) {
	return func(id, title string) {
		*hs = append(*hs, mdx.Heading{Level: 2, ID: id, Text: title})
		b.Markup(`<h2`)
		b.Attr("id", id)
		b.Markup(`>`)
		b.Text(title)
		mdx.SectionAnchor(b, id)
		b.Markup(`</h2>`)
	}
}
