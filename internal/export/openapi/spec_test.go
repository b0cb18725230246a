package openapi

import (
	"fmt"
	"slices"
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

// An Obj keeps its keys in the order they were first set, small or past
// the size where it indexes them, and finds every one.
func TestObj_orderAndLookup(t *testing.T) {
	for _, n := range []int{1, smallObj, smallObj + 1, 100} {
		o := NewObj()
		var want []string
		for i := range n {
			k := fmt.Sprintf("k%d", n-i) // not in sorted order
			o.Set(k, i)
			want = append(want, k)
		}
		o.Set(want[0], "again") // keeps its place
		if !slices.Equal(o.Keys, want) || o.Len() != n {
			t.Fatalf("%d keys: Keys %q, Len %d", n, o.Keys, o.Len())
		}
		for i, k := range want {
			w := any(i)
			if i == 0 {
				w = "again"
			}
			if v, ok := o.Lookup(k); !ok || v != w {
				t.Fatalf("%d keys: %s = %v, %v; want %v", n, k, v, ok, w)
			}
		}
		if v, ok := o.Lookup("absent"); ok || v != nil || o.Get("absent") != nil {
			t.Fatalf("%d keys: an absent key is there", n)
		}
	}
	var none *Obj
	if _, ok := none.Lookup("k"); ok || none.Len() != 0 {
		t.Fatal("a nil Obj has keys")
	}
}
