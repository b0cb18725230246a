package openapi

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseSpec_badInputs(t *testing.T) {
	bomb := "openapi: 3.0.0\na: &a [x, x, x, x, x, x, x, x]\n"
	prev := "a"
	for i := 0; i < 30; i++ { // 8^30 nodes if aliases were expanded
		name := fmt.Sprintf("l%d", i)
		bomb += name + ": &" + name + " [*" + prev + ", *" + prev + ", *" + prev + ", *" + prev + "]\n"
		prev = name
	}
	for _, tc := range []struct{ name, data, want string }{
		{"garbage", "{not json", "not valid JSON or YAML"},
		{"not an object", "[1, 2]", "an OpenAPI document is an object"},
		{"swagger 2", `{"swagger": "2.0"}`, "Swagger 2.0 is not supported"},
		{"no version", `{"info": {}}`, `"openapi" is "", want 3.0.x or 3.1.x`},
		{"trailing data", `{"openapi": "3.1.0"} {}`, "data after the top-level value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("s.json", []byte(tc.data))
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "s.json: ") {
				t.Errorf("err = %v, want one naming s.json and %q", err, tc.want)
			}
		})
	}
	s, err := Parse("bomb.yaml", []byte(bomb))
	if err != nil || s == nil {
		t.Fatalf("alias-heavy YAML: %v", err)
	}
	if _, err := s.pointer("https://example.com/x.json#/a"); err == nil || !strings.Contains(err.Error(), "external $ref") {
		t.Errorf("external ref: %v", err)
	}
}
