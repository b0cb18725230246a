package openapi

import (
	"slices"
	"strings"
)

// FormKind is "multipart" or "urlencoded" for the form media types and ""
// for any other.
func FormKind(media string) string {
	mt, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(media)), ";")
	switch mt {
	case "multipart/form-data":
		return "multipart"
	case "application/x-www-form-urlencoded":
		return "urlencoded"
	}
	return ""
}

// FormField is one input of a form body in the playground.
type FormField struct {
	Name     string   `json:"name"`
	Type     string   `json:"type,omitempty"`
	Required bool     `json:"required,omitempty"`
	Binary   bool     `json:"binary,omitempty"`   // a file input
	Base64   string   `json:"base64,omitempty"`   // "base64" or "base64url": the file is sent encoded, as text
	Multiple bool     `json:"multiple,omitempty"` // an array: several files or values
	Enum     []string `json:"enum,omitempty"`
	Default  string   `json:"default,omitempty"`
	// Placeholder is what the empty input shows (a ParamField's).
	Placeholder string `json:"placeholder,omitempty"`
}

// Body is one request content type the playground can send: a text
// editor prefilled with Example, or the Fields of a form.
type Body struct {
	Media   string      `json:"media"`
	Form    string      `json:"form,omitempty"` // formKind of Media
	Example string      `json:"example,omitempty"`
	Fields  []FormField `json:"fields,omitempty"`
}

// IsBinary reports a schema of file content sent as bytes: format binary
// (3.0), or (3.1) a contentMediaType that is not a structured type such
// as application/json, as the platform reads it. Base64 content
// (contentEncoding base64 or base64url) stays a text field here.
func IsBinary(o *Obj) bool {
	if o.Str("format") == "binary" {
		return true
	}
	mt := strings.ToLower(strings.TrimSpace(o.Str("contentMediaType")))
	if mt == "" || structuredMedia(mt) {
		return false
	}
	enc := strings.ToLower(o.Str("contentEncoding"))
	return enc != "base64" && enc != "base64url"
}

// base64Encoding is "base64" or "base64url" for file content an API takes
// as encoded text: format base64 (3.0), or (3.1) a binary
// contentMediaType with that contentEncoding; "" for anything else.
func base64Encoding(o *Obj) string {
	if o.Str("format") == "base64" {
		return "base64"
	}
	mt := strings.ToLower(strings.TrimSpace(o.Str("contentMediaType")))
	if mt == "" || structuredMedia(mt) {
		return ""
	}
	if enc := strings.ToLower(o.Str("contentEncoding")); enc == "base64" || enc == "base64url" {
		return enc
	}
	return ""
}

// structuredMedia reports media types the platform never treats as files.
func structuredMedia(mt string) bool {
	mt, _, _ = strings.Cut(mt, ";")
	return strings.HasPrefix(mt, "text/") || strings.HasPrefix(mt, "multipart/") ||
		mt == "application/json" || strings.HasSuffix(mt, "+json") || mt == "application/xml" ||
		strings.HasSuffix(mt, "+xml") || mt == "application/x-www-form-urlencoded"
}

// WrittenExample is the example a media type gives itself, nil when it
// has none: a form field is better empty than prefilled with "<string>".
func WrittenExample(v *View, m *Obj) any {
	if _, ok := m.Lookup("example"); !ok && m.Sub("examples") == nil {
		return nil
	}
	return MediaExample(v, m)
}

// FormFields lists the properties of a form body's schema. example, if an
// object, fills in defaults that the property schemas lack.
func FormFields(v *View, schema any, example any) []FormField {
	f := v.Flatten(schema)
	ex, _ := example.(*Obj)
	var out []FormField
	for _, name := range f.Props.Keys {
		pf := v.Flatten(f.Props.Get(name))
		if pf.O.Flag("readOnly") {
			continue
		}
		fd := FormField{Name: name, Type: v.TypeLabel(pf), Required: slices.Contains(f.Required, name)}
		item := pf.O
		if IsArray(pf.O) {
			fd.Multiple = true
			item = v.Flatten(pf.O.Get("items")).O
		}
		fd.Base64 = base64Encoding(item)
		fd.Binary = IsBinary(item) || fd.Base64 != ""
		for _, x := range item.List("enum") {
			fd.Enum = append(fd.Enum, Plain(x))
		}
		if d, ok := pf.O.Lookup("x-default"); ok && v.Prefill && !fd.Binary {
			fd.Default = Plain(d)
		} else if d, ok := pf.O.Lookup("default"); ok {
			fd.Default = Plain(d)
		} else if d, ok := pf.O.Lookup("example"); ok && !v.NoExamples {
			fd.Default = Plain(d)
		} else if ex != nil && ex.Get(name) != nil && !fd.Binary && !v.NoExamples {
			fd.Default = Plain(ex.Get(name))
		}
		out = append(out, fd)
	}
	return out
}

// PlaygroundBodies lists every content type of the request body, in spec
// order, for the playground's body selector.
func PlaygroundBodies(v *View, e *Endpoint) []Body {
	if e.Body == nil {
		return nil
	}
	content := e.Body.Sub("content")
	var out []Body
	for i, mt := range e.Media {
		m := content.Sub(mt)
		if m == nil {
			continue
		}
		var ex any
		switch {
		case v.NoExamples:
			ex = v.Skeleton(m.Get("schema"), 0)
		case i > 0 || v.Prefill:
			ex = WithXDefaults(v, m.Get("schema"), MediaExample(v, m), 0)
		default:
			ex = e.Example
		}
		b := Body{Media: mt, Form: FormKind(mt)}
		if b.Form != "" {
			b.Fields = FormFields(v, m.Get("schema"), WrittenExample(v, m))
		} else if ex != nil {
			b.Example = Pretty(ex)
		}
		out = append(out, b)
	}
	return out
}

// WithXDefaults is ex with the x-default of each property of schema in
// place of its value, at every depth, when the playground prefills
// (api.examples.prefill). Objects of the spec are copied, never changed:
// other pages share them.
func WithXDefaults(v *View, schema any, ex any, depth int) any {
	if !v.Prefill || depth > MaxSchemaDepth {
		return ex
	}
	f := v.Flatten(schema)
	if f.Cyclic {
		return ex
	}
	if x, ok := f.O.Lookup("x-default"); ok {
		return x
	}
	in, ok := ex.(*Obj)
	if !ok || len(f.Props.Keys) == 0 {
		return ex
	}
	out := NewObj()
	for _, k := range in.Keys {
		out.Set(k, WithXDefaults(v, f.Props.Get(k), in.Get(k), depth+1))
	}
	return out
}

// FormPart is one field of a form body in the generated samples.
type FormPart struct {
	Name, Value string
	File        bool
}

// FormParts are the fields the samples send for a form body: the
// example's values, a placeholder file name for binary properties.
func FormParts(v *View, e *Endpoint) []FormPart {
	m := e.Body.Sub("content").Sub(e.Media[0])
	if m == nil {
		return nil
	}
	var parts []FormPart
	for _, f := range FormFields(v, m.Get("schema"), WrittenExample(v, m)) {
		switch {
		case f.Base64 != "":
			parts = append(parts, FormPart{Name: f.Name, Value: "<" + f.Base64 + " of " + f.Name + ".bin>"})
		case f.Binary:
			parts = append(parts, FormPart{Name: f.Name, Value: f.Name + ".bin", File: true})
		case f.Default != "":
			parts = append(parts, FormPart{Name: f.Name, Value: f.Default})
		default:
			parts = append(parts, FormPart{Name: f.Name, Value: "<" + f.Name + ">"})
		}
	}
	return parts
}

// XDefault is the x-default of a parameter, written on it or its schema.
func XDefault(param, schema *Obj) (any, bool) {
	if d, ok := param.Lookup("x-default"); ok {
		return d, true
	}
	d, ok := schema.Lookup("x-default")
	return d, ok
}
