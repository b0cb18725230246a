package export

import (
	"net/url"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// responses writes every response status with its schema and examples.
func (j *job) responses(b *markup.Builder, e *endpoint, v *schemaView, section func(id, title string)) {
	rs := e.op.op.sub("responses")
	if rs == nil || len(rs.keys) == 0 {
		return
	}
	section("responses", "Responses")
	var samples []sample
	for _, code := range rs.keys {
		r, _, err := v.s.deref(rs.get(code))
		if err != nil || r == nil {
			continue
		}
		b.Markup(`<details class="api-response" open><summary>`)
		statusBadge(b, code)
		b.Markup(` `)
		b.Text(firstLine(r.str("description")))
		b.Markup(`</summary><div class="details-body">`)
		if d := r.str("description"); d != "" {
			b.HTML(v.md(d))
		}
		if hdrs := r.sub("headers"); hdrs != nil && len(hdrs.keys) > 0 {
			b.Markup(`<p class="api-subtitle">Headers</p>`)
			for _, h := range hdrs.keys {
				if ho, _, err := v.s.deref(hdrs.get(h)); err == nil && ho != nil {
					v.field(b, h, "header", mergedParam(ho, ho.get("schema"), v), ho.flag("required"), 0)
				}
			}
		}
		if content := r.sub("content"); content != nil {
			for _, mt := range content.keys {
				m := content.sub(mt)
				mediaLine(b, mt, false)
				v.path = []string{"response-" + code}
				v.schemaBlock(b, m.get("schema"))
				v.path = nil
				samples = append(samples, responseSamples(v, code, mt, m)...)
			}
		}
		b.Markup(`</div></details>`)
	}
	if len(samples) > 0 {
		b.Markup(`<p class="api-subtitle">Response examples</p>`)
		j.codeGroup(b, samples)
	}
}

// responseSamples lists a media type's named examples, or one example.
func responseSamples(v *schemaView, code, mt string, m *obj) []sample {
	defer func(side int) { v.side = side }(v.side)
	v.side = exResponse
	var out []sample
	if exs := m.sub("examples"); exs != nil {
		for _, name := range exs.keys {
			if eo, _, err := v.s.deref(exs.get(name)); err == nil && eo != nil {
				out = append(out, sample{title: code + " " + name, lang: langOf(mt), code: pretty(eo.get("value"))})
			}
		}
	}
	if len(out) == 0 {
		if ex := mediaExample(v, m); ex != nil {
			out = append(out, sample{title: code, lang: langOf(mt), code: pretty(ex)})
		}
	}
	// An audio or video answer whose example is a URL gets a player.
	if kind, _, _ := strings.Cut(strings.ToLower(mt), "/"); kind == "audio" || kind == "video" {
		for i := range out {
			if u, err := url.Parse(out[i].code); err == nil && (u.Scheme == "https" || u.Scheme == "http") && !strings.ContainsAny(out[i].code, " \n") {
				out[i].media = kind
			}
		}
	}
	return out
}

func langOf(mt string) string {
	if strings.Contains(mt, "json") {
		return "json"
	}
	if strings.Contains(mt, "xml") {
		return "xml"
	}
	return "text"
}
