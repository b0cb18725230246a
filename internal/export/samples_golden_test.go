package export

import (
	"go/format"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// sampleExts names the golden file of each generated language.
var sampleExts = []struct{ title, key, ext string }{
	{"cURL", "curl", "sh"}, {"Python", "python", "py"}, {"JavaScript", "javascript", "js"}, {"Node.js", "node", "node.js"}, {"Go", "go", "go"},
	{"Ruby", "ruby", "rb"}, {"PHP", "php", "php"}, {"Java", "java", "java"}, {"C#", "csharp", "cs"},
}

// TestGolden_samples pins the generated samples of the echo spec in every
// language, the only check of those TestSamples_echo cannot run here, and
// checks that the Go samples are gofmt-clean.
func TestGolden_samples(t *testing.T) {
	keys := make([]string, len(sampleExts))
	for i, s := range sampleExts {
		keys[i] = `"` + s.key + `"`
	}
	src := fstest.MapFS{"echo.json": {Data: []byte(echoSpec)}, "docs.json": {Data: []byte(`{"api": {"examples": {"languages": [` +
		strings.Join(keys, ", ") + `]}}, "navigation": {"groups": [{"group": "API", "openapi": "echo.json"}]}}`)}}
	out, _ := exportTo(t, Request{Source: src})
	for _, op := range echoOps {
		page := readOut(t, out, "api-reference/"+op.page+".html")
		for _, s := range sampleExts {
			code := sampleCode(t, page, s.title)
			compareGolden(t, filepath.Join("testdata", "golden", "samples", op.page+"."+s.ext), code+"\n")
			if s.key == "go" {
				if f, err := format.Source([]byte(code)); err != nil || string(f) != code+"\n" {
					t.Errorf("%s: Go sample is not gofmt-clean (%v):\n%s", op.page, err, f)
				}
			}
		}
	}
}
