package export

import (
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
)

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
