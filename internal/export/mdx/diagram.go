package mdx

import (
	"bytes"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"

	"github.com/yuin/goldmark/util"
)

// A Mermaid diagram (a fence whose language is mermaid) is drawn by
// Mermaid in the reader's browser, as on the platform: the page holds its
// source in a <pre class="mermaid">, which reads as a code block where
// scripts do not run, and the facade adds Mermaid's script to every page
// that has one (HasDiagram).

// diagramOpen starts a diagram's source in the rendered page.
const diagramOpen = `<div class="mermaid-diagram"><pre class="mermaid">`

func writeDiagram(w util.BufWriter, src string) {
	_, _ = w.WriteString(diagramOpen)
	_, _ = w.WriteString(markup.Escape(src))
	_, _ = w.WriteString("</pre></div>\n")
}

// HasDiagram reports whether a rendered page holds a Mermaid diagram.
func HasDiagram(rendered []byte) bool {
	return bytes.Contains(rendered, []byte(`<pre class="mermaid">`))
}
