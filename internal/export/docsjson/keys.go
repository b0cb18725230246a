package docsjson

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
)

// navKeys are the navigation settings the export honours.
var navKeys = map[string]bool{"language": true, "version": true, "product": true, "tab": true, "item": true,
	"anchor": true, "dropdown": true, "group": true, "icon": true, "href": true, "root": true, "hidden": true,
	"tag": true, "expanded": true, "default": true, "languages": true, "versions": true, "products": true,
	"tabs": true, "menu": true, "anchors": true, "dropdowns": true, "groups": true, "pages": true,
	"global": true, "openapi": true, "description": true, "directory": true}

// navValueKeys hold settings rather than navigation; their insides are
// not walked for navigation keys.
var navValueKeys = map[string]bool{"openapi": true, "navbar": true, "footer": true, "banner": true, "icon": true}

// navKeyWhy says, for settings of the platform the export knows it
// leaves out, what a reader of the bundle will miss.
var navKeyWhy = map[string]string{
	"asyncapi": "AsyncAPI channel pages are not generated",
	"sdk":      "SDK reference pages are not generated",
}

// checkNavKeys warns once per navigation setting the export does not
// honour, naming where it first occurs and how often, so that content
// the hosted site would show is never dropped without a word.
func checkNavKeys(nav json.RawMessage, warn func(string, ...any)) {
	var v any
	if len(nav) == 0 || json.Unmarshal(nav, &v) != nil {
		return
	}
	first := map[string]string{}
	count := map[string]int{}
	var order []string
	var walk func(v any, at string)
	walk = func(v any, at string) {
		switch t := v.(type) {
		case []any:
			for i, e := range t {
				walk(e, at+"["+strconv.Itoa(i)+"]")
			}
		case map[string]any:
			for _, k := range sortedKeys(t) {
				if !navKeys[k] && !navValueKeys[k] {
					if count[k] == 0 {
						first[k] = at
						order = append(order, k)
					}
					count[k]++
					continue
				}
				if !navValueKeys[k] {
					walk(t[k], joinPath(at, k))
				}
			}
		}
	}
	walk(v, "navigation")
	for _, k := range order {
		why := navKeyWhy[k]
		if why == "" {
			why = "not supported by the static export yet"
		}
		where := first[k]
		if n := count[k]; n > 1 {
			where += fmt.Sprintf(" and %d more places", n-1)
		}
		warn("docs.json: the navigation setting %q at %s is ignored: %s", k, where, why)
	}
}

// checkSubKeys warns about the settings of the object setting name
// ("styling", "interaction") the export leaves out; honoured are those it
// uses.
func checkSubKeys(name string, raw json.RawMessage, warn func(string, ...any), honoured ...string) {
	var m map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil {
		return
	}
	for _, k := range sortedKeys(m) {
		if !slices.Contains(honoured, k) {
			warn("docs.json: the setting \"%s.%s\" is not supported by the static export yet; ignored", name, k)
		}
	}
}

// sortedKeys returns the keys of m in order, so that warnings and output
// do not depend on map order.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
