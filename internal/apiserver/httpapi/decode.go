package httpapi

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
)

// fieldNames lists the JSON names of the fields of the struct v points to.
func fieldNames(v any) []string {
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		names = append(names, name)
	}
	return names
}

// checkKeys walks a body that has already decoded cleanly and rejects a
// key repeated in any object, and a top-level key that names a field only
// when case is ignored ({"DOMAIN": …}).
func checkKeys(data []byte, fields []string) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	return walkValue(dec, fields, 0)
}

// maxKeyDepth bounds the walk; the 1 MiB body cap bounds it anyway, and
// the request types nest two levels at most.
const maxKeyDepth = 64

func walkValue(dec *json.Decoder, fields []string, depth int) error {
	if depth > maxKeyDepth {
		return BadRequest("request body nests deeper than %d levels", maxKeyDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return BadRequest("request body is not valid JSON: %s", err.Error())
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return BadRequest("request body is not valid JSON: %s", err.Error())
			}
			key, _ := kt.(string)
			if seen[key] {
				return BadRequest("field %q appears more than once", key)
			}
			seen[key] = true
			for _, f := range fields {
				if key != f && strings.EqualFold(key, f) {
					return BadRequest("unknown field %q (did you mean %q? field names are case-sensitive)", key, f)
				}
			}
			if err := walkValue(dec, nil, depth+1); err != nil {
				return err
			}
		}
		_, err = dec.Token() // the closing brace
	case json.Delim('['):
		for dec.More() {
			if err := walkValue(dec, nil, depth+1); err != nil {
				return err
			}
		}
		_, err = dec.Token()
	}
	if err != nil {
		return BadRequest("request body is not valid JSON: %s", err.Error())
	}
	return nil
}
