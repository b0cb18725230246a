package frame

import (
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/airgap"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/csp"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/site"
)

// Section is the navigation section a page lives in; pages outside the
// navigation borrow the first section so they still offer a way around.
func (f *Frame) Section(p *site.Page) *site.Division {
	if s, ok := f.tree.SectionOf[p.Key]; ok {
		return s
	}
	return f.firstSection()
}

// Pager writes the links to the previous and next pages of p in reading
// order, staying within p's language.
func (f *Frame) Pager(b *markup.Builder, p *site.Page, prefix markup.Prefix) {
	i, ok := f.Order[p.Key]
	if !ok {
		return
	}
	u := f.UI(f.Section(p))
	// Reading order does not lead from one language into another.
	sameLang := func(q *site.Page) bool { return f.UI(f.Section(q)).Code() == u.Code() }
	b.Markup(`<nav class="pager"`)
	b.Attr("aria-label", u.T("prevNext"))
	b.Markup(`>`)
	if i > 0 && sameLang(f.byKey[f.tree.Order[i-1]]) {
		q := f.byKey[f.tree.Order[i-1]]
		b.Markup(`<a class="prev" rel="prev" href="`)
		b.URL(markup.Path(prefix, q.Out, ""))
		b.Markup(`"><span>`)
		b.Text(u.T("previous"))
		b.Markup(`</span>`)
		b.Text(q.NavTitle())
		b.Markup(`</a>`)
	}
	if i+1 < len(f.tree.Order) && sameLang(f.byKey[f.tree.Order[i+1]]) {
		q := f.byKey[f.tree.Order[i+1]]
		b.Markup(`<a class="next" rel="next" href="`)
		b.URL(markup.Path(prefix, q.Out, ""))
		b.Markup(`"><span>`)
		b.Text(u.T("next"))
		b.Markup(`</span>`)
		b.Text(q.NavTitle())
		b.Markup(`</a>`)
	}
	b.Markup(`</nav>`)
}

// assistantPath is the platform endpoint of the assistant, linked from
// the top bar only when the bundle's kind and configuration allow it.
const assistantPath = "/_assistant"

func (f *Frame) assistantURL() markup.URL {
	u, _ := markup.Parse("https://" + f.domain + assistantPath) // the domain was checked at the start
	return u
}

// RedirectPage is a page at out that sends the reader to href (relative to
// the bundle root unless absolute). A meta refresh works from file:// too.
func (f *Frame) RedirectPage(out string, href markup.URL, title string, canonical markup.URL) []byte {
	prefix := markup.RootPrefix(out)
	href = markup.Join(prefix, href)
	var b markup.Builder
	f.Head(&b, f.UI(f.firstSection()), f.cfg.Name, f.cfg.Description, canonical, prefix, false, markup.HTML{}, csp.Policy{})
	// The refresh goes after the head so the early theme script still runs.
	// An air-gapped page never moves to a place outside the bundle by
	// itself: a redirect out keeps its link, for the reader to follow.
	if !f.airGapped || !airgap.Outside(href.String(), string(prefix)) {
		b.Markup(`<meta http-equiv="refresh" content="0; url=`)
		b.URL(href)
		b.Markup(`">`)
	}
	b.Markup(`<main class="redirect"><p><a href="`)
	b.URL(href)
	b.Markup(`">`)
	b.Text(title)
	b.Markup(`</a></p></main></body></html>` + "\n")
	return []byte(b.String())
}

// NotFound is the 404 page: the frame of the first section around a
// short text and a link to the start page.
func (f *Frame) NotFound() ([]byte, error) {
	var b markup.Builder
	// One 404 page serves every language: it speaks the first section's.
	u := f.UI(f.firstSection())
	f.Head(&b, u, u.T("notFound")+" - "+f.cfg.Name, "", markup.URL{}, "", true, markup.HTML{}, csp.Policy{})
	b.HTML(f.Chrome(f.firstSection(), "", site.ModeDefault))
	b.Markup(`<main id="content" class="main"><article class="page"><header class="page-head"><h1>`)
	b.Text(u.T("notFound"))
	b.Markup(`</h1><p class="lead">`)
	b.Text(u.T("notFoundText"))
	b.Markup(` <a href="index.html">`)
	b.Text(u.T("startPage"))
	b.Markup(`</a></p></header></article>`)
	// The site's footer, as on every page: its links are a way back too.
	f.Footer(&b, f.firstSection(), "")
	b.Markup(`</main><aside class="toc"></aside>`)
	Tail(&b, "")
	return f.icons.Defs([]byte(b.String())), nil // its icons defined once, as on every page
}

func (f *Frame) firstSection() *site.Division {
	for _, s := range f.tree.Sections {
		if s.First != "" {
			return s
		}
	}
	return nil
}
