package export

import (
	"bufio"
	"encoding/json"
	"net/url"
	"strings"
)

// maxHighlight is the largest sample that is syntax-highlighted.
const maxHighlight = 4 << 10

// sample is one code example of an endpoint page.
type sample struct {
	title, lang, code string
}

// codeGroup writes samples as a tabbed code group with copy buttons, the
// same markup as a CodeGroup in MDX, so app.js handles both.
func codeGroup(b *strings.Builder, samples []sample) {
	b.WriteString(`<div class="code-group" data-tabs>`)
	for _, s := range samples {
		b.WriteString(`<div class="code-block" data-title="` + esc(s.title) + `"><div class="code-head"><span class="code-title">` +
			esc(s.title) + `</span><button class="copy" type="button">Copy</button></div>`)
		w := bufio.NewWriter(b)
		// Highlighting costs far more than the rest of a page; a huge
		// generated sample is shown plain.
		if len(s.code) > maxHighlight {
			b.WriteString(`<pre class="chroma"><code>` + esc(s.code) + `</code></pre>`)
		} else if err := highlight(w, s.lang, s.code+"\n"); err != nil {
			b.WriteString(`<pre class="chroma"><code>` + esc(s.code) + `</code></pre>`)
		} else {
			_ = w.Flush()
		}
		b.WriteString(`</div>`)
	}
	b.WriteString(`</div>`)
}

// request is what the generated examples send: placeholders for what
// the reader must fill in, the spec's examples where it has them.
type request struct {
	method, url string
	headers     [][2]string
	body        string
	value       any // the body before printing, for Python's literal
	media       string
}

func (e *endpoint) request() request {
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
		}
		switch p.in {
		case "path":
			path = strings.ReplaceAll(path, "{"+p.name+"}", val)
		case "query":
			if p.required {
				q.Set(p.name, val)
			}
		case "header":
			if p.required {
				r.headers = append(r.headers, [2]string{p.name, val})
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
					r.headers = append(r.headers, [2]string{"Cookie", sc.Param + "=<api-key>"})
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
		r.headers = append(r.headers, [2]string{"Content-Type", r.media})
		if e.example != nil {
			r.body, r.value = pretty(e.example), e.example
		}
	}
	return r
}

// requestSamples are curl, Python and JavaScript requests, then the
// spec's own x-codeSamples.
func requestSamples(e *endpoint) []sample {
	r := e.request()
	var curl strings.Builder
	curl.WriteString("curl --request " + r.method + " \\\n  --url " + shellQuote(r.url))
	for _, h := range r.headers {
		curl.WriteString(" \\\n  --header " + shellQuote(h[0]+": "+h[1]))
	}
	if r.body != "" {
		curl.WriteString(" \\\n  --data " + shellQuote(r.body))
	}

	var py strings.Builder
	py.WriteString("import requests\n\nurl = " + jsonString(r.url) + "\n")
	if r.body != "" {
		py.WriteString("payload = " + pyLiteral(r.value, "") + "\n")
	}
	py.WriteString("headers = {")
	for i, h := range r.headers {
		if i > 0 {
			py.WriteString(", ")
		}
		py.WriteString(jsonString(h[0]) + ": " + jsonString(h[1]))
	}
	py.WriteString("}\n\nresponse = requests.request(" + jsonString(r.method) + ", url")
	if r.body != "" {
		if strings.Contains(r.media, "json") {
			py.WriteString(", json=payload")
		} else {
			py.WriteString(", data=payload")
		}
	}
	py.WriteString(", headers=headers)\n\nprint(response.text)")

	var js strings.Builder
	js.WriteString("const options = {\n  method: " + jsonString(r.method) + ",\n  headers: {")
	for i, h := range r.headers {
		if i > 0 {
			js.WriteString(",")
		}
		js.WriteString("\n    " + jsonString(h[0]) + ": " + jsonString(h[1]))
	}
	js.WriteString("\n  }")
	if r.body != "" {
		if strings.Contains(r.media, "json") {
			js.WriteString(",\n  body: JSON.stringify(" + strings.ReplaceAll(r.body, "\n", "\n  ") + ")")
		} else {
			js.WriteString(",\n  body: " + jsonString(r.body))
		}
	}
	js.WriteString("\n};\n\nfetch(" + jsonString(r.url) + ", options)\n  .then(response => response.json())\n  .then(response => console.log(response))\n  .catch(err => console.error(err));")

	out := []sample{{"cURL", "bash", curl.String()}, {"Python", "python", py.String()}, {"JavaScript", "javascript", js.String()}}
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
			out = append(out, sample{title, strings.ToLower(cs.str("lang")), cs.str("source")})
		}
	}
	return out
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
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
