package apipages

import (
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
)

// PlaygroundConfig is what playground.js builds the "Try it" panel from. It is
// embedded in the page as JSON, which a browser does not execute.
type PlaygroundConfig struct {
	Method   string             `json:"method"`
	Path     string             `json:"path"`
	Servers  []string           `json:"servers"`
	Locked   bool               `json:"locked"` // air-gapped: send to the listed servers only
	Params   []PlaygroundParam  `json:"params"`
	Security [][]openapi.Scheme `json:"security"`
	Bodies   []openapi.Body     `json:"bodies,omitempty"` // one per request content type
	BodyReq  bool               `json:"bodyRequired,omitempty"`
	// Shared are the header parameters that carry a credential of
	// Security (the same header name, in any case): the panel shows one
	// input for both, the credential's, and sends the header once.
	Shared []PlaygroundParam `json:"shared,omitempty"`
	// Text are the texts the script writes in the page's language
	// (Labels.Playground); none on an English page.
	Text map[string]string `json:"text,omitempty"`
}

// PlaygroundParam is one parameter input of the playground.
type PlaygroundParam struct {
	Name     string   `json:"name"`
	In       string   `json:"in"`
	Required bool     `json:"required,omitempty"`
	Type     string   `json:"type,omitempty"`
	Enum     []string `json:"enum,omitempty"`
	Default  string   `json:"default,omitempty"`
	// Placeholder is what the empty input shows (a ParamField's
	// placeholder); the type otherwise.
	Placeholder string `json:"placeholder,omitempty"`
}

// playground writes the "Try it" panel of an endpoint page; playground.js fills
// it in. Without script the page still shows the full reference.
func (w *Pages) panel(b *markup.Builder, e *openapi.Endpoint, work *openapi.Work, l *Labels) {
	v := &openapi.View{Spec: e.Op.Spec, Budget: openapi.SchemaBudget, Prefill: w.api.Examples.Prefill,
		NoExamples: !w.api.Examples.Prefill, Work: work}
	cfg := PlaygroundConfig{Method: e.Op.Method, Path: e.Op.Path, Servers: e.Servers,
		Locked: w.locked, Security: e.Security, Params: []PlaygroundParam{}}
	if cfg.Servers == nil {
		cfg.Servers = []string{}
	}
	for _, p := range e.Params {
		f := v.Flatten(p.O.Get("schema"))
		pp := PlaygroundParam{Name: p.Name, In: p.In, Required: p.Required, Type: v.TypeLabel(f)}
		for _, x := range f.O.List("enum") {
			pp.Enum = append(pp.Enum, openapi.Plain(x))
		}
		if d, ok := openapi.XDefault(p.O, f.O); ok && v.Prefill {
			pp.Default = openapi.Plain(d)
		} else if d, ok := f.O.Lookup("default"); ok {
			pp.Default = openapi.Plain(d)
		} else if ex, ok := p.O.Lookup("example"); ok && !v.NoExamples {
			pp.Default = openapi.Plain(ex)
		}
		cfg.Params = append(cfg.Params, pp)
	}
	if cfg.Bodies = openapi.PlaygroundBodies(v, e); len(cfg.Bodies) > 0 {
		cfg.BodyReq = e.Body.Flag("required")
	}
	writePlayground(b, &cfg, l)
}

// writePlayground writes the panel of one request model, OpenAPI or MDX:
// a dialog that the "Try it" button playground.js adds next to the
// method and path opens. Without script it stays closed, and the page
// shows the full reference.
func writePlayground(b *markup.Builder, cfg *PlaygroundConfig, l *Labels) {
	shareCredentials(cfg)
	cfg.Text = l.Playground
	data, err := markup.JSON(cfg)
	if err != nil {
		return
	}
	b.Markup(`<dialog class="playground" id="try-it" aria-labelledby="try-it-title"><div class="pg-head">`)
	methodBadge(b, cfg.Method)
	b.Markup(`<code class="pg-path">`)
	b.Text(cfg.Path)
	b.Markup(`</code><p class="playground-title" id="try-it-title">`)
	b.Text(l.TryIt)
	b.Markup(`</p><button class="pg-close" type="button"`)
	b.Attr("aria-label", l.Close)
	b.Markup(`>×</button></div><script type="application/json" class="playground-config">`)
	b.HTML(data)
	b.Markup(`</script></dialog>`)
}

// shareCredentials moves out of cfg.Params every header parameter whose
// name is that of a credential's header (an API key sent in a header, or
// Authorization for bearer and basic), into cfg.Shared: a spec that
// declares the header its security scheme already sends gets one input
// for the one value, not two that could disagree.
func shareCredentials(cfg *PlaygroundConfig) {
	headers := map[string]bool{}
	for _, set := range cfg.Security {
		for _, sc := range set {
			switch {
			case sc.Type == "apiKey" && sc.In == "header" && sc.Param != "":
				headers[strings.ToLower(sc.Param)] = true
			case sc.Type == "bearer" || sc.Type == "basic":
				headers["authorization"] = true
			}
		}
	}
	if len(headers) == 0 {
		return
	}
	params := cfg.Params[:0:0]
	for _, p := range cfg.Params {
		if p.In == "header" && headers[strings.ToLower(p.Name)] {
			cfg.Shared = append(cfg.Shared, p)
			continue
		}
		params = append(params, p)
	}
	cfg.Params = params
}
