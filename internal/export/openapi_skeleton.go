package export

import "slices"

// skeleton is the JSON body the playground starts with when it does not
// prefill (api.examples.prefill false, the platform's default): the
// required properties and those with a default, at every depth, each
// holding its default or the empty value of its type. The spec's example
// values are left for the reader to type, as on the platform.
func (v *schemaView) skeleton(schema any, depth int) any {
	v.budget--
	f := v.flatten(schema)
	if f.cyclic || depth > maxSchemaDepth || v.budget < 0 {
		return nil
	}
	if d, ok := f.o.m["default"]; ok {
		return d
	}
	if f.ref != "" {
		v.stack = append(v.stack, f.ref)
		defer func() { v.stack = v.stack[:len(v.stack)-1] }()
	}
	if len(f.props.keys) > 0 {
		out := newObj()
		for _, k := range f.props.keys {
			po, _, _ := v.s.deref(f.props.get(k))
			if po == nil || po.flag("readOnly") {
				continue // a request never sends read-only properties
			}
			if _, hasDefault := po.m["default"]; hasDefault || slices.Contains(f.required, k) {
				out.set(k, v.skeleton(f.props.get(k), depth+1))
			}
		}
		return out
	}
	for _, kind := range []string{"oneOf", "anyOf"} {
		if opts := f.o.list(kind); len(opts) > 0 {
			return v.skeleton(opts[0], depth+1) // the first variant, as the reference shows first
		}
	}
	t := f.o.get("type")
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
		return newObj()
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
