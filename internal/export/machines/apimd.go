// Package machines writes the files machines read: the Markdown copy of
// every page (page.md, with the Markdown of endpoint and data-model pages
// from the openapi model) and its actions, llms.txt and the list
// llms-full.txt joins, robots.txt, sitemap.xml, the meta tags and the
// noindex rule of a page, and the offline search index (an entry per
// page, its vocabulary, the script app.js loads).
//
// It reads the site model (site), docs.json's settings and the openapi
// model, turns a page's MDX into Markdown through mdx, and writes through
// markup. It is given link resolution and
// snippet reading as functions (Options); it knows nothing of the page
// frame, rendering HTML pages or writing the bundle, and never imports
// the facade or frame (depguard).
package machines

import (
	"context"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
)

// APIMarkdown renders the generated part of an endpoint page as Markdown
// for its page.md copy: the method and path, the servers, the
// authorization, the parameters by place, the request body's fields and
// example, and each response with its fields and example. Field lists go
// two levels deep; the example shows the rest.
func APIMarkdown(ctx context.Context, o *openapi.Operation) string {
	v := &openapi.View{Spec: o.Spec, Budget: openapi.ExampleBudget, Work: openapi.NewWork(ctx, openapi.PageWork)}
	e := o.Resolve(v)
	var b strings.Builder
	b.WriteString("```http\n" + o.Method + " " + o.Path + "\n```\n\n")
	if d := strings.TrimSpace(o.Op.Str("description")); d != "" {
		b.WriteString(d + "\n\n")
	}
	if len(e.Servers) > 0 {
		b.WriteString("Servers:\n\n")
		for _, s := range e.Servers {
			b.WriteString("- `" + s + "`\n")
		}
		b.WriteString("\n")
	}
	if len(e.Security) > 0 {
		b.WriteString("## Authorization\n\n")
		for _, set := range e.Security {
			var names []string
			for _, s := range set {
				n := "`" + s.Name + "` (" + s.Type
				if s.Param != "" {
					n += ", " + s.In + " `" + s.Param + "`"
				}
				names = append(names, n+")")
			}
			b.WriteString("- " + strings.Join(names, " and ") + "\n")
		}
		b.WriteString("\n")
	}
	for _, in := range []string{"path", "query", "header", "cookie"} {
		first := true
		for _, p := range e.Params {
			if p.In != in {
				continue
			}
			if first {
				b.WriteString("## " + strings.ToUpper(in[:1]) + in[1:] + " parameters\n\n")
				first = false
			}
			f := v.Flatten(openapi.MergedParam(p.O, p.O.Get("schema"), v))
			fieldMD(&b, "", p.Name, v.TypeLabel(f), p.Required, firstText(p.O.Str("description"), f.O.Str("description")))
		}
		if !first {
			b.WriteString("\n")
		}
	}
	if e.Body != nil && len(e.Media) > 0 {
		b.WriteString("## Body\n\n`" + e.Media[0] + "`\n\n")
		if d := strings.TrimSpace(e.Body.Str("description")); d != "" {
			b.WriteString(d + "\n\n")
		}
		v.Side = openapi.ExRequest
		schemaFieldsMD(&b, v, e.Body.Sub("content").Sub(e.Media[0]).Get("schema"), "", 0)
		exampleMD(&b, "Example", e.Example, v.Work)
	}
	if rs := o.Op.Sub("responses"); rs != nil && len(rs.Keys) > 0 {
		b.WriteString("## Responses\n\n")
		v.Side = openapi.ExResponse
		for _, code := range rs.Keys {
			r, _, err := o.Spec.Deref(rs.Get(code))
			if err != nil || r == nil {
				continue
			}
			b.WriteString("### " + code + "\n\n")
			if d := strings.TrimSpace(r.Str("description")); d != "" {
				b.WriteString(d + "\n\n")
			}
			if c := r.Sub("content"); c != nil && len(c.Keys) > 0 {
				m := c.Sub(c.Keys[0])
				b.WriteString("`" + c.Keys[0] + "`\n\n")
				schemaFieldsMD(&b, v, m.Get("schema"), "", 0)
				exampleMD(&b, "Example", openapi.MediaExample(v, m), v.Work)
			}
		}
	}
	truncatedMD(&b, v.Work)
	return b.String()
}

// truncatedMD says that fields or examples were left out because the
// page reached openapi.PageBytes.
func truncatedMD(b *strings.Builder, work *openapi.Work) {
	if work.Truncated > 0 {
		b.WriteString("_Truncated: the schemas are too large to show in full here._\n")
	}
}

// schemaFieldsMD lists an object schema's properties, nesting one level.
func schemaFieldsMD(b *strings.Builder, v *openapi.View, schema any, indent string, depth int) {
	if schema == nil || depth > 1 {
		return
	}
	f := v.Flatten(schema)
	if openapi.IsArray(f.O) {
		f = v.Flatten(f.O.Get("items"))
	}
	for _, k := range f.Props.Keys {
		pf := v.Flatten(f.Props.Get(k))
		req := false
		for _, r := range f.Required {
			req = req || r == k
		}
		if v.Work.Full() {
			v.Work.Truncate()
			continue
		}
		n := b.Len()
		fieldMD(b, indent, k, v.TypeLabel(pf), req, pf.O.Str("description"))
		v.Work.Wrote(b.Len() - n)
		if !pf.Cyclic && (len(pf.Props.Keys) > 0 || openapi.IsArray(pf.O)) {
			schemaFieldsMD(b, v, f.Props.Get(k), indent+"  ", depth+1)
		}
	}
	if depth == 0 && len(f.Props.Keys) > 0 {
		b.WriteString("\n")
	}
}

// fieldMD writes one parameter or property as a list item.
func fieldMD(b *strings.Builder, indent, name, typ string, required bool, desc string) {
	b.WriteString(indent + "- `" + strings.ReplaceAll(name, "`", "") + "` (" + typ)
	if required {
		b.WriteString(", required")
	}
	b.WriteString(")")
	if d := openapi.FirstLine(desc); d != "" {
		b.WriteString(": " + d)
	}
	b.WriteString("\n")
}

func exampleMD(b *strings.Builder, label string, ex any, work *openapi.Work) {
	if ex == nil {
		return
	}
	s := openapi.Pretty(ex)
	if !work.Fits(len(s)) {
		work.Truncate()
		return
	}
	work.Wrote(len(s))
	fence := "```"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	b.WriteString(label + ":\n\n" + fence + "json\n" + s + "\n" + fence + "\n\n")
}

func firstText(s ...string) string {
	for _, x := range s {
		if strings.TrimSpace(x) != "" {
			return x
		}
	}
	return ""
}

// SchemaMarkdown lists a data model's fields and shows its example.
func SchemaMarkdown(ctx context.Context, r *openapi.SchemaRef) string {
	v := &openapi.View{Spec: r.Spec, Budget: openapi.ExampleBudget, Work: openapi.NewWork(ctx, openapi.PageWork)}
	ref := openapi.NewObj()
	ref.Set("$ref", r.Ref())
	var b strings.Builder
	if d := strings.TrimSpace(v.Flatten(ref).O.Str("description")); d != "" {
		b.WriteString(d + "\n\n")
	}
	b.WriteString("## Fields\n\n")
	schemaFieldsMD(&b, v, ref, "", 0)
	exampleMD(&b, "Example", v.Example(ref, 0), v.Work)
	truncatedMD(&b, v.Work)
	return b.String()
}
