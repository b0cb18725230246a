package openapi

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Endpoint is an operation with everything its page needs resolved.
type Endpoint struct {
	Op       *Operation
	Servers  []string
	Params   []Param
	Security [][]Scheme // alternatives, each a set of schemes used together
	Body     *Obj       // the request body, nil when none
	Media    []string   // request content types in spec order
	Example  any        // example of the first request content type
}

// Param is a parameter of an operation, path-item ones merged in.
type Param struct {
	Name, In string
	Required bool
	O        *Obj
}

// Scheme is a security scheme an operation accepts, as the playground
// reads it (JSON) and the reference shows it.
type Scheme struct {
	Name   string `json:"name"`
	Type   string `json:"type"`              // "bearer", "basic", "apiKey", "oauth2", "openIdConnect"
	In     string `json:"in,omitempty"`      // header, query or cookie, for apiKey
	Param  string `json:"param,omitempty"`   // the header, query or cookie name
	Prefil string `json:"prefill,omitempty"` // x-default
	Desc   string `json:"-"`                 // shown in the reference, not sent to the playground
}

// Resolve gathers the operation's servers, parameters, security and body.
func (o *Operation) Resolve(v *View) *Endpoint {
	s := o.Spec
	e := &Endpoint{Op: o, Servers: s.Servers}
	for _, src := range []*Obj{o.Item, o.Op} {
		var list []string
		for _, sv := range src.List("servers") {
			if so, ok := sv.(*Obj); ok && so.Str("url") != "" {
				list = append(list, ServerURL(so))
			}
		}
		if len(list) > 0 {
			e.Servers = list
		}
	}
	// Operation parameters override path-item ones of the same name and place.
	for _, src := range []*Obj{o.Item, o.Op} {
		for _, raw := range src.List("parameters") {
			po, _, err := s.Deref(raw)
			if err != nil || po == nil || po.Str("name") == "" {
				continue
			}
			p := Param{Name: po.Str("name"), In: po.Str("in"), Required: po.Flag("required") || po.Str("in") == "path", O: po}
			replaced := false
			for i := range e.Params {
				if e.Params[i].Name == p.Name && e.Params[i].In == p.In {
					e.Params[i], replaced = p, true
				}
			}
			if !replaced {
				e.Params = append(e.Params, p)
			}
		}
	}
	reqs := s.Root.List("security")
	if sec, ok := o.Op.Lookup("security"); ok {
		reqs, _ = sec.([]any)
	}
	schemes := s.Root.Sub("components").Sub("securitySchemes")
	for _, r := range reqs {
		ro, ok := r.(*Obj)
		if !ok {
			continue
		}
		var set []Scheme
		for _, name := range ro.Keys {
			so, _, err := s.Deref(schemes.Get(name))
			if err != nil || so == nil {
				continue
			}
			sc := Scheme{Name: name, Type: so.Str("type"), In: so.Str("in"), Param: so.Str("name"), Prefil: so.Str("x-default"), Desc: so.Str("description")}
			if sc.Type == "http" {
				sc.Type = strings.ToLower(so.Str("scheme"))
			}
			set = append(set, sc)
		}
		if len(set) > 0 {
			e.Security = append(e.Security, set)
		}
	}
	if rb, _, err := s.Deref(o.Op.Get("requestBody")); err == nil && rb != nil {
		e.Body = rb
		content := rb.Sub("content")
		if content != nil {
			e.Media = content.Keys
		}
		if len(e.Media) > 0 {
			e.Example = MediaExample(v, content.Sub(e.Media[0]))
		}
	}
	return e
}

// MediaExample is the first example a media type gives, else one built
// from its schema.
func MediaExample(v *View, m *Obj) any {
	if m == nil {
		return nil
	}
	if ex, ok := m.Lookup("example"); ok {
		return ex
	}
	if exs := m.Sub("examples"); exs != nil && len(exs.Keys) > 0 {
		if eo, _, err := v.Spec.Deref(exs.Get(exs.Keys[0])); err == nil && eo != nil {
			return eo.Get("value")
		}
	}
	return v.Example(m.Get("schema"), 0)
}

// MergedParam lets a parameter's own description and example show with
// its schema's type and constraints.
func MergedParam(p *Obj, schema any, v *View) any {
	so, _, err := v.Spec.Deref(schema)
	if err != nil || so == nil {
		return schema
	}
	m := NewObj()
	for _, k := range so.Keys {
		m.Set(k, so.Get(k))
	}
	for _, k := range []string{"description", "example", "deprecated"} {
		if x, ok := p.Lookup(k); ok {
			m.Set(k, x)
		}
	}
	return m
}

// Pretty prints a value as indented JSON, strings as they are.
func Pretty(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return Plain(v)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// FirstLine is the first line of s, trimmed: a description as a summary.
func FirstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// JoinURL appends an operation's path to a server URL.
func JoinURL(server, p string) string {
	return strings.TrimSuffix(server, "/") + p
}

// SearchText is what offline search finds an endpoint page by besides its
// title: the method, path and parameter names.
func (o *Operation) SearchText() string {
	parts := []string{o.Method, o.Path}
	for _, src := range []*Obj{o.Item, o.Op} {
		for _, raw := range src.List("parameters") {
			if po, _, err := o.Spec.Deref(raw); err == nil && po != nil {
				parts = append(parts, po.Str("name"))
			}
		}
	}
	return strings.Join(parts, " ")
}
