package mdx

import (
	"bytes"
	"slices"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"

	"github.com/yuin/goldmark/util"
)

// A Mermaid diagram (a fence whose language is mermaid) is drawn by
// Mermaid in the reader's browser, as on the platform: the page holds its
// source in a <pre class="mermaid">, which reads as a code block where
// scripts do not run, and the facade adds Mermaid's script to every page
// that has one (HasDiagram).

// writeDiagram writes a diagram whose source is src; info is its fence's
// info string, where actions and placement configure the zoom and pan
// controls mermaid-init.js adds (actions={false} hides them, actions or
// actions={true} shows them on a small diagram too; placement is a
// corner, bottom-right unless one of placements).
func writeDiagram(w util.BufWriter, src, info string) {
	var b markup.Builder
	b.Markup(`<div class="mermaid-diagram"`)
	switch v := strings.Trim(fenceOption(info, "actions"), `{}"'`); {
	case v == "false":
		b.Markup(` data-actions="false"`)
	case v == "true" || slices.Contains(strings.Fields(info), "actions"):
		b.Markup(` data-actions="true"`)
	}
	if p := strings.Trim(fenceOption(info, "placement"), `"'`); slices.Contains(placements, p) {
		b.Attr("data-placement", p)
	}
	b.Markup(`><pre class="mermaid">`)
	_, _ = w.WriteString(b.String())
	_, _ = w.WriteString(markup.Escape(src))
	_, _ = w.WriteString("</pre></div>\n")
}

// placements are the corners a diagram's controls may take.
var placements = []string{"top-left", "top-right", "bottom-left", "bottom-right"}

// fenceOption returns the value written as name=value in a fence's info
// string (quotes and braces kept), "" when there is none.
func fenceOption(info, name string) string {
	for _, f := range strings.Fields(info) {
		if v, ok := strings.CutPrefix(f, name+"="); ok {
			return v
		}
	}
	return ""
}

// HasDiagram reports whether a rendered page holds a Mermaid diagram.
func HasDiagram(rendered []byte) bool {
	return bytes.Contains(rendered, []byte(`<pre class="mermaid">`))
}
