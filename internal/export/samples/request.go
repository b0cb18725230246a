package samples

import (
	"encoding/json"
	"net/url"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
)

// Request is what the generated examples send: placeholders for what
// the reader must fill in, the spec's examples where it has them.
type Request struct {
	method, url string
	headers     [][2]string
	body        string
	value       any // the body before printing, for Python's literal
	media       string
	form        []openapi.FormPart // the fields of a form body, instead of body
	cookies     [][2]string        // sent with --cookie, cookies= or by the browser
}

// FromEndpoint is what the samples of endpoint e send: placeholders for
// what the reader must fill in, the spec's examples where it has them.
// all includes the optional query, header and cookie parameters too, as
// the platform's samples do unless api.examples.defaults is "required".
func FromEndpoint(e *openapi.Endpoint, v *openapi.View, all bool) Request {
	server := "https://api.example.com"
	if len(e.Servers) > 0 {
		server = e.Servers[0]
	}
	path := e.Op.Path
	q := url.Values{}
	r := Request{method: e.Op.Method}
	sent := credentialHeaders(e)
	for _, p := range e.Params {
		val := "<" + p.Name + ">"
		if ex, ok := p.O.Lookup("example"); ok {
			val = openapi.Plain(ex)
		} else if d := p.O.Sub("schema").Get("default"); d != nil {
			val = openapi.Plain(d)
		}
		switch p.In {
		case "path":
			// Escaped, as the query is: a space or slash in an example
			// must not break the URL or add a segment, and strict URL
			// parsers (Ruby's URI, Java's URI) refuse the < > of a
			// placeholder.
			path = strings.ReplaceAll(path, "{"+p.Name+"}", url.PathEscape(val))
		case "query":
			if p.Required || all {
				q.Set(p.Name, val)
			}
		case "header":
			// A header the credential below sends is sent once, as the
			// credential.
			if (p.Required || all) && !sent[strings.ToLower(p.Name)] {
				r.headers = append(r.headers, [2]string{p.Name, val})
			}
		case "cookie":
			if p.Required || all {
				r.cookies = append(r.cookies, [2]string{p.Name, val})
			}
		}
	}
	if len(e.Security) > 0 {
		for _, sc := range e.Security[0] {
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
	r.url = openapi.JoinURL(server, path)
	if len(q) > 0 {
		r.url += "?" + q.Encode()
	}
	if len(e.Media) > 0 {
		r.media = e.Media[0]
		if openapi.FormKind(r.media) != "" {
			// Each client writes the form's content type itself (with
			// the multipart boundary), so the samples must not.
			r.form = openapi.FormParts(v, e)
			return r
		}
		r.headers = append(r.headers, [2]string{"Content-Type", r.media})
		if e.Example != nil {
			r.body, r.value = openapi.Pretty(e.Example), e.Example
		}
	}
	return r
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
	case *openapi.Obj:
		if len(x.Keys) == 0 {
			return "{}"
		}
		var b strings.Builder
		b.WriteString("{")
		for i, k := range x.Keys {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n" + indent + "    " + jsonString(k) + ": " + pyLiteral(x.Get(k), indent+"    "))
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
	return openapi.Plain(v)
}

func (r Request) curl() string {
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
		case openapi.FormKind(r.media) == "urlencoded":
			b.WriteString(" \\\n  --data-urlencode " + shellQuote(f.Name+"="+f.Value))
		case f.File:
			b.WriteString(" \\\n  --form " + shellQuote(f.Name+"=@"+f.Value))
		default:
			b.WriteString(" \\\n  --form " + shellQuote(f.Name+"="+f.Value))
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

func (r Request) python() string {
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
		if f.File {
			files = append(files, [2]string{f.Name, f.Value})
		} else {
			data = append(data, [2]string{f.Name, f.Value})
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
func writeFetchOptions(b *strings.Builder, r Request, headers [][2]string) {
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
func writeFetchForm(b *strings.Builder, r Request, fileArg func(value string) string) {
	switch openapi.FormKind(r.media) {
	case "multipart":
		b.WriteString("const form = new FormData();\n")
	case "urlencoded":
		b.WriteString("const form = new URLSearchParams();\n")
	default:
		return
	}
	for _, f := range r.form {
		if f.File {
			b.WriteString("form.append(" + jsonString(f.Name) + ", " + fileArg(f.Value) + "\n")
		} else {
			b.WriteString("form.append(" + jsonString(f.Name) + ", " + jsonString(f.Value) + ");\n")
		}
	}
	b.WriteString("\n")
}

func (r Request) javascript() string {
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

// credentialHeaders are the lower-case names of the headers the sample's
// credentials (the first security alternative) send.
func credentialHeaders(e *openapi.Endpoint) map[string]bool {
	out := map[string]bool{}
	if len(e.Security) == 0 {
		return out
	}
	for _, sc := range e.Security[0] {
		switch {
		case sc.Type == "bearer" || sc.Type == "basic":
			out["authorization"] = true
		case sc.Type == "apiKey" && sc.In == "header":
			out[strings.ToLower(sc.Param)] = true
		}
	}
	return out
}
