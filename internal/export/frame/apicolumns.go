package frame

import (
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/site"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/uitext"
)

// An API page (an endpoint of a spec, or an MDX page with "api"
// frontmatter) reads in two columns on a wide screen, as on the hosted
// site: the reference on the left and, pinned on the right in place of
// the table of contents, the request samples and the response examples.
// The page is a grid of four parts (the title header, the method and
// path with the description, the examples, the rest) whose document
// order is the order of one column on a narrow screen: the examples come
// right after the description, before the parameters. api.css places
// them.

// TwoColumns reports whether page p is laid out in columns when it has
// examples: API pages in the modes that keep the title and the content's
// width to themselves (default and wide).
func TwoColumns(p *site.Page) bool {
	return (p.API != nil || p.FM.API != "") && (p.Mode == site.ModeDefault || p.Mode == site.ModeWide)
}

// WithAuthorExamples takes the page's own <RequestExample> and
// <ResponseExample> blocks out of its content for the examples column. An
// author's request examples stand in for the generated request samples,
// and their response examples for the generated ones, as the page's
// written examples win over what the spec gives.
func WithAuthorExamples(content []byte, gen mdx.Examples) ([]byte, mdx.Examples) {
	own := mdx.SplitExamples(content)
	if len(own.Request) == 0 {
		own.Request = gen.Request
	}
	if len(own.Response) == 0 {
		own.Response = gen.Response
	}
	return own.Rest, own
}

// ExamplesColumn writes the examples column: the request, then the
// response. On a wide screen it stays in view as the reference scrolls.
// The column's layout is in api.css, which an MDX page without a
// playground would not link otherwise.
func ExamplesColumn(b *markup.Builder, prefix markup.Prefix, ex mdx.Examples, u uitext.Text) {
	b.Markup(`<link rel="stylesheet" href="`)
	b.URL(markup.Path(prefix, "_static/api.css", ""))
	b.Markup(`"><aside class="api-examples"`)
	b.Attr("aria-label", u.T("examples"))
	b.Markup(`>`)
	if len(ex.Panel) > 0 {
		b.Markup(`<div class="panel-content prose">`)
		b.HTML(markup.Rendered(string(ex.Panel)))
		b.Markup(`</div>`)
	}
	if len(ex.Request) > 0 {
		b.Markup(`<div class="api-example api-example-request"><p class="api-example-title">`)
		b.Text(u.T("examplesRequest"))
		b.Markup(`</p>`)
		b.HTML(markup.Rendered(string(ex.Request)))
		b.Markup(`</div>`)
	}
	if len(ex.Response) > 0 {
		b.Markup(`<div class="api-example api-example-response"><p class="api-example-title">`)
		b.Text(u.T("examplesResponse"))
		b.Markup(`</p>`)
		b.HTML(markup.Rendered(string(ex.Response)))
		b.Markup(`</div>`)
	}
	b.Markup(`</aside>`)
}

// PanelColumn writes the content of a page's <Panel> in the column of
// the table of contents, which it replaces.
func PanelColumn(b *markup.Builder, panel []byte) {
	b.Markup(`<aside class="toc toc-panel"><div class="panel-content prose">`)
	b.HTML(markup.Rendered(string(panel)))
	b.Markup(`</div></aside>`)
}
