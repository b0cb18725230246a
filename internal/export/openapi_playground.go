package export

import (
	"net/url"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
)

// playgroundConfig is what playground.js builds the "Try it" panel from. It is
// embedded in the page as JSON, which a browser does not execute.
type playgroundConfig struct {
	Method   string             `json:"method"`
	Path     string             `json:"path"`
	Servers  []string           `json:"servers"`
	Locked   bool               `json:"locked"` // air-gapped: send to the listed servers only
	Params   []pgParam          `json:"params"`
	Security [][]openapi.Scheme `json:"security"`
	Bodies   []openapi.Body     `json:"bodies,omitempty"` // one per request content type
	BodyReq  bool               `json:"bodyRequired,omitempty"`
}

type pgParam struct {
	Name     string   `json:"name"`
	In       string   `json:"in"`
	Required bool     `json:"required,omitempty"`
	Type     string   `json:"type,omitempty"`
	Enum     []string `json:"enum,omitempty"`
	Default  string   `json:"default,omitempty"`
}

// playground writes the "Try it" panel of an endpoint page; playground.js fills
// it in. Without script the page still shows the full reference.
func (j *job) playground(b *markup.Builder, e *openapi.Endpoint) {
	v := &openapi.View{Spec: e.Op.Spec, Budget: openapi.SchemaBudget, Prefill: j.cfg.API.Examples.Prefill,
		NoExamples: !j.cfg.API.Examples.Prefill}
	cfg := playgroundConfig{Method: e.Op.Method, Path: e.Op.Path, Servers: e.Servers,
		Locked: j.kind == KindAirGapped, Security: e.Security, Params: []pgParam{}}
	if cfg.Servers == nil {
		cfg.Servers = []string{}
	}
	for _, p := range e.Params {
		f := v.Flatten(p.O.Get("schema"))
		pp := pgParam{Name: p.Name, In: p.In, Required: p.Required, Type: v.TypeLabel(f)}
		for _, x := range f.O.List("enum") {
			pp.Enum = append(pp.Enum, openapi.Plain(x))
		}
		if d, ok := openapi.XDefault(p.O, f.O); ok && v.Prefill {
			pp.Default = openapi.Plain(d)
		} else if d, ok := f.O.M["default"]; ok {
			pp.Default = openapi.Plain(d)
		} else if ex, ok := p.O.M["example"]; ok && !v.NoExamples {
			pp.Default = openapi.Plain(ex)
		}
		cfg.Params = append(cfg.Params, pp)
	}
	if cfg.Bodies = openapi.PlaygroundBodies(v, e); len(cfg.Bodies) > 0 {
		cfg.BodyReq = e.Body.Flag("required")
	}
	writePlayground(b, &cfg)
}

// writePlayground writes the panel of one request model, OpenAPI or MDX.
func writePlayground(b *markup.Builder, cfg *playgroundConfig) {
	data, err := markup.JSON(cfg)
	if err != nil {
		return
	}
	b.Markup(`<section class="playground" id="try-it" aria-label="Try it"><p class="playground-title">Try it</p>` +
		`<script type="application/json" class="playground-config">`)
	b.HTML(data)
	b.Markup(`</script></section>`)
}

// playgroundConnectOrigins lists the origins the playground of this export
// may send requests to: the servers of its specs. The air-gapped
// Content-Security-Policy adds them to connect-src when the playground is
// enabled, and nothing else.
func (j *job) playgroundConnectOrigins() []string {
	if !j.features["playground"] {
		return nil
	}
	seen := map[string]bool{}
	for _, p := range j.pages {
		var servers []string
		switch {
		case p.api != nil:
			servers = p.api.Resolve(&openapi.View{Spec: p.api.Spec}).Servers
		case p.fm.API != "" && j.playgroundMode(p) == "interactive":
			_, _, servers, _ = j.mdxTarget(p)
		}
		for _, s := range servers {
			if u, err := url.Parse(s); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
				seen[u.Scheme+"://"+u.Host] = true
			}
		}
	}
	return sortedKeys(seen)
}

// apiAssets are the bundle files endpoint pages need, as bundle path and
// embedded asset, only when the export has endpoint pages; the
// playground's script only when the export has the playground.
func (j *job) apiAssets() [][2]string {
	for _, p := range j.pages {
		if p.api != nil || p.schema != nil || p.fm.API != "" {
			out := [][2]string{{"_static/api.css", "assets/api.css"}, {"_static/api.js", "assets/api.js"}}
			if j.features["playground"] {
				out = append(out, [2]string{"_static/playground.js", "assets/playground.js"})
			}
			return out
		}
	}
	return nil
}
