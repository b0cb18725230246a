package apipages

import (
	"slices"
	"strconv"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/components"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
)

// schemaWriter writes the schemas of one page as HTML fields.
type schemaWriter struct {
	*openapi.View
	md     func(string) markup.HTML // Markdown description to HTML
	warned bool
	l      *Labels  // the interface texts in the page's language
	path   []string // names of the fields being expanded, for unique ids
	post   []string // schema keys shown as pills (api.params.post)
	// openAll shows child attributes open (api.params.expanded "all").
	openAll bool
}

// fields writes a field for every property of an object schema (and of
// the object items of an array schema).
func (v *schemaWriter) fields(b *markup.Builder, schema any, depth int) {
	f := v.Flatten(schema)
	if f.Cyclic {
		recursive(b, f.Name, v.l)
		return
	}
	if f.Cut && len(f.Props.Keys) == 0 {
		truncated(b, f.Name)
		return
	}
	if f.Ref != "" {
		v.Stack = append(v.Stack, f.Ref)
		defer func() { v.Stack = v.Stack[:len(v.Stack)-1] }()
	}
	if len(f.Props.Keys) == 0 && openapi.IsArray(f.O) {
		v.fields(b, f.O.Get("items"), depth)
		return
	}
	for _, k := range f.Props.Keys {
		v.field(b, k, "", f.Props.Get(k), slices.Contains(f.Required, k), depth)
	}
	v.variants(b, f.O, depth)
}

// field writes one parameter or property with its facts and, for
// objects, arrays of objects and variants, a collapsible list of children.
func (v *schemaWriter) field(b *markup.Builder, name, where string, schema any, required bool, depth int) {
	v.Budget--
	if full := v.Work.Full(); v.Budget < 0 || full {
		if full {
			v.Work.Truncate()
		}
		if !v.warned {
			v.warned = true
			b.Markup(`<p class="api-truncated">`)
			b.Text(v.l.TooLarge)
			b.Markup(`</p>`)
		}
		return
	}
	start := b.Len()
	f := v.Flatten(schema)
	o := f.O
	id := "field"
	if where != "" {
		id += "-" + where
	}
	id += "-" + strings.Join(append(v.path, name), "-")
	id = markup.Slug(id)
	b.Markup(`<div class="field"`)
	b.Attr("id", id)
	b.Markup(`><div class="field-head">`)
	prePills(b, o)
	b.Markup(`<code class="field-name">`)
	b.Text(name)
	b.Markup(`</code>`)
	if where != "" {
		b.Markup(`<span class="field-in">`)
		b.Text(where)
		b.Markup(`</span>`)
	}
	b.Markup(`<span class="field-type">`)
	b.Text(v.TypeLabel(f))
	b.Markup(`</span>`)
	if required {
		b.Markup(`<span class="field-required">`)
		b.Text(v.l.Required)
		b.Markup(`</span>`)
	}
	if o.Flag("deprecated") {
		b.Markup(`<span class="field-deprecated">`)
		b.Text(v.l.Deprecated)
		b.Markup(`</span>`)
	}
	if o.Flag("readOnly") {
		b.Markup(`<span class="field-pill">`)
		b.Text(v.l.ReadOnly)
		b.Markup(`</span>`)
	}
	if o.Flag("writeOnly") {
		b.Markup(`<span class="field-pill">`)
		b.Text(v.l.WriteOnly)
		b.Markup(`</span>`)
	}
	postPills(b, o, v.post)
	if d, ok := o.Lookup("default"); ok {
		b.Markup(`<span class="field-default">`)
		b.Text(v.l.Default + v.l.Colon)
		b.Markup(`<code>`)
		b.Text(openapi.Plain(d))
		b.Markup(`</code></span>`)
	}
	components.FieldAnchor(b, id, name)
	b.Markup(`</div><div class="field-body">`)
	if d := o.Str("description"); d != "" {
		b.HTML(v.md(d))
	}
	v.facts(b, o)
	// The field itself, before its children (which count for themselves).
	v.Work.Wrote(b.Len() - start)
	if !f.Cyclic && depth < openapi.MaxSchemaDepth {
		child := f.Props.Keys
		target := schema
		cyclicItem := ""
		if len(child) == 0 && openapi.IsArray(o) {
			item := v.Flatten(o.Get("items"))
			child, target = item.Props.Keys, o.Get("items")
			if item.Cyclic {
				cyclicItem = item.Name
			}
		}
		if cyclicItem != "" {
			recursive(b, cyclicItem, v.l)
		} else if len(child) > 0 || o.Get("oneOf") != nil || o.Get("anyOf") != nil {
			b.Markup(`<details class="expandable"`)
			if v.openAll {
				b.Markup(` open`)
			}
			b.Markup(`><summary>`)
			b.Text(v.l.ShowChildren)
			b.Markup(`</summary><div class="details-body">`)
			v.path = append(v.path, name)
			v.fields(b, target, depth+1)
			v.path = v.path[:len(v.path)-1]
			b.Markup(`</div></details>`)
		}
	} else if f.Cyclic {
		recursive(b, f.Name, v.l)
	}
	b.Markup(`</div></div>`)
}

// truncated stands for a schema the page had no work left to expand: its
// name (when it has one) and an ellipsis.
func truncated(b *markup.Builder, name string) {
	b.Markup(`<p class="api-truncated">`)
	if name != "" {
		b.Markup(`<code>`)
		b.Text(name)
		b.Markup(`</code> `)
	}
	b.Markup(`…</p>`)
}

// recursive says that a schema is the one it sits in, shown above.
func recursive(b *markup.Builder, name string, l *Labels) {
	before, after := split(l.Recursive, "{name}")
	b.Markup(`<p class="api-recursive">`)
	b.Text(before)
	b.Markup(`<code>`)
	b.Text(name)
	b.Markup(`</code>`)
	b.Text(after)
	b.Markup(`</p>`)
}

// variants writes the oneOf and anyOf options of a schema.
func (v *schemaWriter) variants(b *markup.Builder, o *openapi.Obj, depth int) {
	for _, kind := range []string{"oneOf", "anyOf"} {
		opts := o.List(kind)
		if len(opts) == 0 {
			continue
		}
		b.Markup(`<div class="api-variants"><p class="api-variants-title">`)
		if kind == "oneOf" {
			b.Text(v.l.OneOf)
		} else {
			b.Text(v.l.AnyOf)
		}
		b.Markup(`</p>`)
		for i, opt := range opts {
			f := v.Flatten(opt)
			label := f.O.Str("title")
			if label == "" {
				label = v.TypeLabel(f)
			}
			b.Markup(`<details class="expandable"><summary>`)
			b.Text(fill(v.l.Option, "{n}", strconv.Itoa(i+1)) + v.l.Colon + label)
			b.Markup(`</summary><div class="details-body">`)
			if d := f.O.Str("description"); d != "" {
				b.HTML(v.md(d))
			}
			v.facts(b, f.O)
			if depth < openapi.MaxSchemaDepth {
				v.fields(b, opt, depth+1)
			}
			b.Markup(`</div></details>`)
		}
		b.Markup(`</div>`)
	}
}

// constraintNames label the validation keywords shown under a field.
var constraintNames = []struct{ key, label string }{
	{"minimum", "min"}, {"maximum", "max"}, {"exclusiveMinimum", "exclusive min"}, {"exclusiveMaximum", "exclusive max"},
	{"multipleOf", "multiple of"}, {"minLength", "min length"}, {"maxLength", "max length"}, {"pattern", "pattern"},
	{"minItems", "min items"}, {"maxItems", "max items"}, {"uniqueItems", "unique items"},
	{"minProperties", "min properties"}, {"maxProperties", "max properties"}, {"const", "const"},
}

// facts lists enum values, constraints and the example of a schema.
func (v *schemaWriter) facts(b *markup.Builder, o *openapi.Obj) {
	if enum := o.List("enum"); len(enum) > 0 {
		b.Markup(`<p class="field-enum">`)
		b.Text(v.l.Options + v.l.Colon)
		for i, e := range enum {
			if i > 0 {
				b.Markup(", ")
			}
			b.Markup(`<code>`)
			b.Text(openapi.Plain(e))
			b.Markup(`</code>`)
		}
		b.Markup(`</p>`)
	}
	n := 0
	for _, c := range constraintNames {
		val, ok := o.Lookup(c.key)
		if !ok || val == false {
			continue
		}
		if n == 0 {
			b.Markup(`<p class="field-constraints">`)
		} else {
			b.Markup(" · ")
		}
		n++
		b.Text(c.label)
		if val == true { // 3.0 exclusive bounds and uniqueItems are flags
			continue
		}
		b.Markup(": <code>")
		b.Text(openapi.Plain(val))
		b.Markup("</code>")
	}
	if n > 0 {
		b.Markup(`</p>`)
	}
	if ex, ok := o.Lookup("example"); ok {
		b.Markup(`<p class="field-example">`)
		b.Text(v.l.Example + v.l.Colon)
		b.Markup(`<code>`)
		b.Text(openapi.Plain(ex))
		b.Markup(`</code></p>`)
	}
}

// prePills are the labels a schema's x-mint.pre puts before a field's name.
func prePills(b *markup.Builder, o *openapi.Obj) {
	for _, l := range openapi.PillLabels("", o.Sub("x-mint").Get("pre")) {
		b.Markup(`<span class="field-pill field-pre">`)
		b.Text(l)
		b.Markup(`</span>`)
	}
}

// postPills are the labels after a field's name and built-in pills: the
// schema keys api.params.post names, then the schema's x-mint.post, in
// the platform's order.
func postPills(b *markup.Builder, o *openapi.Obj, keys []string) {
	var labels []string
	for _, k := range keys {
		labels = append(labels, openapi.PillLabels(k, o.Get(k))...)
	}
	labels = append(labels, openapi.PillLabels("", o.Sub("x-mint").Get("post"))...)
	for _, l := range labels {
		b.Markup(`<span class="field-pill">`)
		b.Text(l)
		b.Markup(`</span>`)
	}
}

// description writes the Markdown description of an operation or data
// model under its title line, if it has one.
func (v *schemaWriter) description(b *markup.Builder, d string) {
	if d == "" {
		return
	}
	b.Markup(`<div class="api-description">`)
	b.HTML(v.md(d))
	b.Markup(`</div>`)
}
