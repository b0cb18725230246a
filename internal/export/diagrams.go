package export

import (
	"embed"
	"sync/atomic"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
)

// The browser libraries a bundle ships, as pinned and copied from npm by
// tools/vendorjs/update.sh (SHA256SUMS there, checked by
// TestVendored_unchanged), each with its licence.
//
//go:embed assets/vendor assets/mermaid-init.js
var vendored embed.FS

// diagrams notes whether any page of the export has a Mermaid diagram:
// then, and only then, the bundle carries Mermaid (2.7 MB).
type diagrams struct{ any atomic.Bool }

// diagramScripts are the bundle files a page with a diagram loads, in
// order, as bundle path and embedded file.
var diagramScripts = [][2]string{
	{"_static/mermaid/mermaid.min.js", "assets/vendor/mermaid/mermaid.min.js"},
	{"_static/mermaid-init.js", "assets/mermaid-init.js"},
}

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
		b.URL(markup.Path(prefix, s[0], ""))
		b.Markup(`"></script>`)
	}
	return append(content, b.String()...)
}

// assets are the files of the diagrams' scripts, with Mermaid's licence,
// when a page needs them.
func (d *diagrams) assets() [][2]string {
	if !d.any.Load() {
		return nil
	}
	return append(diagramScripts[:len(diagramScripts):len(diagramScripts)],
		[2]string{"_static/mermaid/LICENSE", "assets/vendor/mermaid/LICENSE"})
}
