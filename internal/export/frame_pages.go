package export

import (
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/airgap"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// section is the navigation section a page lives in; pages outside the
// navigation borrow the first section so they still offer a way around.
func (f *frame) section(p *page) *division {
	if s, ok := f.tree.sectOf[p.key]; ok {
		return s
	}
	return f.firstSection()
}

func (f *frame) pager(b *markup.Builder, p *page, prefix markup.Prefix) {
	i, ok := f.order[p.key]
	if !ok {
		return
	}
	u := f.ui(f.section(p))
	// Reading order does not lead from one language into another.
	sameLang := func(q *page) bool { return f.ui(f.section(q)).Code() == u.Code() }
	b.Markup(`<nav class="pager"`)
	b.Attr("aria-label", u.T("prevNext"))
	b.Markup(`>`)
	if i > 0 && sameLang(f.byKey[f.tree.order[i-1]]) {
		q := f.byKey[f.tree.order[i-1]]
		b.Markup(`<a class="prev" rel="prev" href="`)
		b.URL(markup.Path(prefix, q.out, ""))
		b.Markup(`"><span>`)
		b.Text(u.T("previous"))
		b.Markup(`</span>`)
		b.Text(q.navTitle())
		b.Markup(`</a>`)
	}
	if i+1 < len(f.tree.order) && sameLang(f.byKey[f.tree.order[i+1]]) {
		q := f.byKey[f.tree.order[i+1]]
		b.Markup(`<a class="next" rel="next" href="`)
		b.URL(markup.Path(prefix, q.out, ""))
		b.Markup(`"><span>`)
		b.Text(u.T("next"))
		b.Markup(`</span>`)
		b.Text(q.navTitle())
		b.Markup(`</a>`)
	}
	b.Markup(`</nav>`)
}

func (f *frame) assistantURL() markup.URL {
	u, _ := markup.Parse("https://" + f.domain + assistantPath) // the domain was checked at the start
	return u
}

// redirectPage is a page at out that sends the reader to href (relative to
// the bundle root unless absolute). A meta refresh works from file:// too.
func (f *frame) redirectPage(out string, href markup.URL, title string, canonical markup.URL) []byte {
	prefix := markup.RootPrefix(out)
	href = markup.Join(prefix, href)
	var b markup.Builder
	f.head(&b, f.ui(f.firstSection()), f.cfg.Name, f.cfg.Description, canonical, prefix, false, markup.HTML{}, nil)
	// The refresh goes after the head so the early theme script still runs.
	// An air-gapped page never moves to a place outside the bundle by
	// itself: a redirect out keeps its link, for the reader to follow.
	if f.kind != KindAirGapped || !airgap.Outside(href.String()) {
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

func (f *frame) notFound() ([]byte, error) {
	var b markup.Builder
	// One 404 page serves every language: it speaks the first section's.
	u := f.ui(f.firstSection())
	f.head(&b, u, u.T("notFound")+" - "+f.cfg.Name, "", markup.URL{}, "", true, markup.HTML{}, nil)
	b.HTML(f.chrome(f.firstSection(), "", modeDefault))
	b.Markup(`<main id="content" class="main"><article class="page"><header class="page-head"><h1>`)
	b.Text(u.T("notFound"))
	b.Markup(`</h1><p class="lead">`)
	b.Text(u.T("notFoundText"))
	b.Markup(` <a href="index.html">`)
	b.Text(u.T("startPage"))
	b.Markup(`</a></p></header></article>`)
	// The site's footer, as on every page: its links are a way back too.
	f.footer(&b, f.firstSection(), "")
	b.Markup(`</main><aside class="toc"></aside>`)
	tail(&b, "")
	return f.icon.icons.Defs([]byte(b.String())), nil // its icons defined once, as on every page
}

func (f *frame) firstSection() *division {
	for _, s := range f.tree.sections {
		if s.first != "" {
			return s
		}
	}
	return nil
}
