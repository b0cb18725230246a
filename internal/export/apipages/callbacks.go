package apipages

import (
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
)

// callbacks writes the requests an operation's API sends back to a URL the
// caller gave (OpenAPI callbacks): for each, its method, the expression
// of the URL, the body it sends and the answers it expects. The platform
// shows them between the request body and the responses.
func (w *Pages) callbacks(b *markup.Builder, o *openapi.Operation, v *schemaWriter, section func(id, title string)) {
	cbs := o.Op.Sub("callbacks")
	if cbs == nil || len(cbs.Keys) == 0 {
		return
	}
	section("callbacks", v.l.Callbacks)
	for _, name := range cbs.Keys {
		cb, _, err := v.Spec.Deref(cbs.Get(name))
		if err != nil || cb == nil {
			continue
		}
		for _, expr := range cb.Keys {
			item, _, err := v.Spec.Deref(cb.Get(expr))
			if err != nil || item == nil {
				continue
			}
			for _, m := range openapi.HTTPMethods {
				op, _, err := v.Spec.Deref(item.Get(m))
				if err != nil || op == nil {
					continue
				}
				w.callback(b, name, strings.ToUpper(m), expr, op, v)
			}
		}
	}
}

// callback writes one request of a callback, collapsed under its method
// and URL expression. Field ids carry the callback's name so they never
// clash with the operation's own.
func (w *Pages) callback(b *markup.Builder, name, method, expr string, op *openapi.Obj, v *schemaWriter) {
	b.Markup(`<details class="api-response api-callback"><summary>`)
	methodBadge(b, method)
	b.Markup(` <code>`)
	b.Text(expr)
	b.Markup(`</code> `)
	b.Text(name)
	b.Markup(`</summary><div class="details-body">`)
	if d := op.Str("description"); d != "" {
		b.HTML(v.md(d))
	}
	if rb, _, err := v.Spec.Deref(op.Get("requestBody")); err == nil && rb != nil {
		if content := rb.Sub("content"); content != nil {
			b.Markup(`<p class="api-subtitle">`)
			b.Text(v.l.Body)
			b.Markup(`</p>`)
			for _, mt := range content.Keys {
				mediaLine(b, mt, false, v.l)
				v.path = []string{"callback", name, "body"}
				v.schemaBlock(b, content.Sub(mt).Get("schema"))
			}
		}
	}
	if rs := op.Sub("responses"); rs != nil && len(rs.Keys) > 0 {
		b.Markup(`<p class="api-subtitle">`)
		b.Text(v.l.Expected)
		b.Markup(`</p><ul class="api-callback-responses">`)
		for _, code := range rs.Keys {
			r, _, err := v.Spec.Deref(rs.Get(code))
			if err != nil || r == nil {
				continue
			}
			b.Markup(`<li>`)
			statusBadge(b, code)
			b.Markup(` `)
			b.Text(openapi.FirstLine(r.Str("description")))
			b.Markup(`</li>`)
		}
		b.Markup(`</ul>`)
	}
	v.path = nil
	b.Markup(`</div></details>`)
}
