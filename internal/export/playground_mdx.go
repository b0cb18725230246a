package export

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
)

// MDX API pages (frontmatter "api") have no spec: the request they
// document is what their ParamField components declare. This file turns
// those declarations into the same playgroundConfig an OpenAPI operation
// gives, so both kinds of page get one "Try it" panel, built and sent by
// the same playground.js.

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
func (j *job) mdxPlaygroundConfig(p *page, fields []*mdx.ParamField) *playgroundConfig {
	method, route, servers, why := j.mdxTarget(p)
	if why != "" {
		j.warn("%s: api %q %s; no playground shown", p.file, p.fm.API, why)
		return nil
	}
	cfg := &playgroundConfig{Method: method, Path: route, Servers: servers, Locked: j.kind == KindAirGapped,
		Params: []pgParam{}, Security: [][]openapi.Scheme{}}
	if sc, ok := j.mdxScheme(p); ok {
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
		cfg.Params = append(cfg.Params, pgParam{Name: f.Name, In: f.In, Type: f.Type, Default: f.Default,
			Required: f.Required || f.In == "path"})
	}
	// A path parameter of the template that no ParamField declares still
	// needs a value, or the request goes out with "{name}" in its path.
	for _, name := range templateNames(route) {
		if !declared["path:"+name] {
			cfg.Params = append(cfg.Params, pgParam{Name: name, In: "path", Type: "string", Required: true})
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

// mdxTarget is where an MDX API page sends to, or why it cannot send.
func (j *job) mdxTarget(p *page) (method, route string, servers []string, why string) {
	method, origin, route, ok := splitAPI(p.fm.API)
	switch {
	case !ok:
		return "", "", nil, `is not "METHOD /path" or "METHOD https://..."`
	case origin != "":
		return method, route, []string{origin}, ""
	case !strings.HasPrefix(route, "/"):
		return "", "", nil, `has a path that does not start with "/"`
	case len(j.cfg.API.MDX.Server) > 0:
		return method, route, j.cfg.API.MDX.Server, ""
	}
	return "", "", nil, "has a relative path and docs.json sets no api.mdx.server"
}

// mdxPanel is the "Try it" panel of an MDX API page, with its stylesheet
// and script, or "" when the page shows none: kinds without the
// playground feature, and the simple and none modes, as on OpenAPI pages.
func (j *job) mdxPanel(p *page, prefix markup.Prefix) markup.HTML {
	if p.api != nil || p.fm.API == "" || !j.features["playground"] || j.playgroundMode(p) != "interactive" {
		return markup.HTML{}
	}
	cfg := j.mdxPlaygroundConfig(p, mdx.ParamFields(string(p.body), j.loadSnippet))
	if cfg == nil {
		return markup.HTML{}
	}
	var b markup.Builder
	stylesheet(&b, prefix, "_static/api.css")
	writePlayground(&b, cfg)
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
		pf := openapi.FormField{Name: f.Name, Type: f.Type, Required: f.Required, Default: f.Default,
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
