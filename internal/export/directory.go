package export

import "strings"

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
func (j *job) directory(b *strings.Builder, p *page, prefix string) {
	g, ok := j.tree.dirOf[p.key]
	if !ok {
		return
	}
	b.WriteString(`<nav class="directory directory-` + g.directory + `" aria-label="In this section">`)
	if g.directory == "card" {
		b.WriteString(`<div class="card-group">`)
		for _, it := range g.children {
			if key := j.entryPage(it); key != "" {
				q := j.byKey[key]
				label := q.navTitle()
				if it.page == "" {
					label = it.group
				}
				b.WriteString(`<a class="card" href="` + prefix + esc(hrefPath(q.out)) + `"><span class="card-title">` + esc(label) + `</span>`)
				if it.page != "" && q.fm.Description != "" {
					b.WriteString(`<span class="card-body">` + esc(q.fm.Description) + `</span>`)
				}
				b.WriteString(`</a>`)
			}
		}
		b.WriteString(`</div></nav>`)
		return
	}
	j.directoryList(b, g.children, prefix)
	b.WriteString(`</nav>`)
}

// directoryList writes entries as a list, nested groups as open sections.
func (j *job) directoryList(b *strings.Builder, items []*navItem, prefix string) {
	b.WriteString(`<ul class="directory-list">`)
	for _, it := range items {
		if it.hidden || it.page != "" && j.byKey[it.page].fm.Hidden {
			continue
		}
		if it.page != "" {
			q := j.byKey[it.page]
			b.WriteString(`<li><a href="` + prefix + esc(hrefPath(q.out)) + `">` + esc(q.navTitle()) + `</a>`)
			if q.fm.Description != "" {
				b.WriteString(` <span class="directory-desc">` + esc(q.fm.Description) + `</span>`)
			}
			b.WriteString(`</li>`)
			continue
		}
		b.WriteString(`<li><details open><summary>` + esc(it.group) + `</summary>`)
		if it.root != "" {
			q := j.byKey[it.root]
			b.WriteString(`<p><a href="` + prefix + esc(hrefPath(q.out)) + `">` + esc(q.navTitle()) + `</a></p>`)
		}
		j.directoryList(b, it.children, prefix)
		b.WriteString(`</details></li>`)
	}
	b.WriteString(`</ul>`)
}

// entryPage is the page an entry of a listing opens: the page itself, or
// a group's root, else its first page; "" for hidden entries.
func (j *job) entryPage(it *navItem) string {
	if it.hidden || it.page != "" && j.byKey[it.page].fm.Hidden {
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
