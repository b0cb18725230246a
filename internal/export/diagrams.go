package export

import (
	_ "embed" // mermaidInit
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
