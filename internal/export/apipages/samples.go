package apipages

import (
	"strconv"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/highlight"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/samples"
)

// maxHighlight is the largest sample that is syntax-highlighted.
const maxHighlight = 4 << 10

// sample is one code example of an endpoint page.
type sample struct {
	title, lang, code string
	// media ("audio" or "video") shows code, a URL, in a player above it,
	// as the platform does for audio and video answers.
	media string
}

// codeGroup writes samples as a tabbed code group with copy buttons, the
// same markup as a CodeGroup in MDX, so app.js handles both.
func (w *Pages) codeGroup(b *markup.Builder, samples []sample, work *openapi.Work, l *Labels) {
	b.Markup(`<div class="code-group" data-tabs>`)
	for _, s := range samples {
		w.codeBlock(b, s, work, l)
	}
	b.Markup(`</div>`)
}

// statusGroup writes the response examples as a code group with a tab
// per status. A status with several examples (named examples, or more
// than one content type) gets a selector that api.js switches; without
// script every example of the status shows, each under its title.
func (w *Pages) statusGroup(b *markup.Builder, answers []answer, work *openapi.Work, l *Labels) {
	b.Markup(`<div class="code-group api-statuses" data-tabs>`)
	for _, a := range answers {
		if len(a.samples) == 1 {
			w.codeBlock(b, a.samples[0], work, l)
			continue
		}
		b.Markup(`<div class="api-status-examples"`)
		b.Attr("data-title", a.code)
		b.Markup(`><select class="api-example-select"`)
		b.Attr("aria-label", fill(l.ExampleOf, "{code}", a.code))
		b.Markup(` hidden>`)
		for i, s := range a.samples {
			b.Markup(`<option`)
			b.Attr("value", strconv.Itoa(i))
			b.Markup(`>`)
			b.Text(s.title)
			b.Markup(`</option>`)
		}
		b.Markup(`</select>`)
		for _, s := range a.samples {
			w.codeBlock(b, s, work, l)
		}
		b.Markup(`</div>`)
	}
	b.Markup(`</div>`)
}

// codeBlock writes one sample with its title and copy button; when the
// code does not fit in what the page may still write (work), a note
// stands in for it.
func (w *Pages) codeBlock(b *markup.Builder, s sample, work *openapi.Work, l *Labels) {
	mdx.CodeHead(b, s.title, l.Code)
	if !work.Fits(len(s.code)) {
		work.Truncate()
		b.Markup(`<p class="api-truncated">`)
		b.Text(l.TooLarge)
		b.Markup(`</p></div>`)
		return
	}
	start := b.Len()
	defer func() { work.Wrote(b.Len() - start) }()
	if s.media != "" {
		if u, err := markup.Parse(s.code); err == nil {
			if s.media == "audio" {
				b.Markup(`<audio class="example-media" controls preload="none" src="`)
				b.URL(u)
				b.Markup(`"></audio>`)
			} else {
				b.Markup(`<video class="example-media" controls preload="none" src="`)
				b.URL(u)
				b.Markup(`"></video>`)
			}
		}
	}
	b.HTML(w.highlighted(s.lang, s.code))
	b.Markup(`</div>`)
}

// highlighted returns a sample as highlighted HTML. Highlighting costs
// far more than the rest of an endpoint page, and real APIs repeat the
// same examples (an error response on every operation, a resource on all
// of its operations); the export's highlighting budget keeps what it
// highlighted (bounded in bytes), so each distinct sample is highlighted
// about once.
func (w *Pages) highlighted(lang, code string) markup.HTML {
	// A huge generated sample is shown plain.
	if len(code) > maxHighlight {
		return highlight.Plain(code)
	}
	h, err := w.Highlight.Code(lang, code+"\n")
	if err != nil {
		return highlight.Plain(code)
	}
	return h
}

// requestSamples are the generated requests in the languages docs.json
// asks for (curl, Python and JavaScript by default; none when
// api.examples.autogenerate is false), then the spec's own x-codeSamples.
func (w *Pages) requestSamples(e *openapi.Endpoint, v *openapi.View) []sample {
	var out []sample
	if auto := w.api.Examples.Autogenerate; auto == nil || *auto {
		r := samples.FromEndpoint(e, v, w.api.Examples.Defaults != "required")
		langs, unknown := sampleOrder(w.api)
		for _, l := range unknown {
			w.warn("docs.json: api.examples.languages: %q has no generated sample in the static export; left out", l)
		}
		for _, l := range langs {
			if title, lang, code, ok := samples.Generate(r, l); ok {
				out = append(out, sample{title: title, lang: lang, code: code})
			}
		}
	}
	for _, key := range []string{"x-codeSamples", "x-code-samples"} {
		for _, raw := range e.Op.Op.List(key) {
			cs, ok := raw.(*openapi.Obj)
			if !ok || cs.Str("source") == "" {
				continue
			}
			title := cs.Str("label")
			if title == "" {
				title = cs.Str("lang")
			}
			out = append(out, sample{title: title, lang: strings.ToLower(cs.Str("lang")), code: cs.Str("source")})
		}
	}
	return out
}
