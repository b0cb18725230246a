package export

import (
	"slices"
	"strings"
)

// Form bodies (multipart/form-data and application/x-www-form-urlencoded)
// are sent as fields, not as one document: the playground shows an input
// per property (a file input for binary ones) and the samples build the
// form the way each client does, since a JSON text with a form content
// type is a request no server accepts.

// formKind is "multipart" or "urlencoded" for the form media types and ""
// for any other.
func formKind(media string) string {
	mt, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(media)), ";")
	switch mt {
	case "multipart/form-data":
		return "multipart"
	case "application/x-www-form-urlencoded":
		return "urlencoded"
	}
	return ""
}

// pgField is one input of a form body in the playground.
type pgField struct {
	Name     string   `json:"name"`
	Type     string   `json:"type,omitempty"`
	Required bool     `json:"required,omitempty"`
	Binary   bool     `json:"binary,omitempty"`   // a file input
	Base64   string   `json:"base64,omitempty"`   // "base64" or "base64url": the file is sent encoded, as text
	Multiple bool     `json:"multiple,omitempty"` // an array: several files or values
	Enum     []string `json:"enum,omitempty"`
	Default  string   `json:"default,omitempty"`
}

// pgBody is one request content type the playground can send: a text
// editor prefilled with Example, or the Fields of a form.
type pgBody struct {
	Media   string    `json:"media"`
	Form    string    `json:"form,omitempty"` // formKind of Media
	Example string    `json:"example,omitempty"`
	Fields  []pgField `json:"fields,omitempty"`
}

// isBinary reports a schema of file content sent as bytes: format binary
// (3.0), or (3.1) a contentMediaType that is not a structured type such
// as application/json, as the platform reads it. Base64 content
// (contentEncoding base64 or base64url) stays a text field here.
func isBinary(o *obj) bool {
	if o.str("format") == "binary" {
		return true
	}
	mt := strings.ToLower(strings.TrimSpace(o.str("contentMediaType")))
	if mt == "" || structuredMedia(mt) {
		return false
	}
	enc := strings.ToLower(o.str("contentEncoding"))
	return enc != "base64" && enc != "base64url"
}

// base64Encoding is "base64" or "base64url" for file content an API takes
// as encoded text: format base64 (3.0), or (3.1) a binary
// contentMediaType with that contentEncoding; "" for anything else.
func base64Encoding(o *obj) string {
	if o.str("format") == "base64" {
		return "base64"
	}
	mt := strings.ToLower(strings.TrimSpace(o.str("contentMediaType")))
	if mt == "" || structuredMedia(mt) {
		return ""
	}
	if enc := strings.ToLower(o.str("contentEncoding")); enc == "base64" || enc == "base64url" {
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

// writtenExample is the example a media type gives itself, nil when it
// has none: a form field is better empty than prefilled with "<string>".
func writtenExample(v *schemaView, m *obj) any {
	if _, ok := m.m["example"]; !ok && m.sub("examples") == nil {
		return nil
	}
	return mediaExample(v, m)
}

// formFields lists the properties of a form body's schema. example, if an
// object, fills in defaults that the property schemas lack.
func formFields(v *schemaView, schema any, example any) []pgField {
	f := v.flatten(schema)
	ex, _ := example.(*obj)
	var out []pgField
	for _, name := range f.props.keys {
		pf := v.flatten(f.props.get(name))
		if pf.o.flag("readOnly") {
			continue
		}
		fd := pgField{Name: name, Type: v.typeLabel(pf), Required: slices.Contains(f.required, name)}
		item := pf.o
		if isArray(pf.o) {
			fd.Multiple = true
			item = v.flatten(pf.o.get("items")).o
		}
		fd.Base64 = base64Encoding(item)
		fd.Binary = isBinary(item) || fd.Base64 != ""
		for _, x := range item.list("enum") {
			fd.Enum = append(fd.Enum, plain(x))
		}
		if d, ok := pf.o.m["x-default"]; ok && v.prefill && !fd.Binary {
			fd.Default = plain(d)
		} else if d, ok := pf.o.m["default"]; ok {
			fd.Default = plain(d)
		} else if d, ok := pf.o.m["example"]; ok && !v.noExamples {
			fd.Default = plain(d)
		} else if ex != nil && ex.get(name) != nil && !fd.Binary && !v.noExamples {
			fd.Default = plain(ex.get(name))
		}
		out = append(out, fd)
	}
	return out
}

// playgroundBodies lists every content type of the request body, in spec
// order, for the playground's body selector.
func playgroundBodies(v *schemaView, e *endpoint) []pgBody {
	if e.body == nil {
		return nil
	}
	content := e.body.sub("content")
	var out []pgBody
	for i, mt := range e.media {
		m := content.sub(mt)
		if m == nil {
			continue
		}
		var ex any
		switch {
		case v.noExamples:
			ex = v.skeleton(m.get("schema"), 0)
		case i > 0 || v.prefill:
			ex = withXDefaults(v, m.get("schema"), mediaExample(v, m), 0)
		default:
			ex = e.example
		}
		b := pgBody{Media: mt, Form: formKind(mt)}
		if b.Form != "" {
			b.Fields = formFields(v, m.get("schema"), writtenExample(v, m))
		} else if ex != nil {
			b.Example = pretty(ex)
		}
		out = append(out, b)
	}
	return out
}

// withXDefaults is ex with the x-default of each property of schema in
// place of its value, at every depth, when the playground prefills
// (api.examples.prefill). Objects of the spec are copied, never changed:
// other pages share them.
func withXDefaults(v *schemaView, schema any, ex any, depth int) any {
	if !v.prefill || depth > maxSchemaDepth {
		return ex
	}
	f := v.flatten(schema)
	if f.cyclic {
		return ex
	}
	if x, ok := f.o.m["x-default"]; ok {
		return x
	}
	in, ok := ex.(*obj)
	if !ok || len(f.props.keys) == 0 {
		return ex
	}
	out := newObj()
	for _, k := range in.keys {
		out.set(k, withXDefaults(v, f.props.get(k), in.get(k), depth+1))
	}
	return out
}

// formPart is one field of a form body in the generated samples.
type formPart struct {
	name, value string
	file        bool
}

// formParts are the fields the samples send for a form body: the
// example's values, a placeholder file name for binary properties.
func formParts(v *schemaView, e *endpoint) []formPart {
	m := e.body.sub("content").sub(e.media[0])
	if m == nil {
		return nil
	}
	var parts []formPart
	for _, f := range formFields(v, m.get("schema"), writtenExample(v, m)) {
		switch {
		case f.Base64 != "":
			parts = append(parts, formPart{name: f.Name, value: "<" + f.Base64 + " of " + f.Name + ".bin>"})
		case f.Binary:
			parts = append(parts, formPart{name: f.Name, value: f.Name + ".bin", file: true})
		case f.Default != "":
			parts = append(parts, formPart{name: f.Name, value: f.Default})
		default:
			parts = append(parts, formPart{name: f.Name, value: "<" + f.Name + ">"})
		}
	}
	return parts
}
