package export

import (
	"encoding/json"
	"net/url"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
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
func (j *job) codeGroup(b *markup.Builder, samples []sample) {
	b.Markup(`<div class="code-group" data-tabs>`)
	for _, s := range samples {
		mdx.CodeHead(b, s.title)
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
		b.HTML(j.highlighted(s.lang, s.code))
		b.Markup(`</div>`)
	}
	b.Markup(`</div>`)
}

// maxHighlightCache bounds the highlighted samples one export keeps.
const maxHighlightCache = 4096

// highlighted returns a sample as highlighted HTML. Highlighting costs
// far more than the rest of an endpoint page, and real APIs repeat the
// same examples (an error response on every operation, a resource on all
// of its operations), so one export highlights each distinct sample once.
func (j *job) highlighted(lang, code string) markup.HTML {
	// A huge generated sample is shown plain.
	if len(code) > maxHighlight {
		return mdx.PlainCode(code)
	}
	key := lang + "\x00" + code
	if h, ok := j.hlCache.Load(key); ok {
		return h.(markup.HTML)
	}
	h, err := mdx.Highlight(lang, code+"\n")
	if err != nil {
		return mdx.PlainCode(code)
	}
	if j.hlCount.Add(1) <= maxHighlightCache {
		j.hlCache.Store(key, h)
	}
	return h
}

// request is what the generated examples send: placeholders for what
// the reader must fill in, the spec's examples where it has them.
type request struct {
	method, url string
	headers     [][2]string
	body        string
	value       any // the body before printing, for Python's literal
	media       string
	form        []formPart  // the fields of a form body, instead of body
	cookies     [][2]string // sent with --cookie, cookies= or by the browser
}

// all includes the optional query, header and cookie parameters too, as
// the platform's samples do unless api.examples.defaults is "required".
func (e *endpoint) request(v *schemaView, all bool) request {
	server := "https://api.example.com"
	if len(e.servers) > 0 {
		server = e.servers[0]
	}
	path := e.op.path
	q := url.Values{}
	r := request{method: e.op.method}
	for _, p := range e.params {
		val := "<" + p.name + ">"
		if ex, ok := p.o.m["example"]; ok {
			val = plain(ex)
		} else if d := p.o.sub("schema").get("default"); d != nil {
			val = plain(d)
		}
		switch p.in {
		case "path":
			// Escaped, as the query is: a space or slash in an example
			// must not break the URL or add a segment, and strict URL
			// parsers (Ruby's URI, Java's URI) refuse the < > of a
			// placeholder.
			path = strings.ReplaceAll(path, "{"+p.name+"}", url.PathEscape(val))
		case "query":
			if p.required || all {
				q.Set(p.name, val)
			}
		case "header":
			if p.required || all {
				r.headers = append(r.headers, [2]string{p.name, val})
			}
		case "cookie":
			if p.required || all {
				r.cookies = append(r.cookies, [2]string{p.name, val})
			}
		}
	}
	if len(e.security) > 0 {
		for _, sc := range e.security[0] {
			switch sc.Type {
			case "bearer":
				r.headers = append(r.headers, [2]string{"Authorization", "Bearer <token>"})
			case "basic":
				r.headers = append(r.headers, [2]string{"Authorization", "Basic <credentials>"})
			case "apiKey":
				switch sc.In {
				case "header":
					r.headers = append(r.headers, [2]string{sc.Param, "<api-key>"})
				case "query":
					q.Set(sc.Param, "<api-key>")
				case "cookie":
					r.cookies = append(r.cookies, [2]string{sc.Param, "<api-key>"})
				}
			}
		}
	}
	r.url = joinURL(server, path)
	if len(q) > 0 {
		r.url += "?" + q.Encode()
	}
	if len(e.media) > 0 {
		r.media = e.media[0]
		if formKind(r.media) != "" {
			// Each client writes the form's content type itself (with
			// the multipart boundary), so the samples must not.
			r.form = formParts(v, e)
			return r
		}
		r.headers = append(r.headers, [2]string{"Content-Type", r.media})
		if e.example != nil {
			r.body, r.value = pretty(e.example), e.example
		}
	}
	return r
}

// requestSamples are the generated requests in the languages docs.json
// asks for (curl, Python and JavaScript by default; none when
// api.examples.autogenerate is false), then the spec's own x-codeSamples.
func (j *job) requestSamples(e *endpoint, v *schemaView) []sample {
	var out []sample
	if auto := j.cfg.API.Examples.Autogenerate; auto == nil || *auto {
		r := e.request(v, j.cfg.API.Examples.Defaults != "required")
		langs, unknown := j.cfg.API.sampleOrder()
		for _, l := range unknown {
			j.warn("docs.json: api.examples.languages: %q has no generated sample in the static export; left out", l)
		}
		for _, l := range langs {
			switch l {
			case "bash":
				out = append(out, sample{title: "cURL", lang: "bash", code: r.curl()})
			case "python":
				out = append(out, sample{title: "Python", lang: "python", code: r.python()})
			case "javascript":
				out = append(out, sample{title: "JavaScript", lang: "javascript", code: r.javascript()})
			case "node":
				out = append(out, sample{title: "Node.js", lang: "javascript", code: r.node()})
			case "go":
				out = append(out, sample{title: "Go", lang: "go", code: r.golang()})
			case "ruby":
				out = append(out, sample{title: "Ruby", lang: "ruby", code: r.ruby()})
			case "php":
				out = append(out, sample{title: "PHP", lang: "php", code: r.php()})
			case "java":
				out = append(out, sample{title: "Java", lang: "java", code: r.java()})
			case "csharp":
				out = append(out, sample{title: "C#", lang: "csharp", code: r.csharp()})
			}
		}
	}
	for _, key := range []string{"x-codeSamples", "x-code-samples"} {
		for _, raw := range e.op.op.list(key) {
			cs, ok := raw.(*obj)
			if !ok || cs.str("source") == "" {
				continue
			}
			title := cs.str("label")
			if title == "" {
				title = cs.str("lang")
			}
			out = append(out, sample{title: title, lang: strings.ToLower(cs.str("lang")), code: cs.str("source")})
		}
	}
	return out
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// jsonString quotes s for JSON, JavaScript and Python source. The
// samples are HTML-escaped when written, so <token> stays readable
// instead of becoming \u003ctoken\u003e.
func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// pyLiteral writes a JSON value as Python source: True, False and None
// where JSON has true, false and null.
func pyLiteral(v any, indent string) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case string:
		return jsonString(x)
	case *obj:
		if len(x.keys) == 0 {
			return "{}"
		}
		var b strings.Builder
		b.WriteString("{")
		for i, k := range x.keys {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n" + indent + "    " + jsonString(k) + ": " + pyLiteral(x.m[k], indent+"    "))
		}
		b.WriteString("\n" + indent + "}")
		return b.String()
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = pyLiteral(e, indent)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return plain(v)
}

func (r request) curl() string {
	var b strings.Builder
	b.WriteString("curl --request " + r.method + " \\\n  --url " + shellQuote(r.url))
	for _, h := range r.headers {
		b.WriteString(" \\\n  --header " + shellQuote(h[0]+": "+h[1]))
	}
	if len(r.cookies) > 0 {
		b.WriteString(" \\\n  --cookie " + shellQuote(cookieString(r.cookies)))
	}
	for _, f := range r.form {
		switch {
		case formKind(r.media) == "urlencoded":
			b.WriteString(" \\\n  --data-urlencode " + shellQuote(f.name+"="+f.value))
		case f.file:
			b.WriteString(" \\\n  --form " + shellQuote(f.name+"=@"+f.value))
		default:
			b.WriteString(" \\\n  --form " + shellQuote(f.name+"="+f.value))
		}
	}
	if r.body != "" {
		b.WriteString(" \\\n  --data " + shellQuote(r.body))
	}
	return b.String()
}

func cookieString(cs [][2]string) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c[0] + "=" + c[1]
	}
	return strings.Join(parts, "; ")
}

// pyDict writes pairs as a Python dict literal on one line.
func pyDict(pairs [][2]string) string {
	parts := make([]string, len(pairs))
	for i, p := range pairs {
		parts[i] = jsonString(p[0]) + ": " + jsonString(p[1])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func (r request) python() string {
	var b strings.Builder
	b.WriteString("import requests\n\nurl = " + jsonString(r.url) + "\n")
	switch {
	case r.body != "" && strings.Contains(r.media, "json"):
		b.WriteString("payload = " + pyLiteral(r.value, "") + "\n")
	case r.body != "":
		// data= would form-encode a dict: other media send the text.
		b.WriteString("payload = " + jsonString(r.body) + "\n")
	}
	var data, files [][2]string
	for _, f := range r.form {
		if f.file {
			files = append(files, [2]string{f.name, f.value})
		} else {
			data = append(data, [2]string{f.name, f.value})
		}
	}
	if len(r.form) > 0 {
		b.WriteString("data = " + pyDict(data) + "\n")
	}
	if len(files) > 0 {
		b.WriteString("files = {")
		for i, f := range files {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(jsonString(f[0]) + ": open(" + jsonString(f[1]) + ", \"rb\")")
		}
		b.WriteString("}\n")
	}
	if len(r.cookies) > 0 {
		b.WriteString("cookies = " + pyDict(r.cookies) + "\n")
	}
	b.WriteString("headers = " + pyDict(r.headers) + "\n\nresponse = requests.request(" + jsonString(r.method) + ", url")
	switch {
	case r.body != "" && strings.Contains(r.media, "json"):
		b.WriteString(", json=payload")
	case r.body != "":
		b.WriteString(", data=payload")
	case len(r.form) > 0:
		b.WriteString(", data=data")
	}
	if len(files) > 0 {
		b.WriteString(", files=files")
	}
	if len(r.cookies) > 0 {
		b.WriteString(", cookies=cookies")
	}
	b.WriteString(", headers=headers)\n\nprint(response.text)")
	return b.String()
}

// writeFetchOptions opens the options object of a fetch sample: method,
// headers and body (a form is built before it as "form"). The caller closes
// it.
func writeFetchOptions(b *strings.Builder, r request, headers [][2]string) {
	b.WriteString("const options = {\n  method: " + jsonString(r.method) + ",\n  headers: {")
	for i, h := range headers {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n    " + jsonString(h[0]) + ": " + jsonString(h[1]))
	}
	b.WriteString("\n  }")
	switch {
	case len(r.form) > 0:
		b.WriteString(",\n  body: form")
	case r.body != "" && strings.Contains(r.media, "json"):
		b.WriteString(",\n  body: JSON.stringify(" + strings.ReplaceAll(r.body, "\n", "\n  ") + ")")
	case r.body != "":
		b.WriteString(",\n  body: " + jsonString(r.body))
	}
}

// writeFetchForm builds the FormData or URLSearchParams a fetch sample
// sends as "form", if the body is a form. fileArg ends the append call of
// a file field whose example value is value: how the sample reads it.
func writeFetchForm(b *strings.Builder, r request, fileArg func(value string) string) {
	switch formKind(r.media) {
	case "multipart":
		b.WriteString("const form = new FormData();\n")
	case "urlencoded":
		b.WriteString("const form = new URLSearchParams();\n")
	default:
		return
	}
	for _, f := range r.form {
		if f.file {
			b.WriteString("form.append(" + jsonString(f.name) + ", " + fileArg(f.value) + "\n")
		} else {
			b.WriteString("form.append(" + jsonString(f.name) + ", " + jsonString(f.value) + ");\n")
		}
	}
	b.WriteString("\n")
}

func (r request) javascript() string {
	var b strings.Builder
	writeFetchForm(&b, r, func(value string) string { return "fileInput.files[0]); // " + value })
	if len(r.cookies) > 0 {
		// fetch cannot set a Cookie header: the browser sends the
		// cookies it holds for the API's site when asked to.
		b.WriteString("// The browser sends the cookie " + cookieString(r.cookies) + " it holds for the API; fetch cannot set it.\n")
	}
	writeFetchOptions(&b, r, r.headers)
	if len(r.cookies) > 0 {
		b.WriteString(",\n  credentials: \"include\"")
	}
	b.WriteString("\n};\n\nfetch(" + jsonString(r.url) + ", options)\n  .then(response => response.json())\n  .then(response => console.log(response))\n  .catch(err => console.error(err));")
	return b.String()
}
