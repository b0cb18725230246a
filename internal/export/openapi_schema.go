package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
)

// MarshalJSON writes the mapping in its original key order, so examples
// print as the spec wrote them.
func (o *obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := marshalText(k)
		b.Write(kb)
		b.WriteByte(':')
		vb, err := marshalText(o.m[k])
		if err != nil {
			return nil, err
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshalText is json.Marshal without the HTML escapes: examples are
// shown as code (and HTML-escaped as such), where <string> must read as
// written rather than as \u003cstring\u003e.
func marshalText(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Which side of an exchange an example shows: a request leaves out
// read-only properties, a response write-only ones, and a data model
// page shows both.
const (
	exRequest = iota
	exResponse
	exModel
)

// Bounds on the schema work of one page: a spec whose references fan out
// (A uses B twice, B uses C twice, ...) would otherwise grow a page
// exponentially. Past them, a schema is shown by name.
const (
	schemaBudget   = 400
	exampleBudget  = 80
	maxSchemaDepth = 12
)

// schemaView renders the schemas of one endpoint page.
type schemaView struct {
	s      *spec
	md     func(string) markup.HTML // Markdown description to HTML
	budget int
	stack  []string // $refs being expanded, to cut recursion
	warned bool
	warn   func(err error) // reports broken references; may be nil
	path   []string        // names of the fields being expanded, for unique ids
	side   int             // exRequest, exResponse or exModel, for examples
	post   []string        // schema keys shown as pills (api.params.post)
	// openAll shows child attributes open (api.params.expanded "all").
	openAll bool
	// prefill puts x-default before any example: set only on the
	// playground's view with api.examples.prefill, so the reference and
	// the samples keep the schema's own values.
	prefill bool
	// noExamples leaves the spec's example values out of the playground
	// (api.examples.prefill false): only defaults fill it in.
	noExamples bool
}

// flat is a schema with its $ref followed and its allOf merged.
type flat struct {
	o        *obj
	name     string // the reference's name, "" for inline schemas
	props    *obj
	required []string
	cyclic   bool // the schema contains itself: shown by name only
	ref      string
}

func (v *schemaView) flatten(schema any) flat {
	f := flat{props: newObj()}
	if so, ok := schema.(*obj); ok {
		f.ref = so.str("$ref")
	}
	if f.ref != "" && slices.Contains(v.stack, f.ref) {
		f.name, f.cyclic, f.o = refName(f.ref), true, newObj()
		return f
	}
	o, name, err := v.s.deref(schema)
	f.o, f.name = o, name
	if err != nil && v.warn != nil {
		v.warn(err)
	}
	if err != nil || o == nil {
		f.o = newObj()
		return f
	}
	v.mergeInto(&f, o, 0)
	return f
}

// mergeInto adds the properties of o and of its allOf parts to f.
func (v *schemaView) mergeInto(f *flat, o *obj, depth int) {
	if depth > maxSchemaDepth {
		return
	}
	if p := o.sub("properties"); p != nil {
		for _, k := range p.keys {
			f.props.set(k, p.get(k))
		}
	}
	for _, r := range o.list("required") {
		if s, ok := r.(string); ok && !slices.Contains(f.required, s) {
			f.required = append(f.required, s)
		}
	}
	for _, part := range o.list("allOf") {
		if po, ok := part.(*obj); ok && slices.Contains(v.stack, po.str("$ref")) {
			continue
		}
		if po, _, err := v.s.deref(part); err == nil && po != nil {
			v.mergeInto(f, po, depth+1)
		}
	}
}

// typeLabel names a schema's type as readers expect it: "string<uuid>",
// "Pet[]", "integer | null".
func (v *schemaView) typeLabel(f flat) string {
	if f.cyclic {
		return f.name
	}
	o := f.o
	var types []string
	nullable := o.flag("nullable")
	switch t := o.get("type").(type) {
	case string:
		types = []string{t}
	case []any: // 3.1 type arrays
		for _, x := range t {
			if s, ok := x.(string); ok {
				if s == "null" {
					nullable = true
				} else {
					types = append(types, s)
				}
			}
		}
	}
	label := strings.Join(types, " | ")
	switch {
	case slices.Contains(types, "array"):
		item := v.flatten(o.get("items"))
		il := v.typeLabel(item)
		if item.name != "" {
			il = item.name
		}
		label = strings.Replace(label, "array", il+"[]", 1)
	case label == "" && o.get("oneOf") != nil:
		label = "oneOf"
	case label == "" && o.get("anyOf") != nil:
		label = "anyOf"
	case label == "" && (len(f.props.keys) > 0 || o.get("allOf") != nil):
		label = "object"
	case label == "":
		label = "any"
	}
	if fm := o.str("format"); fm != "" && len(types) == 1 {
		label += "<" + fm + ">"
	}
	if f.name != "" && (label == "object" || label == "any") {
		label = f.name
	}
	if nullable {
		label += " | null"
	}
	return label
}

// fields writes a field for every property of an object schema (and of
// the object items of an array schema).
func (v *schemaView) fields(b *markup.Builder, schema any, depth int) {
	f := v.flatten(schema)
	if f.cyclic {
		recursive(b, f.name)
		return
	}
	if f.ref != "" {
		v.stack = append(v.stack, f.ref)
		defer func() { v.stack = v.stack[:len(v.stack)-1] }()
	}
	if len(f.props.keys) == 0 && isArray(f.o) {
		v.fields(b, f.o.get("items"), depth)
		return
	}
	for _, k := range f.props.keys {
		v.field(b, k, "", f.props.get(k), slices.Contains(f.required, k), depth)
	}
	v.variants(b, f.o, depth)
}

func isArray(o *obj) bool {
	switch t := o.get("type").(type) {
	case string:
		return t == "array"
	case []any:
		return slices.Contains(t, any("array"))
	}
	return false
}

// field writes one parameter or property with its facts and, for
// objects, arrays of objects and variants, a collapsible list of children.
func (v *schemaView) field(b *markup.Builder, name, where string, schema any, required bool, depth int) {
	v.budget--
	if v.budget < 0 {
		if !v.warned {
			v.warned = true
			b.Markup(`<p class="api-truncated">The schema is too large to show in full here.</p>`)
		}
		return
	}
	f := v.flatten(schema)
	o := f.o
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
	b.Text(v.typeLabel(f))
	b.Markup(`</span>`)
	if required {
		b.Markup(`<span class="field-required">required</span>`)
	}
	if o.flag("deprecated") {
		b.Markup(`<span class="field-deprecated">deprecated</span>`)
	}
	if o.flag("readOnly") {
		b.Markup(`<span class="field-pill">read-only</span>`)
	}
	if o.flag("writeOnly") {
		b.Markup(`<span class="field-pill">write-only</span>`)
	}
	postPills(b, o, v.post)
	if d, ok := o.m["default"]; ok {
		b.Markup(`<span class="field-default">default: <code>`)
		b.Text(plain(d))
		b.Markup(`</code></span>`)
	}
	mdx.FieldAnchor(b, id, name)
	b.Markup(`</div><div class="field-body">`)
	if d := o.str("description"); d != "" {
		b.HTML(v.md(d))
	}
	v.facts(b, o)
	if !f.cyclic && depth < maxSchemaDepth {
		child := f.props.keys
		target := schema
		cyclicItem := ""
		if len(child) == 0 && isArray(o) {
			item := v.flatten(o.get("items"))
			child, target = item.props.keys, o.get("items")
			if item.cyclic {
				cyclicItem = item.name
			}
		}
		if cyclicItem != "" {
			recursive(b, cyclicItem)
		} else if len(child) > 0 || o.get("oneOf") != nil || o.get("anyOf") != nil {
			b.Markup(`<details class="expandable"`)
			if v.openAll {
				b.Markup(` open`)
			}
			b.Markup(`><summary>Show child attributes</summary><div class="details-body">`)
			v.path = append(v.path, name)
			v.fields(b, target, depth+1)
			v.path = v.path[:len(v.path)-1]
			b.Markup(`</div></details>`)
		}
	} else if f.cyclic {
		recursive(b, f.name)
	}
	b.Markup(`</div></div>`)
}

// recursive says that a schema is the one it sits in, shown above.
func recursive(b *markup.Builder, name string) {
	b.Markup(`<p class="api-recursive">Recursive: the same schema as <code>`)
	b.Text(name)
	b.Markup(`</code> above.</p>`)
}

// variants writes the oneOf and anyOf options of a schema.
func (v *schemaView) variants(b *markup.Builder, o *obj, depth int) {
	for _, kind := range []string{"oneOf", "anyOf"} {
		opts := o.list(kind)
		if len(opts) == 0 {
			continue
		}
		b.Markup(`<div class="api-variants"><p class="api-variants-title">`)
		if kind == "oneOf" {
			b.Markup(`One of`)
		} else {
			b.Markup(`Any of`)
		}
		b.Markup(`</p>`)
		for i, opt := range opts {
			f := v.flatten(opt)
			label := f.o.str("title")
			if label == "" {
				label = v.typeLabel(f)
			}
			b.Markup(`<details class="expandable"><summary>Option `)
			b.Text(strconv.Itoa(i+1) + ": " + label)
			b.Markup(`</summary><div class="details-body">`)
			if d := f.o.str("description"); d != "" {
				b.HTML(v.md(d))
			}
			v.facts(b, f.o)
			if depth < maxSchemaDepth {
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
func (v *schemaView) facts(b *markup.Builder, o *obj) {
	if enum := o.list("enum"); len(enum) > 0 {
		b.Markup(`<p class="field-enum">Available options: `)
		for i, e := range enum {
			if i > 0 {
				b.Markup(", ")
			}
			b.Markup(`<code>`)
			b.Text(plain(e))
			b.Markup(`</code>`)
		}
		b.Markup(`</p>`)
	}
	n := 0
	for _, c := range constraintNames {
		val, ok := o.m[c.key]
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
		b.Text(plain(val))
		b.Markup("</code>")
	}
	if n > 0 {
		b.Markup(`</p>`)
	}
	if ex, ok := o.m["example"]; ok {
		b.Markup(`<p class="field-example">Example: <code>`)
		b.Text(plain(ex))
		b.Markup(`</code></p>`)
	}
}

// plain shows a value as a reader would type it: strings bare, the rest
// as JSON.
func plain(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	js, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(js)
}

// example builds an example value for a schema: the spec's own example,
// default, const or first enum value, else one made from the types.
func (v *schemaView) example(schema any, depth int) any {
	v.budget--
	f := v.flatten(schema)
	if f.cyclic || depth > maxSchemaDepth || v.budget < 0 {
		return nil
	}
	o := f.o
	if x, ok := o.m["x-default"]; ok && v.prefill {
		return x
	}
	for _, k := range []string{"example", "default", "const"} {
		if x, ok := o.m[k]; ok {
			return x
		}
	}
	if xs := o.list("examples"); len(xs) > 0 { // 3.1 schema examples
		return xs[0]
	}
	if enum := o.list("enum"); len(enum) > 0 {
		return enum[0]
	}
	if f.ref != "" {
		v.stack = append(v.stack, f.ref)
		defer func() { v.stack = v.stack[:len(v.stack)-1] }()
	}
	if len(f.props.keys) > 0 {
		out := newObj()
		for _, k := range f.props.keys {
			if po, _, _ := v.s.deref(f.props.get(k)); po != nil &&
				(v.side == exRequest && po.flag("readOnly") || v.side == exResponse && po.flag("writeOnly")) {
				continue // a request never sends read-only properties, a response never returns write-only ones
			}
			out.set(k, v.example(f.props.get(k), depth+1))
		}
		return out
	}
	for _, kind := range []string{"oneOf", "anyOf"} {
		if opts := o.list(kind); len(opts) > 0 {
			return v.example(opts[0], depth+1)
		}
	}
	label := v.typeLabel(f)
	switch {
	case isArray(o):
		return []any{v.example(o.get("items"), depth+1)}
	case strings.HasPrefix(label, "integer"), strings.HasPrefix(label, "number"):
		return 0
	case strings.HasPrefix(label, "boolean"):
		return true
	case strings.HasPrefix(label, "object"):
		return newObj()
	case strings.HasPrefix(label, "string"):
		return map[string]string{"date-time": "2024-01-01T00:00:00Z", "date": "2024-01-01", "uuid": "3fa85f64-5717-4562-b3fc-2c963f66afa6",
			"email": "user@example.com", "uri": "https://example.com", "hostname": "example.com"}[o.str("format")] + orString(o.str("format"))
	}
	return nil
}

// orString fills a string example when its format has no sample.
func orString(format string) string {
	switch format {
	case "date-time", "date", "uuid", "email", "uri", "hostname":
		return ""
	}
	return "<string>"
}
