package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// MarshalJSON writes the mapping in its original key order, so examples
// print as the spec wrote them.
func (o *Obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.Keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := marshalText(k)
		b.Write(kb)
		b.WriteByte(':')
		vb, err := marshalText(o.vals[i])
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
	ExRequest = iota
	ExResponse
	ExModel
)

// Bounds on the schema work of one page: a spec whose references fan out
// (A uses B twice, B uses C twice, ...) would otherwise grow a page
// exponentially. Past them, a schema is shown by name.
const (
	SchemaBudget   = 400
	ExampleBudget  = 80
	MaxSchemaDepth = 12
)

// View reads the schemas of one page of a spec: it follows
// references, merges allOf, names types and builds examples, spending one
// budget on all of it.
type View struct {
	Spec   *Spec
	Budget int
	Stack  []string        // $refs being expanded, to cut recursion
	Warn   func(err error) // reports broken references; may be nil
	Side   int             // exRequest, exResponse or exModel, for examples
	// prefill puts x-default before any example: set only on the
	// playground's view with api.examples.prefill, so the reference and
	// the samples keep the schema's own values.
	Prefill bool
	// noExamples leaves the spec's example values out of the playground
	// (api.examples.prefill false): only defaults fill it in.
	NoExamples bool
	// Work is the page's budget of expansion steps, shared by its views;
	// nil is unbounded (a single schema's search text).
	Work *Work
}

// Flat is a schema with its $ref followed and its allOf merged.
type Flat struct {
	O        *Obj
	Name     string // the reference's name, "" for inline schemas
	Props    *Obj
	Required []string
	Cyclic   bool // the schema contains itself: shown by name only
	// Cut: the page's expansion work ran out before this schema, which is
	// shown by name with "…".
	Cut bool
	Ref string
}

// Flatten follows a schema's $ref and merges its allOf parts.
func (v *View) Flatten(schema any) Flat {
	f := Flat{Props: NewObj()}
	if so, ok := schema.(*Obj); ok {
		f.Ref = so.Str("$ref")
	}
	if f.Ref != "" && slices.Contains(v.Stack, f.Ref) {
		f.Name, f.Cyclic, f.O = RefName(f.Ref), true, NewObj()
		return f
	}
	if !v.Work.spend() {
		return v.cut(f)
	}
	o, name, err := v.Spec.Deref(schema)
	f.O, f.Name = o, name
	if err != nil && v.Warn != nil {
		v.Warn(err)
	}
	if err != nil || o == nil {
		f.O = NewObj()
		return f
	}
	v.mergeInto(&f, o, 0)
	return f
}

// cut is the flat form of a schema the page has no work left for: its
// name, nothing expanded.
func (v *View) cut(f Flat) Flat {
	f.Name, f.Cut, f.O = RefName(f.Ref), true, NewObj()
	if f.Ref == "" {
		f.Name = ""
	}
	v.Work.Cut++
	return f
}

// mergeInto adds the properties of o and of its allOf parts to f.
func (v *View) mergeInto(f *Flat, o *Obj, depth int) {
	if depth > MaxSchemaDepth {
		return
	}
	if p := o.Sub("properties"); p != nil {
		for _, k := range p.Keys {
			f.Props.Set(k, p.Get(k))
		}
	}
	for _, r := range o.List("required") {
		if s, ok := r.(string); ok && !slices.Contains(f.Required, s) {
			f.Required = append(f.Required, s)
		}
	}
	for _, part := range o.List("allOf") {
		if po, ok := part.(*Obj); ok && slices.Contains(v.Stack, po.Str("$ref")) {
			continue
		}
		if !v.Work.spend() {
			f.Cut = true
			v.Work.Cut++
			return
		}
		if po, _, err := v.Spec.Deref(part); err == nil && po != nil {
			v.mergeInto(f, po, depth+1)
		}
	}
}

// TypeLabel names a schema's type as readers expect it: "string<uuid>",
// "Pet[]", "integer | null".
func (v *View) TypeLabel(f Flat) string {
	if f.Cyclic {
		return f.Name
	}
	if f.Cut && len(f.Props.Keys) == 0 {
		if f.Name == "" {
			return "…"
		}
		return f.Name + " …"
	}
	o := f.O
	var types []string
	nullable := o.Flag("nullable")
	switch t := o.Get("type").(type) {
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
		item := v.Flatten(o.Get("items"))
		il := v.TypeLabel(item)
		if item.Name != "" {
			il = item.Name
		}
		label = strings.Replace(label, "array", il+"[]", 1)
	case label == "" && o.Get("oneOf") != nil:
		label = "oneOf"
	case label == "" && o.Get("anyOf") != nil:
		label = "anyOf"
	case label == "" && (len(f.Props.Keys) > 0 || o.Get("allOf") != nil):
		label = "object"
	case label == "":
		label = "any"
	}
	if fm := o.Str("format"); fm != "" && len(types) == 1 {
		label += "<" + fm + ">"
	}
	if f.Name != "" && (label == "object" || label == "any") {
		label = f.Name
	}
	if nullable {
		label += " | null"
	}
	return label
}

// IsArray reports an array schema (3.0 type or a 3.1 type list).
func IsArray(o *Obj) bool {
	switch t := o.Get("type").(type) {
	case string:
		return t == "array"
	case []any:
		return slices.Contains(t, any("array"))
	}
	return false
}

// Plain shows a value as a reader would type it: strings bare, the rest
// as JSON.
func Plain(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	js, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(js)
}

// Example builds an example value for a schema: the spec's own example,
// default, const or first enum value, else one made from the types.
func (v *View) Example(schema any, depth int) any {
	v.Budget--
	f := v.Flatten(schema)
	if f.Cyclic || f.Cut || depth > MaxSchemaDepth || v.Budget < 0 {
		return nil
	}
	o := f.O
	if x, ok := o.Lookup("x-default"); ok && v.Prefill {
		return x
	}
	for _, k := range []string{"example", "default", "const"} {
		if x, ok := o.Lookup(k); ok {
			return x
		}
	}
	if xs := o.List("examples"); len(xs) > 0 { // 3.1 schema examples
		return xs[0]
	}
	if enum := o.List("enum"); len(enum) > 0 {
		return enum[0]
	}
	if f.Ref != "" {
		v.Stack = append(v.Stack, f.Ref)
		defer func() { v.Stack = v.Stack[:len(v.Stack)-1] }()
	}
	if len(f.Props.Keys) > 0 {
		out := NewObj()
		for _, k := range f.Props.Keys {
			if po, _, _ := v.Spec.Deref(f.Props.Get(k)); po != nil &&
				(v.Side == ExRequest && po.Flag("readOnly") || v.Side == ExResponse && po.Flag("writeOnly")) {
				continue // a request never sends read-only properties, a response never returns write-only ones
			}
			out.Set(k, v.Example(f.Props.Get(k), depth+1))
		}
		return out
	}
	for _, kind := range []string{"oneOf", "anyOf"} {
		if opts := o.List(kind); len(opts) > 0 {
			return v.Example(opts[0], depth+1)
		}
	}
	label := v.TypeLabel(f)
	switch {
	case IsArray(o):
		return []any{v.Example(o.Get("items"), depth+1)}
	case strings.HasPrefix(label, "integer"), strings.HasPrefix(label, "number"):
		return 0
	case strings.HasPrefix(label, "boolean"):
		return true
	case strings.HasPrefix(label, "object"):
		return NewObj()
	case strings.HasPrefix(label, "string"):
		return map[string]string{"date-time": "2024-01-01T00:00:00Z", "date": "2024-01-01", "uuid": "3fa85f64-5717-4562-b3fc-2c963f66afa6",
			"email": "user@example.com", "uri": "https://example.com", "hostname": "example.com"}[o.Str("format")] + orString(o.Str("format"))
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

// PillLabels turns a schema value into pill labels as the platform does:
// a string as written, true as the key's name, a number as written, an
// array one pill per string or number; false, null, "" and objects none.
func PillLabels(key string, v any) []string {
	switch t := v.(type) {
	case string:
		if t != "" {
			return []string{t}
		}
	case bool:
		if t && key != "" {
			return []string{key}
		}
	case json.Number:
		return []string{t.String()}
	case float64, int:
		return []string{Plain(t)}
	case []any:
		var out []string
		for _, e := range t {
			switch e.(type) {
			case string, json.Number, float64, int:
				if l := Plain(e); l != "" {
					out = append(out, l)
				}
			}
		}
		return out
	}
	return nil
}
