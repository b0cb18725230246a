package export

import (
	_ "embed" // mermaidInit
	"io/fs"
	"regexp"
	"sync/atomic"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/thirdparty"
)

// mermaidInit draws a page's diagrams with the Mermaid of
// internal/export/thirdparty.
//
//go:embed assets/mermaid-init.js
var mermaidInit []byte

// diagrams notes whether any page of the export has a Mermaid diagram:
// then, and only then, the bundle carries Mermaid (2.7 MB).
type diagrams struct{ any atomic.Bool }

// diagramScripts are the bundle files a page with a diagram loads, in
// order.
var diagramScripts = []string{"_static/mermaid/mermaid.min.js", "_static/mermaid-init.js"}

// with adds the diagram scripts to a page's content when it has a
// diagram. prefix leads from the page to the bundle's root.
func (d *diagrams) with(content []byte, prefix markup.Prefix) []byte {
	if !mdx.HasDiagram(content) {
		return content
	}
	d.any.Store(true)
	var b markup.Builder
	for _, s := range diagramScripts {
		b.Markup(`<script src="`)
		b.URL(markup.Path(prefix, s, ""))
		b.Markup(`"></script>`)
	}
	return append(content, b.String()...)
}

// assets are the files of the diagrams' scripts, with Mermaid's licence,
// when a page needs them: bundle path and contents.
func (d *diagrams) assets() []bundleAsset {
	if !d.any.Load() {
		return nil
	}
	return []bundleAsset{
		{"_static/mermaid/mermaid.min.js", thirdpartyFile("mermaid/mermaid.min.js")},
		{"_static/mermaid/LICENSE", thirdpartyFile("mermaid/LICENSE")},
		{"_static/mermaid-init.js", func() ([]byte, error) { return mermaidInit, nil }},
	}
}

// bundleAsset is a file the export writes into a bundle once, after its
// pages.
type bundleAsset struct {
	path string
	make func() ([]byte, error)
}

func thirdpartyFile(name string) func() ([]byte, error) {
	return func() ([]byte, error) { return thirdparty.Files.ReadFile(name) }
}

// formulas notes whether any page of the export has a formula KaTeX
// typeset: then the bundle carries KaTeX's stylesheet and fonts (about
// 320 KB), which such pages link.
type formulas struct{ any atomic.Bool }

// katexCSS is KaTeX's stylesheet as a bundle ships it.
const katexCSS = "_static/katex/katex.min.css"

// with links KaTeX's stylesheet from a page that holds a formula.
func (f *formulas) with(content []byte, prefix markup.Prefix) []byte {
	if !mdx.HasMath(content) {
		return content
	}
	f.any.Store(true)
	var b markup.Builder
	b.Markup(`<link rel="stylesheet" href="`)
	b.URL(markup.Path(prefix, katexCSS, ""))
	b.Markup(`">`)
	return append(content, b.String()...)
}

// assets are KaTeX's stylesheet, fonts and licence, when a page has a
// formula.
func (f *formulas) assets() []bundleAsset {
	if !f.any.Load() {
		return nil
	}
	out := []bundleAsset{
		{katexCSS, katexStylesheet},
		{"_static/katex/LICENSE", thirdpartyFile("katex/LICENSE")},
	}
	fonts, _ := fs.ReadDir(thirdparty.Files, "katex/fonts")
	for _, e := range fonts {
		out = append(out, bundleAsset{"_static/katex/fonts/" + e.Name(), thirdpartyFile("katex/fonts/" + e.Name())})
	}
	return out
}

// olderFonts are the WOFF and TrueType sources KaTeX's stylesheet names
// after each WOFF2 one: every browser that runs the bundle's pages reads
// WOFF2, so the bundle ships that format only and the stylesheet names
// only what is there.
var olderFonts = regexp.MustCompile(`,url\(fonts/[A-Za-z0-9_-]+\.(woff|ttf)\) format\("(woff|truetype)"\)`)

func katexStylesheet() ([]byte, error) {
	css, err := thirdparty.Files.ReadFile("katex/katex.min.css")
	if err != nil {
		return nil, err
	}
	return olderFonts.ReplaceAll(css, nil), nil
}
