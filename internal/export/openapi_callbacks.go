package export

import "strings"

// callbacks writes the requests an operation's API sends back to a URL the
// caller gave (OpenAPI callbacks): for each, its method, the expression
// of the URL, the body it sends and the answers it expects. The platform
// shows them between the request body and the responses.
func (j *job) callbacks(b *strings.Builder, o *operation, v *schemaView, section func(id, title string)) {
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
func (j *job) callback(b *strings.Builder, name, method, expr string, op *obj, v *schemaView) {
	b.WriteString(`<details class="api-response api-callback"><summary><span class="method method-` + esc(strings.ToLower(method)) + `">` +
		esc(method) + `</span> <code>` + esc(expr) + `</code> ` + esc(name) + `</summary><div class="details-body">`)
	if d := op.str("description"); d != "" {
		b.WriteString(v.md(d))
	}
	if rb, _, err := v.s.deref(op.get("requestBody")); err == nil && rb != nil {
		if content := rb.sub("content"); content != nil {
			b.WriteString(`<p class="api-subtitle">Body</p>`)
			for _, mt := range content.keys {
				b.WriteString(`<p class="api-media"><code>` + esc(mt) + `</code></p>`)
				v.path = []string{"callback", name, "body"}
				v.schemaBlock(b, content.sub(mt).get("schema"))
			}
		}
	}
	if rs := op.sub("responses"); rs != nil && len(rs.keys) > 0 {
		b.WriteString(`<p class="api-subtitle">Expected responses</p><ul class="api-callback-responses">`)
		for _, code := range rs.keys {
			r, _, err := v.s.deref(rs.get(code))
			if err != nil || r == nil {
				continue
			}
			b.WriteString(`<li><span class="status status-` + esc(string(code[0])) + `xx">` + esc(code) + `</span> ` +
				esc(firstLine(r.str("description"))) + `</li>`)
		}
		b.WriteString(`</ul>`)
	}
	v.path = nil
	b.WriteString(`</div></details>`)
}
