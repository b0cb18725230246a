package docsjson

import (
	"encoding/json"
	"strings"
)

// Appearance is docs.json's "appearance": the mode a page opens in and
// whether the reader may change it.
type Appearance struct {
	// Default is "system" (follow the reader's system, the platform's
	// default), "light" or "dark"; anything else reads as "system", with
	// a warning.
	Default string `json:"default"`
	// Strict fixes the mode: no toggle, and a reader's earlier choice on
	// another site of the same origin is not applied.
	Strict bool `json:"strict"`
}

// check warns about an appearance setting the export cannot
// honour, naming the field, and settles Default to one of its values.
func (a *Appearance) check(raw json.RawMessage, warn func(string, ...any)) {
	var m map[string]json.RawMessage
	if len(raw) > 0 && json.Unmarshal(raw, &m) == nil {
		for _, k := range sortedKeys(m) {
			if k != "default" && k != "strict" {
				warn("docs.json: the setting \"appearance.%s\" is not supported by the static export yet; ignored", k)
			}
		}
	}
	switch d := strings.ToLower(strings.TrimSpace(a.Default)); d {
	case "", "system":
		a.Default = "system"
	case "light", "dark":
		a.Default = d
	default:
		warn("docs.json: appearance.default %q is not \"system\", \"light\" or \"dark\"; pages follow the reader's system", a.Default)
		a.Default = "system"
	}
}
