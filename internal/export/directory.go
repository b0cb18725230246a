package export

import "github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"

// findDirectories records the groups whose root page lists their entries
// (the "directory" setting); the first group of a root page wins, as the
// page has one place in the navigation.
func (t *navTree) findDirectories() {
	t.dirOf = map[string]*navItem{}
	var items func([]*navItem)
	items = func(list []*navItem) {
		for _, it := range list {
			if it.root != "" && it.directory != "" {
				if _, seen := t.dirOf[it.root]; !seen {
					t.dirOf[it.root] = it
				}
			}
			items(it.children)
		}
	}
	var divs func(*division)
	divs = func(d *division) {
		items(d.items)
		for _, c := range d.children {
			divs(c)
		}
	}
	if t.root != nil {
		divs(t.root)
	}
}

// directory writes, below the content of a group's root page, the pages
// and groups of that group: as collapsible sections ("accordion") or as
// cards ("card"). Hidden entries are left out as in the sidebar.
func (f *frame) directory(b *markup.Builder, p *page, prefix markup.Prefix) {
	g, ok := f.tree.dirOf[p.key]
	if !ok {
		return
	}
	b.Markup(`<nav`)
	b.Attr("class", "directory directory-"+g.directory)
	b.Attr("aria-label", f.ui(f.section(p)).T("inThisSection"))
	b.Markup(`>`)
	if g.directory == "card" {
		b.Markup(`<div class="card-group">`)
		for _, it := range g.children {
			if key := f.entryPage(it); key != "" {
				q := f.byKey[key]
				label := q.navTitle()
				if it.page == "" {
					label = it.group
				}
				b.Markup(`<a class="card" href="`)
				b.URL(markup.Path(prefix, q.out, ""))
				b.Markup(`">`)
				f.icon.directoryIcon(b, it, q, prefix)
				b.Markup(`<span class="card-title">`)
				b.Text(label)
				b.Markup(`</span>`)
				if it.page != "" && q.fm.Description != "" {
					b.Markup(`<span class="card-body">`)
					b.Text(q.fm.Description)
					b.Markup(`</span>`)
				}
				b.Markup(`</a>`)
			}
		}
		b.Markup(`</div></nav>`)
		return
	}
	f.directoryList(b, g.children, prefix)
	b.Markup(`</nav>`)
}

// directoryList writes entries as a list, nested groups as open sections.
func (f *frame) directoryList(b *markup.Builder, items []*navItem, prefix markup.Prefix) {
	b.Markup(`<ul class="directory-list">`)
	for _, it := range items {
		if it.hidden || it.page != "" && f.byKey[it.page].fm.Hidden {
			continue
		}
		if it.page != "" {
			q := f.byKey[it.page]
			b.Markup(`<li>`)
			pageAnchor(b, prefix, q)
			if q.fm.Description != "" {
				b.Markup(` <span class="directory-desc">`)
				b.Text(q.fm.Description)
				b.Markup(`</span>`)
			}
			b.Markup(`</li>`)
			continue
		}
		b.Markup(`<li><details open><summary>`)
		b.Text(it.group)
		b.Markup(`</summary>`)
		if it.root != "" {
			b.Markup(`<p>`)
			pageAnchor(b, prefix, f.byKey[it.root])
			b.Markup(`</p>`)
		}
		f.directoryList(b, it.children, prefix)
		b.Markup(`</details></li>`)
	}
	b.Markup(`</ul>`)
}

// pageAnchor writes a plain link to page q, labelled with its sidebar title.
func pageAnchor(b *markup.Builder, prefix markup.Prefix, q *page) {
	b.Markup(`<a href="`)
	b.URL(markup.Path(prefix, q.out, ""))
	b.Markup(`">`)
	b.Text(q.navTitle())
	b.Markup(`</a>`)
}

// entryPage is the page an entry of a listing opens: the page itself, or
// a group's root, else its first page; "" for hidden entries.
func (f *frame) entryPage(it *navItem) string {
	if it.hidden || it.page != "" && f.byKey[it.page].fm.Hidden {
		return ""
	}
	if it.page != "" {
		return it.page
	}
	if it.root != "" {
		return it.root
	}
	return firstPage(it.children)
}
