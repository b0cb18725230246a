package export

import (
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
)

// A page with frontmatter `openapi-schema: Name` (or `file.yaml Name`)
// documents a data model: the component schema of that name, rendered
// with the same fields as endpoint pages and an example, above or below
// nothing but the page's own content.

// schemaRef is the component schema a page documents.
type schemaRef struct {
	spec *spec
	name string
}

// ref is the schema's internal reference, escaped as a JSON pointer.
func (r *schemaRef) ref() string {
	return "#/components/schemas/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(r.name)
}

func (s *spec) hasSchema(name string) bool {
	return s.root.sub("components").sub("schemas").get(name) != nil
}

// schema resolves the openapi-schema frontmatter of a page: a named file's
// schema, else the first spec named by the navigation that has it, else
// any spec of the source.
func (g *apiGen) schema(fm string) (*schemaRef, error) {
	f := strings.Fields(fm)
	if len(f) == 0 {
		return nil, fmt.Errorf("openapi-schema %q: want \"Name\" or \"file Name\"", fm)
	}
	name, file := f[len(f)-1], strings.Join(f[:len(f)-1], " ")
	if file != "" {
		s, err := g.specs.load(file)
		if err != nil {
			return nil, err
		}
		if !s.hasSchema(name) {
			return nil, fmt.Errorf("openapi-schema %q: %s has no schema %s in components.schemas", fm, s.file, name)
		}
		return &schemaRef{s, name}, nil
	}
	for _, s := range g.named {
		if s.hasSchema(name) {
			return &schemaRef{s, name}, nil
		}
	}
	for _, file := range g.specs.files() {
		if s, err := g.specs.load(file); err == nil && s.hasSchema(name) {
			return &schemaRef{s, name}, nil
		}
	}
	return nil, fmt.Errorf("openapi-schema %q: no spec of the source has a schema %s in components.schemas", fm, name)
}

// files lists the JSON and YAML files of the source that may be specs,
// walking the source once.
func (ss *specs) files() []string {
	if !ss.walked {
		ss.walked = true
		_ = fs.WalkDir(ss.src, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if p != "." && skipDir(d.Name()) {
					return fs.SkipDir
				}
				return nil
			}
			switch path.Ext(p) {
			case ".json", ".yaml", ".yml":
				if p != "docs.json" && d.Type().IsRegular() {
					ss.all = append(ss.all, p)
				}
			}
			return nil
		})
	}
	return ss.all
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
			p.title = r.name
		}
	}
}

// schemaReference renders the generated part of a schema page, as
// apiReference does for endpoints.
func (j *job) schemaReference(p *page, prefix markup.Prefix) (top, rest markup.HTML, hs []mdx.Heading) {
	r := p.schema
	v := &schemaView{s: r.spec, budget: schemaBudget, md: func(s string) markup.HTML { return j.mdHTML(s, p.key, prefix) },
		warn: func(err error) {
			if _, dup := j.apiWarns.LoadOrStore(err.Error(), true); !dup {
				j.warnAPI("OpenAPI reference shown by name only", "page", p.out, "error", err.Error())
			}
		}}
	v.post, v.openAll = j.cfg.API.Params.Post, j.cfg.API.Params.Expanded == "all"
	ref := newObj()
	ref.set("$ref", r.ref())
	f := v.flatten(ref)
	var b markup.Builder
	stylesheet(&b, prefix, "_static/api.css")
	b.Markup(`<div class="endpoint api-endpoint"><span class="method method-schema">SCHEMA</span><code class="api-path">`)
	b.Text(r.name)
	b.Markup(`</code>`)
	if f.o.flag("deprecated") {
		b.Markup(`<span class="field-deprecated">deprecated</span>`)
	}
	b.Markup(`</div>`)
	if d := f.o.str("description"); d != "" {
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
	v.budget, v.side = exampleBudget, exModel
	if ex := v.example(ref, 0); ex != nil {
		section("example", "Example")
		j.codeGroup(&b, []sample{{title: r.name, lang: "json", code: pretty(ex)}})
	}
	b.Markup(`</div>`)
	return top, b.Fragment(), hs
}

// searchText is what readers find a schema page by: its name and the
// names of its properties.
func (r *schemaRef) searchText() string {
	v := &schemaView{s: r.spec, budget: schemaBudget}
	ref := newObj()
	ref.set("$ref", r.ref())
	return r.name + " " + strings.Join(v.flatten(ref).props.keys, " ")
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
