package frame

import (
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/site"
)

// Directory writes, below the content of a group's root page, the pages
// and groups of that group: as collapsible sections ("accordion") or as
// cards ("card"). Hidden entries are left out as in the sidebar.
func (f *Frame) Directory(b *markup.Builder, p *site.Page, prefix markup.Prefix) {
	g, ok := f.tree.DirOf[p.Key]
	if !ok {
		return
	}
	b.Markup(`<nav`)
	b.Attr("class", "directory directory-"+g.Directory)
	b.Attr("aria-label", f.UI(f.Section(p)).T("inThisSection"))
	b.Markup(`>`)
	if g.Directory == "card" {
		b.Markup(`<div class="card-group">`)
		for _, it := range g.Children {
			if key := f.entryPage(it); key != "" {
				q := f.byKey[key]
				label := q.NavTitle()
				if it.Page == "" {
					label = it.Group
				}
				b.Markup(`<a class="card" href="`)
				b.URL(markup.Path(prefix, q.Out, ""))
				b.Markup(`">`)
				f.directoryIcon(b, it, q, prefix)
				b.Markup(`<span class="card-title">`)
				b.Text(label)
				b.Markup(`</span>`)
				if it.Page != "" && q.FM.Description != "" {
					b.Markup(`<span class="card-body">`)
					b.Text(q.FM.Description)
					b.Markup(`</span>`)
				}
				b.Markup(`</a>`)
			}
		}
		b.Markup(`</div></nav>`)
		return
	}
	f.directoryList(b, g.Children, prefix)
	b.Markup(`</nav>`)
}

// directoryList writes entries as a list, nested groups as open sections.
func (f *Frame) directoryList(b *markup.Builder, items []*site.Item, prefix markup.Prefix) {
	b.Markup(`<ul class="directory-list">`)
	for _, it := range items {
		if it.Hidden || it.Page != "" && f.byKey[it.Page].FM.Hidden {
			continue
		}
		if it.Page != "" {
			q := f.byKey[it.Page]
			b.Markup(`<li>`)
			pageAnchor(b, prefix, q)
			if q.FM.Description != "" {
				b.Markup(` <span class="directory-desc">`)
				b.Text(q.FM.Description)
				b.Markup(`</span>`)
			}
			b.Markup(`</li>`)
			continue
		}
		b.Markup(`<li><details open><summary>`)
		b.Text(it.Group)
		b.Markup(`</summary>`)
		if it.Root != "" {
			b.Markup(`<p>`)
			pageAnchor(b, prefix, f.byKey[it.Root])
			b.Markup(`</p>`)
		}
		f.directoryList(b, it.Children, prefix)
		b.Markup(`</details></li>`)
	}
	b.Markup(`</ul>`)
}

// pageAnchor writes a plain link to page q, labelled with its sidebar title.
func pageAnchor(b *markup.Builder, prefix markup.Prefix, q *site.Page) {
	b.Markup(`<a href="`)
	b.URL(markup.Path(prefix, q.Out, ""))
	b.Markup(`">`)
	b.Text(q.NavTitle())
	b.Markup(`</a>`)
}

// entryPage is the page an entry of a listing opens: the page itself, or
// a group's root, else its first page; "" for hidden entries.
func (f *Frame) entryPage(it *site.Item) string {
	if it.Hidden || it.Page != "" && f.byKey[it.Page].FM.Hidden {
		return ""
	}
	if it.Page != "" {
		return it.Page
	}
	if it.Root != "" {
		return it.Root
	}
	return site.FirstPage(it.Children)
}
