package apipages

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
)

// splitAPI splits the "api" frontmatter into its method and either a
// full URL's origin and path or a relative path (origin "").
func splitAPI(api string) (method, origin, route string, ok bool) {
	method, route, ok = strings.Cut(strings.TrimSpace(api), " ")
	if !ok {
		return "", "", "", false
	}
	method, route = strings.ToUpper(method), strings.TrimSpace(route)
	if i := strings.Index(route, "://"); i > 0 {
		origin, route = route, "/"
		if k := strings.IndexByte(origin[i+3:], '/'); k >= 0 {
			origin, route = origin[:i+3+k], origin[i+3+k:]
		}
	}
	return method, origin, route, true
}

// mdxPlaygroundConfig builds the playground's request model of an MDX API
// page: its servers (a full URL in "api" wins over api.mdx.server), its
// authentication, its parameters and a JSON body from its body fields.
// It returns nil, after a warning, when the page gives nowhere to send.
func (w *Pages) mdxPlaygroundConfig(p Page, fields []*mdx.ParamField) *PlaygroundConfig {
	method, route, servers, why := w.MDXTarget(p)
	if why != "" {
		w.warn("%s: api %q %s; no playground shown", p.File, p.API, why)
		return nil
	}
	cfg := &PlaygroundConfig{Method: method, Path: route, Servers: servers, Locked: w.locked,
		Params: []PlaygroundParam{}, Security: [][]openapi.Scheme{}}
	if sc, ok := w.mdxScheme(p); ok {
		cfg.Security = append(cfg.Security, []openapi.Scheme{sc})
	}
	declared := map[string]bool{}
	var body []*mdx.ParamField
	for _, f := range fields {
		if f.In == "body" {
			body = append(body, f)
			continue
		}
		if declared[f.In+":"+f.Name] {
			continue // declared twice (a snippet used again): one input
		}
		declared[f.In+":"+f.Name] = true
		cfg.Params = append(cfg.Params, PlaygroundParam{Name: f.Name, In: f.In, Type: f.Type, Default: f.Default,
			Placeholder: f.Placeholder, Required: f.Required || f.In == "path"})
	}
	// A path parameter of the template that no ParamField declares still
	// needs a value, or the request goes out with "{name}" in its path.
	for _, name := range templateNames(route) {
		if !declared["path:"+name] {
			cfg.Params = append(cfg.Params, PlaygroundParam{Name: name, In: "path", Type: "string", Required: true})
		}
	}
	if len(body) > 0 {
		cfg.Bodies = []openapi.Body{{Media: "application/json", Example: bodyExample(body)}}
		if fields, ok := fileForm(body); ok {
			cfg.Bodies = []openapi.Body{{Media: "multipart/form-data", Form: "multipart", Fields: fields}}
		}
		for _, f := range body {
			cfg.BodyReq = cfg.BodyReq || f.Required
		}
	}
	return cfg
}

// MDXTarget is where an MDX API page sends to, or why it cannot send.
func (w *Pages) MDXTarget(p Page) (method, route string, servers []string, why string) {
	method, origin, route, ok := splitAPI(p.API)
	switch {
	case !ok:
		return "", "", nil, `is not "METHOD /path" or "METHOD https://..."`
	case origin != "":
		return method, route, []string{origin}, ""
	case !strings.HasPrefix(route, "/"):
		return "", "", nil, `has a path that does not start with "/"`
	case len(w.api.MDX.Server) > 0:
		return method, route, w.api.MDX.Server, ""
	}
	return "", "", nil, "has a relative path and docs.json sets no api.mdx.server"
}

// MDXPanel is the "Try it" panel of an MDX API page (one with "api"
// frontmatter) that declares fields, with its stylesheet and script, or
// nothing when the page shows none: kinds without the playground
// feature, and the simple and none modes, as on OpenAPI pages. fields
// reads the page's ParamField declarations; it is called only for a panel.
func (w *Pages) MDXPanel(p Page, fields func() []*mdx.ParamField) markup.HTML {
	if p.API == "" || !w.playground || w.Mode(p) != "interactive" {
		return markup.HTML{}
	}
	prefix := p.Prefix
	cfg := w.mdxPlaygroundConfig(p, fields())
	if cfg == nil {
		return markup.HTML{}
	}
	var b markup.Builder
	stylesheet(&b, prefix, "_static/api.css")
	writePlayground(&b, cfg, p.labels())
	script(&b, prefix, "_static/playground.js")
	return b.Fragment()
}

// fileForm is the multipart form of a body that takes a file (a body
// field of type file or file[]): a file can only be sent as a form part.
func fileForm(body []*mdx.ParamField) ([]openapi.FormField, bool) {
	var out []openapi.FormField
	files := false
	for _, f := range body {
		typ := strings.ToLower(f.Type)
		pf := openapi.FormField{Name: f.Name, Type: f.Type, Required: f.Required, Default: f.Default, Placeholder: f.Placeholder,
			Binary: strings.TrimSuffix(typ, "[]") == "file", Multiple: strings.HasSuffix(typ, "[]")}
		files = files || pf.Binary
		out = append(out, pf)
	}
	return out, files
}

// templateNames lists the {name} parameters of a path, in order.
func templateNames(route string) []string {
	var out []string
	for {
		i := strings.IndexByte(route, '{')
		if i < 0 {
			return out
		}
		k := strings.IndexByte(route[i:], '}')
		if k < 0 {
			return out
		}
		if name := route[i+1 : i+k]; name != "" {
			out = append(out, name)
		}
		route = route[i+k+1:]
	}
}

// bodyExample is the JSON body the panel starts with: the required fields
// and those with a default, in the order the page declares them. Optional
// fields without a default are left out, so the request does not send
// values the reader never chose.
func bodyExample(fields []*mdx.ParamField) string {
	var b bytes.Buffer
	writeFields(&b, fields)
	var out bytes.Buffer
	if json.Indent(&out, b.Bytes(), "", "  ") != nil {
		return b.String()
	}
	return out.String()
}

func writeFields(b *bytes.Buffer, fields []*mdx.ParamField) {
	b.WriteByte('{')
	n := 0
	for _, f := range fields {
		if !f.Required && f.Default == "" {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		k, _ := json.Marshal(f.Name)
		b.Write(k)
		b.WriteByte(':')
		writeValue(b, f)
	}
	b.WriteByte('}')
}

// writeValue writes a field's default as its type reads it, else an empty
// value of the type; objects hold their nested fields.
func writeValue(b *bytes.Buffer, f *mdx.ParamField) {
	typ := strings.ToLower(f.Type)
	if f.Default != "" {
		switch {
		case typ == "string":
		case json.Valid([]byte(f.Default)):
			b.WriteString(f.Default)
			return
		}
		s, _ := json.Marshal(f.Default)
		b.Write(s)
		return
	}
	switch {
	case strings.HasSuffix(typ, "[]") || strings.HasPrefix(typ, "array"):
		b.WriteByte('[')
		if len(f.Children) > 0 {
			writeFields(b, f.Children)
		}
		b.WriteByte(']')
	case typ == "number" || typ == "integer" || typ == "int" || typ == "float":
		b.WriteByte('0')
	case typ == "boolean" || typ == "bool":
		b.WriteString("false")
	case typ == "object" || len(f.Children) > 0:
		writeFields(b, f.Children)
	default:
		b.WriteString(`""`)
	}
}

// Mode decides how an endpoint page shows the playground: its
// frontmatter (or x-mint metadata), else docs.json, else interactive.
// "auth" shows the playground to signed-in readers only; a bundle has no
// signed-in readers, so it shows none.
func (w *Pages) Mode(p Page) string {
	for _, m := range []string{p.Playground, w.api.Playground.Display} {
		m = strings.ToLower(strings.TrimSpace(m))
		if m == "" {
			continue
		}
		if !playgroundModes[m] {
			w.warn("%s: playground %q is not one of interactive, simple, none, auth; interactive is used", p.File, m)
			return "interactive"
		}
		return m
	}
	return "interactive"
}

// MDXAuth writes the authentication field of an MDX API page (one with
// "api" frontmatter).
func (w *Pages) MDXAuth(b *markup.Builder, p Page) {
	sc, ok := w.mdxScheme(p)
	if !ok {
		return
	}
	v := &schemaWriter{View: &openapi.View{Budget: openapi.SchemaBudget, Work: p.Work}, md: p.Markdown, l: p.labels()}
	b.Markup(`<div class="api-auth"><p class="api-subtitle">`)
	b.Text(v.l.Authorization)
	b.Markup(`</p>`)
	authField(b, sc, v)
	b.Markup(`</div>`)
}

// mdxScheme is the authentication of an MDX API page: its authMethod,
// else api.mdx.auth of docs.json; "none" turns it off for the page.
func (w *Pages) mdxScheme(p Page) (openapi.Scheme, bool) {
	if p.API == "" {
		return openapi.Scheme{}, false
	}
	method := strings.ToLower(strings.TrimSpace(p.AuthMethod))
	if method == "" {
		method = strings.ToLower(strings.TrimSpace(w.api.MDX.Auth.Method))
	}
	switch method {
	case "", "none":
		return openapi.Scheme{}, false
	case "bearer":
		return openapi.Scheme{Name: "Bearer", Type: method}, true
	case "basic":
		return openapi.Scheme{Name: "Basic", Type: method}, true
	case "key":
		name := w.api.MDX.Auth.Name
		if name == "" {
			w.warn("%s: authMethod key needs api.mdx.auth.name in docs.json (the header that carries the key); no authentication field shown", p.File)
			return openapi.Scheme{}, false
		}
		return openapi.Scheme{Name: name, Type: "apiKey", In: "header", Param: name}, true
	}
	w.warn("%s: authMethod %q is not shown by the static export (bearer, basic, key and none are)", p.File, method)
	return openapi.Scheme{}, false
}
