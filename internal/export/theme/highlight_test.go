package theme

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"

	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/styles"
)

var update = flag.Bool("update", false, "rewrite assets/highlight.css from chroma's styles")

// TestHighlightCSS keeps assets/highlight.css equal to what chroma
// generates for the two styles; -update rewrites it after a chroma upgrade.
func TestHighlightCSS(t *testing.T) {
	var b bytes.Buffer
	for _, s := range []struct{ style, scope string }{{"github", ""}, {"github-dark", "[data-theme=dark] "}} {
		var css bytes.Buffer
		f := chromahtml.New(chromahtml.WithClasses(true), chromahtml.WithCSSComments(false))
		if err := f.WriteCSS(&css, styles.Get(s.style)); err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(css.String(), "\n") {
			if line = strings.TrimSpace(line); line != "" {
				b.WriteString(s.scope + line + "\n")
			}
		}
	}
	if *update {
		if err := os.WriteFile("assets/highlight.css", b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(b.Bytes(), highlightCSS) {
		t.Fatal("assets/highlight.css is stale: go test ./internal/export/theme -run TestHighlightCSS -args -update")
	}
}
