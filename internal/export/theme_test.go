package export

import (
	"strings"
	"testing"
)

func TestStylesheet_colorsFromDocsJSON(t *testing.T) {
	dir, _ := exportTo(t, Request{Source: fixture()})
	css := readOut(t, dir, "_static/style.css")
	first, _, _ := strings.Cut(css, "\n")
	want := ":root{--primary:#FF5500;--primary-light:#FF5500;--primary-dark:#AA3300;--bg-dark:#101010}"
	if first != want {
		t.Errorf("theme line = %s\nwant          %s", first, want)
	}
	if strings.Contains(css, "red;}body{display:none") {
		t.Error("a colour that breaks out of its declaration reached the stylesheet")
	}
	if !strings.Contains(css, "[data-theme=dark] .chroma") {
		t.Error("no dark highlighting styles")
	}
}
