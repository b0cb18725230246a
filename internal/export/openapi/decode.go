package openapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"gopkg.in/yaml.v3"
)

// decodeJSONOrdered decodes JSON into obj, []any, string, json.Number,
// bool and nil, keeping key order.
func decodeJSONOrdered(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := jsonValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("data after the top-level value")
	}
	return v, nil
}

func jsonValue(dec *json.Decoder) (any, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch d := t.(type) {
	case json.Delim:
		if d == '[' {
			arr := []any{}
			for dec.More() {
				v, err := jsonValue(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			_, err := dec.Token()
			return arr, err
		}
		o := NewObj()
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := jsonValue(dec)
			if err != nil {
				return nil, err
			}
			o.Set(kt.(string), v)
		}
		_, err := dec.Token()
		return o, err
	}
	return t, nil
}

// decodeYAMLOrdered decodes YAML into the same shapes as JSON. Keys are
// taken as written, so an unquoted response code 200 is the key "200".
// Aliases share the converted value, so an alias bomb costs nothing.
func decodeYAMLOrdered(data []byte) (any, error) {
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		return nil, err
	}
	return yamlValue(&n, map[*yaml.Node]any{}, 0)
}

func yamlValue(n *yaml.Node, memo map[*yaml.Node]any, depth int) (any, error) {
	if depth > 1000 {
		return nil, errors.New("nesting deeper than 1000 levels")
	}
	if v, ok := memo[n]; ok {
		return v, nil
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return yamlValue(n.Content[0], memo, depth+1)
	case yaml.AliasNode:
		return yamlValue(n.Alias, memo, depth+1)
	case yaml.MappingNode:
		o := NewObj()
		memo[n] = o
		for i := 0; i+1 < len(n.Content); i += 2 {
			v, err := yamlValue(n.Content[i+1], memo, depth+1)
			if err != nil {
				return nil, err
			}
			o.Set(n.Content[i].Value, v)
		}
		return o, nil
	case yaml.SequenceNode:
		arr := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := yamlValue(c, memo, depth+1)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		memo[n] = arr
		return arr, nil
	}
	switch n.ShortTag() {
	case "!!int", "!!float":
		return json.Number(n.Value), nil
	case "!!bool":
		var b bool
		err := n.Decode(&b)
		return b, err
	case "!!null":
		return nil, nil
	}
	return n.Value, nil
}
