package frame

import (
	"path"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/site"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/uitext"
)

// switchers renders, for each level above the page's section, the sibling
// divisions: tabs as a tab bar, languages, versions and dropdowns as menus
// (app.js makes each a keyboard menu). With p set, a language or version
// leads to p's counterpart there (counterpart); without, to its first
// page.
func (nw *navWriter) switchers(b *markup.Builder, s *site.Division, prefix markup.Prefix, u uitext.Text, p *site.Page) {
	levels := switchPath(s)
	if len(levels) == 0 {
		return
	}
	b.Markup(`<nav class="divisions"`)
	b.Attr("aria-label", u.T("sections"))
	b.Markup(`>`)
	for _, d := range levels {
		if d.Kind == "anchor" {
			continue // anchors are listed at the top of the sidebar
		}
		var sib []*site.Division
		for _, c := range d.Parent.Children {
			if c.Kind == d.Kind && (c.First != "" || c.Href != "") {
				sib = append(sib, c)
			}
		}
		if d.Kind == "tab" {
			b.Markup(`<ul class="tabbar">`)
			for _, c := range sib {
				nw.divisionLink(b, c, prefix, c == d)
			}
			b.Markup(`</ul>`)
			continue
		}
		b.Markup(`<details`)
		b.Attr("class", "switch switch-"+d.Kind)
		b.Markup(`><summary>`)
		b.Text(d.Label)
		b.Markup(`</summary><ul>`)
		for _, c := range sib {
			if p != nil && keepsPage(d) && c != d && c.Href == "" {
				nw.divisionLinkTo(b, c, prefix, false, nw.counterpart(d, c, levels, p.Key))
				continue
			}
			nw.divisionLink(b, c, prefix, c == d)
		}
		b.Markup(`</ul></details>`)
	}
	b.Markup(`</nav>`)
}

// switchPath is the divisions from the top down to s, the root left out.
func switchPath(s *site.Division) []*site.Division {
	var levels []*site.Division
	for d := s; d != nil && d.Parent != nil; d = d.Parent {
		levels = append([]*site.Division{d}, levels...)
	}
	return levels
}

// keepsPage reports whether switching away from d keeps the page being
// read: a language or a version holds the same pages as its siblings;
// tabs, products and menus hold different ones.
func keepsPage(d *site.Division) bool { return d.Kind == "language" || d.Kind == "version" }

// PageSwitchers is chrome (Chrome's, for section s) with its switchers
// drawn for page p, so that choosing another language or version leads
// to the same page there. Chrome without such a switcher is returned as
// it is.
func (f *Frame) PageSwitchers(chrome markup.HTML, s *site.Division, prefix markup.Prefix, p *site.Page) markup.HTML {
	keep := false
	for _, d := range switchPath(s) {
		keep = keep || keepsPage(d)
	}
	if !keep {
		return chrome
	}
	const open, end = `<nav class="divisions"`, `</nav>`
	c := chrome.String()
	at := strings.Index(c, open)
	if at < 0 {
		return chrome
	}
	stop := strings.Index(c[at:], end)
	if stop < 0 {
		return chrome
	}
	stop += at + len(end)
	var b markup.Builder
	b.Grow(len(c) + 256)
	b.HTML(markup.Rendered(c[:at])) // safe markup cut before a tag
	f.switchers(&b, s, prefix, f.UI(s), p)
	b.HTML(markup.Rendered(c[stop:])) // safe markup cut after a closing tag
	return b.Fragment()
}

// divisionPages are the pages a division holds and the folder they share.
type divisionPages struct {
	folder string // "" or a path ending in "/"
	keys   map[string]bool
}

// pagesOf returns the pages of division d (its sidebar's and those of the
// divisions below it), computed once.
func (nw *navWriter) pagesOf(d *site.Division) *divisionPages {
	if v, ok := nw.divPages.Load(d); ok {
		return v.(*divisionPages)
	}
	dp := &divisionPages{keys: map[string]bool{}}
	var items func([]*site.Item)
	items = func(its []*site.Item) {
		for _, it := range its {
			for _, k := range []string{it.Page, it.Root} {
				if p := nw.byKey[k]; p != nil && !it.Hidden && !p.FM.Hidden {
					dp.keys[k] = true
				}
			}
			items(it.Children)
		}
	}
	var walk func(*site.Division)
	walk = func(d *site.Division) {
		items(d.Items)
		for _, c := range d.Children {
			walk(c)
		}
	}
	walk(d)
	first := true
	for k := range dp.keys {
		dir := ""
		if i := strings.LastIndex(k, "/"); i >= 0 {
			dir = k[:i+1]
		}
		if first {
			dp.folder, first = dir, false
			continue
		}
		for !strings.HasPrefix(dir, dp.folder) {
			dp.folder = parentFolder(dp.folder)
		}
	}
	v, _ := nw.divPages.LoadOrStore(d, dp)
	return v.(*divisionPages)
}

// parentFolder is the folder above folder ("a/b/" -> "a/", "a/" -> "").
func parentFolder(folder string) string {
	i := strings.LastIndex(strings.TrimSuffix(folder, "/"), "/")
	if i < 0 {
		return ""
	}
	return folder[:i+1]
}

// counterpart is the key of the page of division to that a reader of page
// key in division from (one of levels, the divisions down to the page's
// section) lands on when switching: the page at the same place below
// to's folder; else the nearest page above that place (the folder's own
// page or its index); else the first page of the division in to that
// matches the page's own below from (switching language on a v1 page
// leads to v1 in that language); else to's first page.
func (nw *navWriter) counterpart(from, to *site.Division, levels []*site.Division, key string) string {
	src, dst := nw.pagesOf(from), nw.pagesOf(to)
	rel := strings.TrimPrefix(key, src.folder)
	if dst.keys[dst.folder+rel] {
		return dst.folder + rel
	}
	for dir := path.Dir(rel); dir != "." && dir != "/"; dir = path.Dir(dir) {
		for _, k := range []string{dst.folder + dir, dst.folder + dir + "/index"} {
			if dst.keys[k] {
				return k
			}
		}
	}
	if m := matchBelow(from, to, levels); m != to && m.First != "" {
		return m.First
	}
	if dst.keys[dst.folder+"index"] {
		return dst.folder + "index"
	}
	return to.First
}

// matchBelow follows levels below from into to: at each level, the child
// of the same kind and label (a language by its code); the deepest found.
func matchBelow(from, to *site.Division, levels []*site.Division) *site.Division {
	at := to
	below := false
	for _, d := range levels {
		if d == from {
			below = true
			continue
		}
		if !below {
			continue
		}
		var next *site.Division
		for _, c := range at.Children {
			if c.Kind == d.Kind && c.Label == d.Label && c.Lang == d.Lang {
				next = c
				break
			}
		}
		if next == nil {
			break
		}
		at = next
	}
	return at
}
