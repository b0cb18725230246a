package rollout

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"helm.sh/helm/v3/pkg/release"
)

// staticValues is the normalised staticExport table. Its JSON encoding, with
// fields in this fixed order, is what the values digest hashes.
type staticValues struct {
	Enabled   bool   `json:"enabled"`
	BundleURL string `json:"bundleUrl"`
	Version   string `json:"version"`
	ExpiresAt string `json:"expiresAt"`
}

// desiredValues normalises a request. The expiry is kept to the second in
// UTC, so the same instant always gives the same string and digest.
// Truncating rather than rounding never claims a link lives longer than it
// does.
func desiredValues(req Request) staticValues {
	v := staticValues{Enabled: true, BundleURL: req.BundleURL, Version: req.Version}
	if !req.ExpiresAt.IsZero() {
		v.ExpiresAt = req.ExpiresAt.UTC().Format(time.RFC3339)
	}
	return v
}

// digest is the hex sha256 of the stable JSON encoding.
func (v staticValues) digest() string {
	b, err := json.Marshal(v)
	if err != nil {
		// A struct of strings and a bool always encodes.
		panic(fmt.Sprintf("rollout: encode static values: %v", err))
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// mergeInto sets the four keys in a copy of the release's user-supplied
// values, keeping every other key, including other keys of the staticExport
// table. expiresAt is always written, empty when unknown, so a stale expiry
// from an earlier link can never outlive it.
func (v staticValues) mergeInto(config map[string]interface{}) map[string]interface{} {
	vals := copyValues(config)
	if vals == nil {
		vals = map[string]interface{}{}
	}
	table, _ := vals[ValuesKey].(map[string]interface{})
	if table == nil {
		table = map[string]interface{}{}
	}
	table[KeyEnabled] = v.Enabled
	table[KeyBundleURL] = v.BundleURL
	table[KeyVersion] = v.Version
	table[KeyExpiresAt] = v.ExpiresAt
	vals[ValuesKey] = table
	return vals
}

// effectiveValues reads the staticExport table a revision renders with: the
// user-supplied value where there is one, otherwise the chart's default. As
// in Helm, a user-supplied null removes the key rather than falling back.
// Only these four keys are coalesced, by hand, because chartutil's
// coalescing prints warnings with values to the standard logger.
func effectiveValues(rel *release.Release) staticValues {
	user, _ := rel.Config[ValuesKey].(map[string]interface{})
	var defaults map[string]interface{}
	if rel.Chart != nil {
		defaults, _ = rel.Chart.Values[ValuesKey].(map[string]interface{})
	}
	get := func(key string) interface{} {
		if v, ok := user[key]; ok {
			return v
		}
		return defaults[key]
	}
	return staticValues{
		Enabled:   asBool(get(KeyEnabled)),
		BundleURL: asString(get(KeyBundleURL)),
		Version:   asString(get(KeyVersion)),
		ExpiresAt: asString(get(KeyExpiresAt)),
	}
}

// asBool accepts the string forms too, which `helm upgrade --set-string`
// or a values file with quoted booleans produce.
func asBool(v interface{}) bool {
	switch b := v.(type) {
	case bool:
		return b
	case string:
		p, _ := strconv.ParseBool(b)
		return p
	}
	return false
}

// asString renders non-strings the way they would print in a template, so
// `--set staticExport.version=2024` (a number to Helm) still reads "2024".
func asString(v interface{}) string {
	switch s := v.(type) {
	case nil:
		return ""
	case string:
		return s
	case float64:
		return strconv.FormatFloat(s, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

// copyValues deep-copies a values tree. Releases read from Helm's memory
// driver share their maps with the stored records, so writing into a
// release's Config would silently rewrite history.
func copyValues(in map[string]interface{}) map[string]interface{} {
	if in == nil {
		return nil
	}
	out := make(map[string]interface{}, len(in))
	for k, v := range in {
		out[k] = copyValue(v)
	}
	return out
}

func copyValue(v interface{}) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		return copyValues(t)
	case []interface{}:
		out := make([]interface{}, len(t))
		for i, e := range t {
			out[i] = copyValue(e)
		}
		return out
	}
	// Everything else in a values tree (strings, numbers, bools) is
	// immutable.
	return v
}
