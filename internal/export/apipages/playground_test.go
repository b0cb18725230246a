package apipages

import (
	"reflect"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
)

// TestShareCredentials: a header parameter named as a credential's header
// (in any case) is one input, the credential's; parameters in another
// place, or named after no credential header, keep their own.
func TestShareCredentials(t *testing.T) {
	key := openapi.Scheme{Name: "key", Type: "apiKey", In: "header", Param: "X-API-Key"}
	query := openapi.Scheme{Name: "q", Type: "apiKey", In: "query", Param: "token"}
	bearer := openapi.Scheme{Name: "bearer", Type: "bearer"}
	params := []PlaygroundParam{
		{Name: "x-api-key", In: "header", Required: true},
		{Name: "X-API-Key", In: "query"},
		{Name: "token", In: "header"},
		{Name: "Authorization", In: "header", Default: "Bearer abc"},
		{Name: "X-Trace", In: "header"},
	}
	for _, c := range []struct {
		name           string
		security       [][]openapi.Scheme
		params, shared []int // indexes into params
	}{
		{"api key and bearer", [][]openapi.Scheme{{key}, {bearer, query}}, []int{1, 2, 4}, []int{0, 3}},
		{"query key only", [][]openapi.Scheme{{query}}, []int{0, 1, 2, 3, 4}, nil},
		{"no security", [][]openapi.Scheme{}, []int{0, 1, 2, 3, 4}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := &PlaygroundConfig{Security: c.security, Params: append([]PlaygroundParam{}, params...)}
			shareCredentials(cfg)
			pick := func(is []int) []PlaygroundParam {
				var out []PlaygroundParam
				for _, i := range is {
					out = append(out, params[i])
				}
				return out
			}
			if want := pick(c.params); !reflect.DeepEqual(cfg.Params, want) {
				t.Errorf("params %+v, want %+v", cfg.Params, want)
			}
			if want := pick(c.shared); !reflect.DeepEqual(cfg.Shared, want) {
				t.Errorf("shared %+v, want %+v", cfg.Shared, want)
			}
		})
	}
	// The page's panel carries the shared parameters to playground.js.
	var b markup.Builder
	writePlayground(&b, &PlaygroundConfig{Method: "GET", Path: "/p", Security: [][]openapi.Scheme{{key}}, Params: []PlaygroundParam{params[0]}}, &EnglishLabels)
	if got := b.String(); !containsAll(got, `<dialog class="playground" id="try-it"`, `"params":[]`, `"shared":[{"name":"x-api-key","in":"header","required":true}]`) {
		t.Errorf("panel:\n%s", got)
	}
}

func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
