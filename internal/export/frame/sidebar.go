package frame

import (
	"strconv"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/site"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/uitext"
)

// sidebar renders the navigation of section s: the global anchors, the
// section's anchors and its groups and pages.
func (nw *navWriter) sidebar(b *markup.Builder, s *site.Division, prefix markup.Prefix, u uitext.Text) {
	b.Markup(`<nav class="sidebar" id="sidebar"`)
	b.Attr("aria-label", u.T("documentation"))
	b.Markup(`>`)
	if len(nw.tree.Global) > 0 {
		b.Markup(`<ul class="anchors">`)
		for _, g := range nw.tree.Global {
			nw.divisionLink(b, g, prefix, false)
		}
		b.Markup(`</ul>`)
	}
	if s != nil {
		nw.anchors(b, s, prefix)
		if n := nw.big(s); n != nil {
			nw.bigSidebar(b, s, n, prefix, "", "") // bignav.go; PageChrome redraws it per page
		} else {
			nw.items(b, s.Items, prefix, true)
		}
	}
	b.Markup(`</nav>`)
}

// anchors lists the anchor divisions next to the section, if any.
func (nw *navWriter) anchors(b *markup.Builder, s *site.Division, prefix markup.Prefix) {
	parent := s.Parent
	if s.Kind != "anchor" || parent == nil {
		return
	}
	b.Markup(`<ul class="anchors">`)
	for _, c := range parent.Children {
		if c.Kind == "anchor" && (c.First != "" || c.Href != "") {
			nw.divisionLink(b, c, prefix, c == s)
		}
	}
	b.Markup(`</ul>`)
}

func (nw *navWriter) divisionLink(b *markup.Builder, d *site.Division, prefix markup.Prefix, current bool) {
	nw.divisionLinkTo(b, d, prefix, current, "")
}

// divisionLinkTo writes the entry of division d in a tab bar or switcher:
// a link to its page key, or with key "" to its href or first page.
func (nw *navWriter) divisionLinkTo(b *markup.Builder, d *site.Division, prefix markup.Prefix, current bool, key string) {
	var href markup.URL
	var to *site.Page
	if key != "" {
		to = nw.byKey[key]
	}
	switch {
	case to != nil:
		href = markup.Path(prefix, to.Out, "")
	case d.Href != "":
		href = nw.configLink(d.Kind+" "+strconv.Quote(d.Label)+" href", d.Href, prefix, markup.Scheme(d.Href) != "")
	case d.First != "":
		href = markup.Path(prefix, d.First+".html", "")
	}
	if href.Empty() {
		return
	}
	b.Markup(`<li><a href="`)
	b.URL(href)
	b.Markup(`"`)
	if current {
		b.Markup(` class="current" aria-current="true"`)
	}
	b.Markup(`>`)
	if d.Icon.Name != "" { // the warning's place is built for an icon only: this runs per link per page
		b.HTML(nw.icon.navIcon(d.Icon, d.Kind+" "+strconv.Quote(d.Label), prefix))
	}
	b.Text(d.Label)
	navTag(b, d.Tag)
	if d.Desc != "" && (d.Kind == "product" || d.Kind == "menu") {
		b.Markup(`<span class="switch-desc">`)
		b.Text(d.Desc)
		b.Markup(`</span>`)
	}
	b.Markup(`</a></li>`)
}

// navTag writes the badge of a navigation entry ("NEW", "Latest"), if any.
func navTag(b *markup.Builder, tag string) {
	if tag == "" {
		return
	}
	b.Markup(` <span class="nav-tag">`)
	b.Text(tag)
	b.Markup(`</span>`)
}

// items renders sidebar groups and pages. Groups of the top level become
// headed blocks; nested groups are list items that collapse with <details>.
// Below the top level the caller has already opened the <ul>.
func (nw *navWriter) items(b *markup.Builder, items []*site.Item, prefix markup.Prefix, top bool) {
	open := false
	for _, it := range items {
		if it.Hidden || it.Page != "" && nw.byKey[it.Page].FM.Hidden {
			continue
		}
		if top && it.Page == "" {
			if open {
				b.Markup(`</ul>`)
				open = false
			}
			b.Markup(`<div class="nav-group"><p class="nav-group-title">`)
			nw.groupLabel(b, it, "", false, prefix)
			b.Markup(`</p><ul class="nav-list">`)
			nw.groupBody(b, it, prefix)
			b.Markup(`</ul></div>`)
			continue
		}
		if top && !open {
			b.Markup(`<ul class="nav-list">`)
			open = true
		}
		if it.Page != "" {
			nw.pageLink(b, it.Page, prefix)
			continue
		}
		// Nested groups start closed unless "expanded" (the platform's
		// rule); markCurrent opens the ones around the page being read.
		b.Markup(`<li class="nav-sub"><details`)
		if it.Expanded {
			b.Markup(` open`)
		}
		b.Markup(`><summary>`)
		// With interaction.drilldown the group's title leads to its first
		// page, whose sidebar has the group open (markCurrent).
		first := ""
		if nw.drilldown() {
			first = nw.firstPage(it)
		}
		nw.groupLabel(b, it, first, true, prefix)
		b.Markup(`</summary><ul class="nav-list">`)
		nw.groupBody(b, it, prefix)
		b.Markup(`</ul></details></li>`)
	}
	if open {
		b.Markup(`</ul>`)
	}
}

// groupLabel writes group it's icon, title and tag, as a link to page
// first unless that is "" (of class nav-drill when drill).
func (nw *navWriter) groupLabel(b *markup.Builder, it *site.Item, first string, drill bool, prefix markup.Prefix) {
	if first != "" {
		if drill {
			b.Markup(`<a class="nav-drill" href="`)
		} else {
			b.Markup(`<a href="`)
		}
		b.URL(markup.Path(prefix, nw.byKey[first].Out, ""))
		b.Markup(`">`)
	}
	b.HTML(nw.icon.navIcon(it.Icon, "group "+strconv.Quote(it.Group), prefix))
	b.Text(it.Group)
	navTag(b, it.Tag)
	if first != "" {
		b.Markup(`</a>`)
	}
}

// firstPage is the key of the first page a reader sees in group it (its
// root page, else its first listed page at any depth), or "".
func (nw *navWriter) firstPage(it *site.Item) string {
	if it.Root != "" && nw.byKey[it.Root] != nil && !nw.byKey[it.Root].FM.Hidden {
		return it.Root
	}
	for _, c := range it.Children {
		if c.Hidden {
			continue
		}
		if c.Page != "" {
			if p := nw.byKey[c.Page]; p != nil && !p.FM.Hidden {
				return c.Page
			}
			continue
		}
		if k := nw.firstPage(c); k != "" {
			return k
		}
	}
	return ""
}

func (nw *navWriter) groupBody(b *markup.Builder, it *site.Item, prefix markup.Prefix) {
	if it.Root != "" {
		nw.pageLink(b, it.Root, prefix)
	}
	nw.items(b, it.Children, prefix, false)
}

func (nw *navWriter) pageLink(b *markup.Builder, key string, prefix markup.Prefix) {
	p := nw.byKey[key]
	b.Markup(`<li><a href="`)
	b.URL(markup.Path(prefix, p.Out, ""))
	b.Markup(`">`)
	b.HTML(nw.icon.pageIcon(p, prefix))
	b.Text(p.NavTitle())
	// A deprecated endpoint is labelled in the sidebar too, as on the platform.
	if p.FM.Deprecated || p.API != nil && p.API.Op.Flag("deprecated") {
		b.Markup(` <span class="nav-tag nav-deprecated">`)
		b.Text(nw.ui(p).T("deprecated"))
		b.Markup(`</span>`)
	}
	b.Markup(`</a></li>`)
}
