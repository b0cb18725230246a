package docsjson

import (
	"encoding/json"
	"maps"
	"slices"
)

// Settings is the "api" block of docs.json: what API pages show. Its
// "openapi" key, the specs of the site, is the navigation's to read.
type Settings struct {
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
		Server ServerList `json:"server"`
		Auth   struct {
			Method string `json:"method"` // bearer, basic, key, cobo
			Name   string `json:"name"`   // the header of "key"
		} `json:"auth"`
	} `json:"mdx"`
}

// ServerList is a base URL or a list of them; the first is used.
type ServerList []string

// UnmarshalJSON takes one URL or a list of them.
func (s *ServerList) UnmarshalJSON(b []byte) error {
	var one string
	if json.Unmarshal(b, &one) == nil {
		*s = ServerList{one}
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

// CheckKeys warns about settings of the "api" block the export leaves out.
func CheckKeys(raw json.RawMessage, warn func(string, ...any)) {
	var top map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &top) != nil {
		return
	}
	var keys []string
	for _, k := range slices.Sorted(maps.Keys(top)) {
		keys = append(keys, k)
		var sub map[string]json.RawMessage
		if k != "openapi" && k != "asyncapi" && json.Unmarshal(top[k], &sub) == nil {
			for _, s := range slices.Sorted(maps.Keys(sub)) {
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
