package openapi

import "slices"

// Skeleton is the JSON body the playground starts with when it does not
// prefill (api.examples.prefill false, the platform's default): the
// required properties and those with a default, at every depth, each
// holding its default or the empty value of its type. The spec's example
// values are left for the reader to type, as on the platform.
func (v *View) Skeleton(schema any, depth int) any {
	v.Budget--
	f := v.Flatten(schema)
	if f.Cyclic || f.Cut || depth > MaxSchemaDepth || v.Budget < 0 {
		return nil
	}
	if d, ok := f.O.Lookup("default"); ok {
		return d
	}
	if f.Ref != "" {
		v.Stack = append(v.Stack, f.Ref)
		defer func() { v.Stack = v.Stack[:len(v.Stack)-1] }()
	}
	if len(f.Props.Keys) > 0 {
		out := NewObj()
		for _, k := range f.Props.Keys {
			po, _, _ := v.Spec.Deref(f.Props.Get(k))
			if po == nil || po.Flag("readOnly") {
				continue // a request never sends read-only properties
			}
			if _, hasDefault := po.Lookup("default"); hasDefault || slices.Contains(f.Required, k) {
				out.Set(k, v.Skeleton(f.Props.Get(k), depth+1))
			}
		}
		return out
	}
	for _, kind := range []string{"oneOf", "anyOf"} {
		if opts := f.O.List(kind); len(opts) > 0 {
			return v.Skeleton(opts[0], depth+1) // the first variant, as the reference shows first
		}
	}
	t := f.O.Get("type")
	if ts, ok := t.([]any); ok { // 3.1 type arrays: the first that is not null
		t = nil
		for _, x := range ts {
			if x != "null" {
				t = x
				break
			}
		}
	}
	switch t {
	case "object":
		return NewObj()
	case "array":
		return []any{}
	case "string":
		return ""
	case "integer", "number":
		return 0
	case "boolean":
		return false
	}
	return nil
}
