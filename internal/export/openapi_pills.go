package export

import (
	"encoding/json"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// prePills are the labels a schema's x-mint.pre puts before a field's name.
func prePills(b *markup.Builder, o *obj) {
	for _, l := range pillLabels("", o.sub("x-mint").get("pre")) {
		b.Markup(`<span class="field-pill field-pre">`)
		b.Text(l)
		b.Markup(`</span>`)
	}
}

// postPills are the labels after a field's name and built-in pills: the
// schema keys api.params.post names, then the schema's x-mint.post, in
// the platform's order.
func postPills(b *markup.Builder, o *obj, keys []string) {
	var labels []string
	for _, k := range keys {
		labels = append(labels, pillLabels(k, o.get(k))...)
	}
	labels = append(labels, pillLabels("", o.sub("x-mint").get("post"))...)
	for _, l := range labels {
		b.Markup(`<span class="field-pill">`)
		b.Text(l)
		b.Markup(`</span>`)
	}
}

// pillLabels turns a schema value into pill labels as the platform does:
// a string as written, true as the key's name, a number as written, an
// array one pill per string or number; false, null, "" and objects none.
func pillLabels(key string, v any) []string {
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
		return []string{plain(t)}
	case []any:
		var out []string
		for _, e := range t {
			switch e.(type) {
			case string, json.Number, float64, int:
				if l := plain(e); l != "" {
					out = append(out, l)
				}
			}
		}
		return out
	}
	return nil
}
