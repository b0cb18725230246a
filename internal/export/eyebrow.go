package export

import (
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// findCrumbs records, for each page in the navigation, the labels above
// it: the divisions (language, version, tab, ...) and then the groups.
// The first place of a page wins, as for its section.
func (t *navTree) findCrumbs() {
	t.crumbs = map[string][]string{}
	var items func(list []*navItem, path []string)
	items = func(list []*navItem, path []string) {
		for _, it := range list {
			if it.page != "" {
				if _, seen := t.crumbs[it.page]; !seen {
					t.crumbs[it.page] = path
				}
				continue
			}
			inner := append(path[:len(path):len(path)], it.group)
			if it.root != "" {
				if _, seen := t.crumbs[it.root]; !seen {
					t.crumbs[it.root] = inner
				}
			}
			items(it.children, inner)
		}
	}
	var divs func(d *division, path []string)
	divs = func(d *division, path []string) {
		if d.label != "" {
			path = append(path[:len(path):len(path)], d.label)
		}
		items(d.items, path)
		for _, c := range d.children {
			divs(c, path)
		}
	}
	if t.root != nil {
		divs(t.root, nil)
	}
}

// eyebrow writes the line above a page's title that styling.eyebrows asks
// for: the page's group ("section") or its whole path ("breadcrumbs").
func (f *frame) eyebrow(b *markup.Builder, p *page) {
	path := f.tree.crumbs[p.key]
	if len(path) == 0 {
		return
	}
	switch f.cfg.Styling.Eyebrows {
	case "section":
		b.Markup(`<p class="eyebrow">`)
		b.Text(path[len(path)-1])
		b.Markup(`</p>`)
	case "breadcrumbs":
		b.Markup(`<nav class="eyebrow breadcrumbs"`)
		b.Attr("aria-label", f.ui(f.section(p)).T("breadcrumb"))
		b.Markup(`><ol>`)
		for _, l := range path {
			b.Markup(`<li>`)
			b.Text(l)
			b.Markup(`</li>`)
		}
		b.Markup(`</ol></nav>`)
	}
}
