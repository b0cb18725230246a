package export

import (
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// callbacks writes the requests an operation's API sends back to a URL the
// caller gave (OpenAPI callbacks): for each, its method, the expression
// of the URL, the body it sends and the answers it expects. The platform
// shows them between the request body and the responses.
func (j *job) callbacks(b *markup.Builder, o *operation, v *schemaView, section func(id, title string)) {
	cbs := o.op.sub("callbacks")
	if cbs == nil || len(cbs.keys) == 0 {
		return
	}
	section("callbacks", "Callbacks")
	for _, name := range cbs.keys {
		cb, _, err := v.s.deref(cbs.get(name))
		if err != nil || cb == nil {
			continue
		}
		for _, expr := range cb.keys {
			item, _, err := v.s.deref(cb.get(expr))
			if err != nil || item == nil {
				continue
			}
			for _, m := range httpMethods {
				op, _, err := v.s.deref(item.get(m))
				if err != nil || op == nil {
					continue
				}
				j.callback(b, name, strings.ToUpper(m), expr, op, v)
			}
		}
	}
}

// callback writes one request of a callback, collapsed under its method
// and URL expression. Field ids carry the callback's name so they never
// clash with the operation's own.
func (j *job) callback(b *markup.Builder, name, method, expr string, op *obj, v *schemaView) {
	b.Markup(`<details class="api-response api-callback"><summary>`)
	methodBadge(b, method)
	b.Markup(` <code>`)
	b.Text(expr)
	b.Markup(`</code> `)
	b.Text(name)
	b.Markup(`</summary><div class="details-body">`)
	if d := op.str("description"); d != "" {
		b.HTML(v.md(d))
	}
	if rb, _, err := v.s.deref(op.get("requestBody")); err == nil && rb != nil {
		if content := rb.sub("content"); content != nil {
			b.Markup(`<p class="api-subtitle">Body</p>`)
			for _, mt := range content.keys {
				mediaLine(b, mt, false)
				v.path = []string{"callback", name, "body"}
				v.schemaBlock(b, content.sub(mt).get("schema"))
			}
		}
	}
	if rs := op.sub("responses"); rs != nil && len(rs.keys) > 0 {
		b.Markup(`<p class="api-subtitle">Expected responses</p><ul class="api-callback-responses">`)
		for _, code := range rs.keys {
			r, _, err := v.s.deref(rs.get(code))
			if err != nil || r == nil {
				continue
			}
			b.Markup(`<li>`)
			statusBadge(b, code)
			b.Markup(` `)
			b.Text(firstLine(r.str("description")))
			b.Markup(`</li>`)
		}
		b.Markup(`</ul>`)
	}
	v.path = nil
	b.Markup(`</div></details>`)
}
