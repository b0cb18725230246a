package frame

import (
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/csp"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/theme"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/uitext"
	"slices"
)

// Head writes the document head shared by pages and generated documents.
// own is what the page adds to its policy (scripts, connect origins).
// u is the page's interface language.
func (f *Frame) Head(b *markup.Builder, u uitext.Text, title, desc string, canonical markup.URL, prefix markup.Prefix, noindex bool, meta markup.HTML, own csp.Policy) {
	b.Markup("<!DOCTYPE html>\n<html")
	u.HTMLAttrs(b)
	b.Attr("data-root", string(prefix))
	theme.AppearanceAttrs(b, f.cfg.Appearance)
	b.Markup(`><head><meta charset="utf-8">`)
	f.cspMeta(b, own)
	b.Markup(`<meta name="viewport" content="width=device-width, initial-scale=1"><title>`)
	b.Text(title)
	b.Markup(`</title>`)
	if desc != "" {
		b.Markup(`<meta name="description"`)
		b.Attr("content", desc)
		b.Markup(`>`)
	}
	if noindex {
		b.Markup(`<meta name="robots" content="noindex">`)
	}
	b.HTML(meta)
	if !canonical.Empty() {
		b.Markup(`<link rel="canonical" href="`)
		b.URL(canonical)
		b.Markup(`">`)
	}
	if !f.Favicon.Empty() {
		b.Markup(`<link rel="icon" href="`)
		b.URL(markup.Join(prefix, f.Favicon))
		b.Markup(`">`)
	}
	b.Markup(`<link rel="stylesheet" href="`)
	b.URL(markup.Path(prefix, "_static/style.css", ""))
	b.Markup(`">`)
	for _, css := range f.CustomCSS {
		b.Markup(`<link rel="stylesheet" href="`)
		b.URL(markup.Path(prefix, css, ""))
		b.Markup(`">`)
	}
	b.Markup(`<script>` + csp.ThemeScript + `</script>`)
	for _, js := range f.CustomJS {
		b.Markup(`<script src="`)
		b.URL(markup.Path(prefix, js, ""))
		b.Markup(`" defer></script>`)
	}
	if f.features["analytics"] {
		b.Markup(`<script src="`)
		b.URL(markup.Path(prefix, "_static/analytics.js", ""))
		b.Markup(`" defer></script>`)
	}
	b.Markup(`</head><body>`)
}

// cspMeta writes the <meta> element of a page's policy. f.CSPConnect
// holds the extra connect-src origins of the export (the API
// playground's servers, the analytics endpoint); own is what the page
// itself adds: the scripts of its MDX (csp.PageScripts), the origins
// its components read from.
func (f *Frame) cspMeta(b *markup.Builder, own csp.Policy) {
	b.Markup(`<meta http-equiv="Content-Security-Policy"`)
	b.Attr("content", csp.ContentSecurityPolicy(f.airGapped, csp.Policy{Connect: append(slices.Clip(f.CSPConnect), own.Connect...), Scripts: own.Scripts}))
	b.Markup(`>`)
}
