package apipages

import (
	"net/url"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
)

// answer is the examples of one response status.
type answer struct {
	code    string
	samples []sample
}

// responses writes every response status with its schema, and returns
// the examples of each status that has some, for the examples column.
func (w *Pages) responses(b *markup.Builder, e *openapi.Endpoint, v *schemaWriter, section func(id, title string)) []answer {
	rs := e.Op.Op.Sub("responses")
	if rs == nil || len(rs.Keys) == 0 {
		return nil
	}
	section("responses", v.l.Responses)
	var answers []answer
	for _, code := range rs.Keys {
		r, _, err := v.Spec.Deref(rs.Get(code))
		if err != nil || r == nil {
			continue
		}
		b.Markup(`<details class="api-response" open><summary>`)
		statusBadge(b, code)
		b.Markup(` `)
		b.Text(openapi.FirstLine(r.Str("description")))
		b.Markup(`</summary><div class="details-body">`)
		if d := r.Str("description"); d != "" {
			b.HTML(v.md(d))
		}
		if hdrs := r.Sub("headers"); hdrs != nil && len(hdrs.Keys) > 0 {
			b.Markup(`<p class="api-subtitle">`)
			b.Text(v.l.Headers)
			b.Markup(`</p>`)
			for _, h := range hdrs.Keys {
				if ho, _, err := v.Spec.Deref(hdrs.Get(h)); err == nil && ho != nil {
					v.field(b, h, "header", openapi.MergedParam(ho, ho.Get("schema"), v.View), ho.Flag("required"), 0)
				}
			}
		}
		if content := r.Sub("content"); content != nil {
			var samples []sample
			for _, mt := range content.Keys {
				m := content.Sub(mt)
				mediaLine(b, mt, false, v.l)
				v.path = []string{"response-" + code}
				v.schemaBlock(b, m.Get("schema"))
				v.path = nil
				samples = append(samples, responseSamples(v.View, code, mt, m)...)
			}
			if len(samples) > 0 {
				answers = append(answers, answer{code: code, samples: samples})
			}
		}
		b.Markup(`</div></details>`)
	}
	return answers
}

// responseSamples lists a media type's named examples, or one example.
func responseSamples(v *openapi.View, code, mt string, m *openapi.Obj) []sample {
	defer func(side int) { v.Side = side }(v.Side)
	v.Side = openapi.ExResponse
	var out []sample
	if exs := m.Sub("examples"); exs != nil {
		for _, name := range exs.Keys {
			if eo, _, err := v.Spec.Deref(exs.Get(name)); err == nil && eo != nil {
				out = append(out, sample{title: code + " " + name, lang: langOf(mt), code: openapi.Pretty(eo.Get("value"))})
			}
		}
	}
	if len(out) == 0 {
		if ex := openapi.MediaExample(v, m); ex != nil {
			out = append(out, sample{title: code, lang: langOf(mt), code: openapi.Pretty(ex)})
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
