package export

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/samples"
)

// apiSettings is the "api" block of docs.json: what API pages show.
type apiSettings struct {
	// OpenAPI names the specs of the site. Frontmatter without a file
	// searches every spec of the source anyway (in file name order, as the
	// platform does); naming them here reports those that do not parse.
	OpenAPI    openapiRef `json:"openapi"`
	Playground struct {
		Display string `json:"display"`
	} `json:"playground"`
	Params struct {
		Expanded string   `json:"expanded"` // "all" opens child attributes
		Post     []string `json:"post"`     // schema keys shown as pills after a field's name
	} `json:"params"`
	Examples struct {
		Languages    []string `json:"languages"`
		Autogenerate *bool    `json:"autogenerate"`
		Defaults     string   `json:"defaults"` // "required" leaves optional parameters out of samples
		// Prefill fills the playground from x-default of parameters and
		// properties (security schemes' x-default fills it always).
		Prefill bool `json:"prefill"`
	} `json:"examples"`
	MDX struct {
		Server serverList `json:"server"`
		Auth   struct {
			Method string `json:"method"` // bearer, basic, key, cobo
			Name   string `json:"name"`   // the header of "key"
		} `json:"auth"`
	} `json:"mdx"`
}

// serverList is a base URL or a list of them; the first is used.
type serverList []string

func (s *serverList) UnmarshalJSON(b []byte) error {
	var one string
	if json.Unmarshal(b, &one) == nil {
		*s = serverList{one}
		return nil
	}
	return json.Unmarshal(b, (*[]string)(s))
}

// apiKeyWhy lists the settings of the "api" block the export does not
// honour, with what a reader of the bundle misses. Keys not listed here
// nor decoded above are reported as unknown.
var apiKeyWhy = map[string]string{
	"asyncapi":               "AsyncAPI channel pages are not generated",
	"examples.defaults":      "samples send the required query and header parameters and the example body",
	"playground.proxy":       "a bundle has no proxy: the playground sends from the reader's browser (the API must answer CORS)",
	"playground.credentials": "the playground never sends browser credentials",
}

// apiKeysHonoured are the settings of the "api" block that change the export.
var apiKeysHonoured = map[string]bool{"openapi": true, "playground": true, "playground.display": true,
	"params": true, "params.expanded": true, "params.post": true, "examples": true, "examples.languages": true,
	"examples.autogenerate": true, "examples.defaults": true, "examples.prefill": true, "mdx": true, "mdx.server": true, "mdx.auth": true,
	// Endpoint pages always show the full base URL, which is what "full" asks for.
	"url": true}

// checkAPIKeys warns about settings of the "api" block the export leaves out.
func checkAPIKeys(raw json.RawMessage, warn func(string, ...any)) {
	var top map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &top) != nil {
		return
	}
	var keys []string
	for _, k := range sortedKeys(top) {
		keys = append(keys, k)
		var sub map[string]json.RawMessage
		if k != "openapi" && k != "asyncapi" && json.Unmarshal(top[k], &sub) == nil {
			for _, s := range sortedKeys(sub) {
				keys = append(keys, k+"."+s)
			}
		}
	}
	for _, k := range keys {
		switch why, known := apiKeyWhy[k]; {
		case apiKeysHonoured[k]:
		case known:
			warn("docs.json: the setting \"api.%s\" is ignored: %s", k, why)
		default:
			warn("docs.json: the setting \"api.%s\" is not supported by the static export yet; ignored", k)
		}
	}
}

// sampleOrder returns the generated sample languages in the order
// docs.json lists them (curl, Python, JavaScript when it lists none) and
// the listed languages the export has no generator for.
func (a *apiSettings) sampleOrder() (langs, unknown []string) {
	if len(a.Examples.Languages) == 0 {
		return samples.Default, nil
	}
	for _, l := range a.Examples.Languages {
		k, ok := samples.Lookup(l)
		switch {
		case !ok:
			unknown = append(unknown, l)
		case !slices.Contains(langs, k):
			langs = append(langs, k)
		}
	}
	return langs, unknown
}

// playgroundModes are the display modes of the platform's playground.
var playgroundModes = map[string]bool{"interactive": true, "simple": true, "none": true, "auth": true}

// playgroundMode decides how an endpoint page shows the playground: its
// frontmatter (or x-mint metadata), else docs.json, else interactive.
// "auth" shows the playground to signed-in readers only; a bundle has no
// signed-in readers, so it shows none.
func (j *job) playgroundMode(p *page) string {
	for _, m := range []string{p.fm.Playground, j.cfg.API.Playground.Display} {
		m = strings.ToLower(strings.TrimSpace(m))
		if m == "" {
			continue
		}
		if !playgroundModes[m] {
			j.warn("%s: playground %q is not one of interactive, simple, none, auth; interactive is used", p.file, m)
			return "interactive"
		}
		return m
	}
	return "interactive"
}

// mdxAuth writes the authentication field of an MDX API page (one with
// "api" frontmatter).
func (j *job) mdxAuth(b *markup.Builder, p *page, prefix markup.Prefix) {
	sc, ok := j.mdxScheme(p)
	if !ok {
		return
	}
	v := &schemaWriter{View: &openapi.View{Budget: openapi.SchemaBudget}, md: func(s string) markup.HTML { return j.mdHTML(s, p.key, prefix) }}
	b.Markup(`<div class="api-auth"><p class="api-subtitle">Authorization</p>`)
	authField(b, sc, v)
	b.Markup(`</div>`)
}

// mdxScheme is the authentication of an MDX API page: its authMethod,
// else api.mdx.auth of docs.json; "none" turns it off for the page.
func (j *job) mdxScheme(p *page) (openapi.Scheme, bool) {
	if p.fm.API == "" {
		return openapi.Scheme{}, false
	}
	method := strings.ToLower(strings.TrimSpace(p.fm.AuthMethod))
	if method == "" {
		method = strings.ToLower(strings.TrimSpace(j.cfg.API.MDX.Auth.Method))
	}
	switch method {
	case "", "none":
		return openapi.Scheme{}, false
	case "bearer":
		return openapi.Scheme{Name: "Bearer", Type: method}, true
	case "basic":
		return openapi.Scheme{Name: "Basic", Type: method}, true
	case "key":
		name := j.cfg.API.MDX.Auth.Name
		if name == "" {
			j.warn("%s: authMethod key needs api.mdx.auth.name in docs.json (the header that carries the key); no authentication field shown", p.file)
			return openapi.Scheme{}, false
		}
		return openapi.Scheme{Name: name, Type: "apiKey", In: "header", Param: name}, true
	}
	j.warn("%s: authMethod %q is not shown by the static export (bearer, basic, key and none are)", p.file, method)
	return openapi.Scheme{}, false
}
