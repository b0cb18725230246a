package export

import (
	"strconv"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/csp"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/theme"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/uitext"
)

// chromeKey identifies the page frame shared by all pages of a section at
// one directory depth: only the root prefix and the section change it, so
// it is built once per pair instead of once per page.
type chromeKey struct {
	section int
	prefix  markup.Prefix
	mode    pageMode
}

// chrome returns the top bar, division switchers and sidebar for pages of
// section s whose root is at prefix, shown in mode m: a mode without the
// sidebar has no menu button to open it either.
func (f *frame) chrome(s *division, prefix markup.Prefix, m pageMode) markup.HTML {
	k := chromeKey{-1, prefix, m}
	if s != nil {
		k.section = s.index
	}
	if v, ok := f.chromes.Load(k); ok {
		return v.(markup.HTML)
	}
	var b markup.Builder
	u := f.ui(s)
	b.Markup(`<a class="skip" href="#content">`)
	b.Text(u.T("skip"))
	b.Markup(`</a>`)
	f.banner(&b, bannerOf(s, f.cfg.Banner), prefix, u)
	b.Markup(`<header class="topbar">`)
	if m.sidebar() {
		b.Markup(`<button class="menu-toggle" type="button" aria-controls="sidebar" aria-expanded="false"`)
		b.Attr("aria-label", u.T("menu"))
		b.Markup(`>` +
			`<svg viewBox="0 0 24 24" width="20" height="20" stroke="currentColor" stroke-width="2" aria-hidden="true"><path d="M3 6h18M3 12h18M3 18h18"/></svg></button>`)
	}
	b.Markup(`<a class="brand" href="`)
	b.URL(markup.Path(prefix, "index.html", ""))
	b.Markup(`">`)
	if !f.logoLight.Empty() {
		b.Markup(`<img class="logo logo-light" src="`)
		b.URL(markup.Join(prefix, f.logoLight))
		b.Markup(`"`)
		b.Attr("alt", f.cfg.Name)
		b.Markup(`><img class="logo logo-dark" src="`)
		b.URL(markup.Join(prefix, f.logoDark))
		b.Markup(`"`)
		b.Attr("alt", f.cfg.Name)
		b.Markup(`>`)
	} else {
		b.Markup(`<span class="brand-name">`)
		b.Text(f.cfg.Name)
		b.Markup(`</span>`)
	}
	b.Markup(`</a><div class="search"><input id="search-input" type="search"`)
	b.Attr("placeholder", u.T("search"))
	b.Attr("aria-label", u.T("searchLabel"))
	b.Markup(` autocomplete="off">` +
		`<div id="search-results" class="search-results" role="listbox" hidden></div></div>`)
	f.navbar(&b, navbarOf(s, &f.cfg.Navbar), prefix, u)
	if f.features["assistant"] {
		b.Markup(`<a class="assistant" href="`)
		b.URL(f.assistantURL())
		b.Markup(`" target="_blank" rel="noopener">`)
		b.Text(u.T("askAI"))
		b.Markup(`</a>`)
	}
	if !f.cfg.Appearance.Strict { // appearance.strict: the mode is the site's, not the reader's
		b.Markup(`<button class="theme-toggle" type="button"`)
		b.Attr("aria-label", u.T("toggleTheme"))
		b.Markup(`><svg viewBox="0 0 24 24" width="18" height="18" fill="currentColor" aria-hidden="true"><path d="M12 3a9 9 0 1 0 9 9 7 7 0 0 1-9-9z"/></svg></button>`)
	}
	b.Markup(`</header>`)
	f.nav.switchers(&b, s, prefix, u)
	b.Markup(`<div`)
	b.Attr("class", m.class())
	b.Markup(`>`)
	if m.sidebar() {
		f.nav.sidebar(&b, s, prefix, u)
	}
	v, _ := f.chromes.LoadOrStore(k, b.Fragment())
	return v.(markup.HTML)
}

// sidebar renders the navigation of section s: the global anchors, the
// section's anchors and its groups and pages.
func (f *navWriter) sidebar(b *markup.Builder, s *division, prefix markup.Prefix, u uitext.Text) {
	b.Markup(`<nav class="sidebar" id="sidebar"`)
	b.Attr("aria-label", u.T("documentation"))
	b.Markup(`>`)
	if len(f.tree.global) > 0 {
		b.Markup(`<ul class="anchors">`)
		for _, g := range f.tree.global {
			f.divisionLink(b, g, prefix, false)
		}
		b.Markup(`</ul>`)
	}
	if s != nil {
		f.anchors(b, s, prefix)
		f.items(b, s.items, prefix, true)
	}
	b.Markup(`</nav>`)
}

// switchers renders, for each level above the page's section, the sibling
// divisions: tabs as a tab bar, languages, versions and dropdowns as menus.
func (f *navWriter) switchers(b *markup.Builder, s *division, prefix markup.Prefix, u uitext.Text) {
	var path []*division
	for d := s; d != nil && d.parent != nil; d = d.parent {
		path = append([]*division{d}, path...)
	}
	if len(path) == 0 {
		return
	}
	b.Markup(`<nav class="divisions"`)
	b.Attr("aria-label", u.T("sections"))
	b.Markup(`>`)
	for _, d := range path {
		if d.kind == "anchor" {
			continue // anchors are listed at the top of the sidebar
		}
		var sib []*division
		for _, c := range d.parent.children {
			if c.kind == d.kind && (c.first != "" || c.href != "") {
				sib = append(sib, c)
			}
		}
		if d.kind == "tab" {
			b.Markup(`<ul class="tabbar">`)
			for _, c := range sib {
				f.divisionLink(b, c, prefix, c == d)
			}
			b.Markup(`</ul>`)
			continue
		}
		b.Markup(`<details`)
		b.Attr("class", "switch switch-"+d.kind)
		b.Markup(`><summary>`)
		b.Text(d.label)
		b.Markup(`</summary><ul>`)
		for _, c := range sib {
			f.divisionLink(b, c, prefix, c == d)
		}
		b.Markup(`</ul></details>`)
	}
	b.Markup(`</nav>`)
}

// anchors lists the anchor divisions next to the section, if any.
func (f *navWriter) anchors(b *markup.Builder, s *division, prefix markup.Prefix) {
	parent := s.parent
	if s.kind != "anchor" || parent == nil {
		return
	}
	b.Markup(`<ul class="anchors">`)
	for _, c := range parent.children {
		if c.kind == "anchor" && (c.first != "" || c.href != "") {
			f.divisionLink(b, c, prefix, c == s)
		}
	}
	b.Markup(`</ul>`)
}

func (f *navWriter) divisionLink(b *markup.Builder, d *division, prefix markup.Prefix, current bool) {
	var href markup.URL
	switch {
	case d.href != "":
		href = f.configLink(d.kind+" "+strconv.Quote(d.label)+" href", d.href, prefix, markup.Scheme(d.href) != "")
	case d.first != "":
		href = markup.Path(prefix, d.first+".html", "")
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
	b.HTML(f.icon.navIcon(d.icon, d.kind+" "+strconv.Quote(d.label), prefix))
	b.Text(d.label)
	navTag(b, d.tag)
	if d.desc != "" && (d.kind == "product" || d.kind == "menu") {
		b.Markup(`<span class="switch-desc">`)
		b.Text(d.desc)
		b.Markup(`</span>`)
	}
	b.Markup(`</a></li>`)
}

// configLink resolves a link written in docs.json (where names the field,
// for the warning): a page or file of the source becomes a path under
// prefix; an absolute URL with an allowed scheme stays as written; a
// relative one that names nothing stays as written when keep is set and
// is left out otherwise; anything else (javascript:, data:) is left out
// with a warning.
func (f *frame) configLink(where, ref string, prefix markup.Prefix, keep bool) markup.URL {
	relative := markup.Scheme(ref) == ""
	if relative {
		if t, ok := f.link.target("index", ref); ok {
			return markup.Join(prefix, t)
		}
		if !keep {
			return markup.URL{}
		}
	}
	u, err := markup.Parse(ref)
	if err != nil {
		f.warn("docs.json: %s: %v; left out", where, err)
		return markup.URL{}
	}
	return u
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
func (f *navWriter) items(b *markup.Builder, items []*navItem, prefix markup.Prefix, top bool) {
	open := false
	for _, it := range items {
		if it.hidden || it.page != "" && f.byKey[it.page].fm.Hidden {
			continue
		}
		if top && it.page == "" {
			if open {
				b.Markup(`</ul>`)
				open = false
			}
			b.Markup(`<div class="nav-group"><p class="nav-group-title">`)
			b.HTML(f.icon.navIcon(it.icon, "group "+strconv.Quote(it.group), prefix))
			b.Text(it.group)
			navTag(b, it.tag)
			b.Markup(`</p><ul class="nav-list">`)
			f.groupBody(b, it, prefix)
			b.Markup(`</ul></div>`)
			continue
		}
		if top && !open {
			b.Markup(`<ul class="nav-list">`)
			open = true
		}
		if it.page != "" {
			f.pageLink(b, it.page, prefix)
			continue
		}
		// Nested groups start closed unless "expanded" (the platform's
		// rule); markCurrent opens the ones around the page being read.
		b.Markup(`<li class="nav-sub"><details`)
		if it.expanded {
			b.Markup(` open`)
		}
		b.Markup(`><summary>`)
		// With interaction.drilldown the group's title leads to its first
		// page, whose sidebar has the group open (markCurrent).
		first := ""
		if f.drilldown() {
			first = f.firstPage(it)
		}
		if first != "" {
			b.Markup(`<a class="nav-drill" href="`)
			b.URL(markup.Path(prefix, f.byKey[first].out, ""))
			b.Markup(`">`)
		}
		b.HTML(f.icon.navIcon(it.icon, "group "+strconv.Quote(it.group), prefix))
		b.Text(it.group)
		navTag(b, it.tag)
		if first != "" {
			b.Markup(`</a>`)
		}
		b.Markup(`</summary><ul class="nav-list">`)
		f.groupBody(b, it, prefix)
		b.Markup(`</ul></details></li>`)
	}
	if open {
		b.Markup(`</ul>`)
	}
}

// firstPage is the key of the first page a reader sees in group it (its
// root page, else its first listed page at any depth), or "".
func (f *navWriter) firstPage(it *navItem) string {
	if it.root != "" && f.byKey[it.root] != nil && !f.byKey[it.root].fm.Hidden {
		return it.root
	}
	for _, c := range it.children {
		if c.hidden {
			continue
		}
		if c.page != "" {
			if p := f.byKey[c.page]; p != nil && !p.fm.Hidden {
				return c.page
			}
			continue
		}
		if k := f.firstPage(c); k != "" {
			return k
		}
	}
	return ""
}

func (f *navWriter) groupBody(b *markup.Builder, it *navItem, prefix markup.Prefix) {
	if it.root != "" {
		f.pageLink(b, it.root, prefix)
	}
	f.items(b, it.children, prefix, false)
}

func (f *navWriter) pageLink(b *markup.Builder, key string, prefix markup.Prefix) {
	p := f.byKey[key]
	b.Markup(`<li><a href="`)
	b.URL(markup.Path(prefix, p.out, ""))
	b.Markup(`">`)
	b.HTML(f.icon.pageIcon(p, prefix))
	b.Text(p.navTitle())
	// A deprecated endpoint is labelled in the sidebar too, as on the platform.
	if p.fm.Deprecated || p.api != nil && p.api.Op.Flag("deprecated") {
		b.Markup(` <span class="nav-tag nav-deprecated">`)
		b.Text(f.ui(p).T("deprecated"))
		b.Markup(`</span>`)
	}
	b.Markup(`</a></li>`)
}

// markCurrent flags the page's own sidebar link, found by its exact href,
// and opens the collapsed groups around it so a reader sees where they
// are without script.
func markCurrent(chrome markup.HTML, prefix markup.Prefix, out string) markup.HTML {
	var lb markup.Builder
	lb.Markup(`<a href="`)
	lb.URL(markup.Path(prefix, out, ""))
	lb.Markup(`">`)
	link := lb.String()
	c := chrome.String()
	// Only the sidebar: a top bar link to the same page is not "current".
	side := strings.Index(c, `<nav class="sidebar"`)
	if side < 0 {
		return chrome
	}
	at := strings.Index(c[side:], link)
	if at < 0 {
		return chrome
	}
	at += side
	var b strings.Builder
	b.Grow(len(c) + 64)
	last := 0
	for _, i := range openDetails(c[:at]) {
		if strings.HasPrefix(c[i:], `<details>`) {
			b.WriteString(c[last:i])
			b.WriteString(`<details open>`)
			last = i + len(`<details>`)
		}
	}
	b.WriteString(c[last:at])
	b.WriteString(strings.TrimSuffix(link, `>`) + ` aria-current="page">`)
	b.WriteString(c[at+len(link):])
	// Only attributes and open flags were added to markup that was safe.
	return markup.Rendered(b.String())
}

// openDetails returns the offsets of the <details> elements still open at
// the end of s, outermost first.
func openDetails(s string) []int {
	var stack []int
	for i := 0; ; {
		o := strings.Index(s[i:], "<details")
		c := strings.Index(s[i:], "</details>")
		switch {
		case o < 0 && c < 0:
			return stack
		case c < 0 || o >= 0 && o < c:
			stack = append(stack, i+o)
			i += o + len("<details")
		default:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			i += c + len("</details>")
		}
	}
}

// head writes the document head shared by pages and generated documents.
// scripts are the CSP sources of the page's own scripts (pageScripts).
// u is the page's interface language.
func (f *frame) head(b *markup.Builder, u uitext.Text, title, desc string, canonical markup.URL, prefix markup.Prefix, noindex bool, meta markup.HTML, scripts []string) {
	b.Markup("<!DOCTYPE html>\n<html")
	u.HTMLAttrs(b)
	b.Attr("data-root", string(prefix))
	theme.AppearanceAttrs(b, f.cfg.Appearance)
	b.Markup(`><head><meta charset="utf-8">`)
	f.cspMeta(b, scripts)
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
	if !f.favicon.Empty() {
		b.Markup(`<link rel="icon" href="`)
		b.URL(markup.Join(prefix, f.favicon))
		b.Markup(`">`)
	}
	b.Markup(`<link rel="stylesheet" href="`)
	b.URL(markup.Path(prefix, "_static/style.css", ""))
	b.Markup(`"><script>` + csp.ThemeScript + `</script>`)
	if f.features["analytics"] {
		b.Markup(`<script src="`)
		b.URL(markup.Path(prefix, "_static/analytics.js", ""))
		b.Markup(`" defer></script>`)
	}
	b.Markup(`</head><body>`)
}

// tail closes the layout opened by chrome.
func tail(b *markup.Builder, prefix markup.Prefix) {
	b.Markup(`</div><script src="`)
	b.URL(markup.Path(prefix, "_static/app.js", ""))
	b.Markup(`"></script></body></html>` + "\n")
}

// toc renders the table of contents from a page's headings.
func toc(b *markup.Builder, hs []mdx.Heading, u uitext.Text) {
	if len(hs) == 0 {
		b.Markup(`<aside class="toc"></aside>`)
		return
	}
	b.Markup(`<aside class="toc"`)
	b.Attr("aria-label", u.T("onThisPage"))
	b.Markup(`><p class="toc-title">`)
	b.Text(u.T("onThisPage"))
	b.Markup(`</p><ul>`)
	for _, h := range hs {
		b.Markup(`<li`)
		b.Attr("class", "toc-"+strconv.Itoa(h.Level))
		b.Markup(`><a href="`)
		b.URL(markup.Fragment(h.ID))
		b.Markup(`">`)
		b.Text(h.Text)
		b.Markup(`</a></li>`)
	}
	b.Markup(`</ul></aside>`)
}

// banner renders the announcement of docs.json above the top bar. Its
// Markdown links resolve like any link; in an air-gapped bundle remote
// content in it is replaced as in a page. app.js lets a reader dismiss a
// dismissible one.
func (f *frame) banner(b *markup.Builder, bn *docsjson.Banner, prefix markup.Prefix, u uitext.Text) {
	if bn == nil || strings.TrimSpace(bn.Content) == "" {
		return
	}
	body := f.markdown(bn.Content, "index", prefix)
	if f.kind == KindAirGapped {
		body = f.offline("docs.json banner", prefix, body)
	}
	b.Markup(`<div class="banner" role="region"`)
	b.Attr("aria-label", u.T("announcement"))
	b.Markup(`><div class="banner-body">`)
	b.HTML(markup.Rendered(strings.TrimSpace(body.String()))) // trimming white space keeps it safe
	b.Markup(`</div>`)
	if bn.Dismissible {
		b.Markup(`<button class="banner-close" type="button"`)
		b.Attr("aria-label", u.T("dismiss"))
		b.Markup(`>×</button>`)
	}
	b.Markup(`</div>`)
}

// navbar renders the top bar links of docs.json; site-relative ones are
// resolved like any link.
func (f *frame) navbar(b *markup.Builder, nb *docsjson.Navbar, prefix markup.Prefix, u uitext.Text) {
	links := nb.Links
	if p := nb.Primary; p != nil {
		links = append(links[:len(links):len(links)], *p)
	}
	if len(links) == 0 {
		return
	}
	b.Markup(`<nav class="navbar-links"`)
	b.Attr("aria-label", u.T("links"))
	b.Markup(`>`)
	for _, l := range links {
		f.siteLink(b, "navbar link", l, prefix)
	}
	b.Markup(`</nav>`)
}

// siteLink writes a link of the top bar or the footer; site-relative
// ones are resolved like any link.
func (f *frame) siteLink(b *markup.Builder, where string, l docsjson.Link, prefix markup.Prefix) {
	label := l.Label
	if label == "" {
		label = siteName(l.Type)
	}
	if l.Href == "" || label == "" {
		return
	}
	href := f.configLink(where+" "+strconv.Quote(label), l.Href, prefix, true)
	if href.Empty() {
		return
	}
	b.Markup(`<a href="`)
	b.URL(href)
	b.Markup(`">`)
	b.Text(label)
	b.Markup(`</a>`)
}

// footer renders the site name, the social links (in name order, so the
// output is stable) and the link columns of the footer of section s.
func (f *frame) footer(b *markup.Builder, s *division, prefix markup.Prefix) {
	ft := footerOf(s, &f.cfg.Footer)
	b.Markup(`<footer class="footer"><span>`)
	b.Text(f.cfg.Name)
	b.Markup(`</span>`)
	for _, name := range sortedKeys(ft.Socials) {
		href := ft.Socials[name]
		if markup.Scheme(href) == "" {
			continue // a social link is a URL of another site
		}
		u, err := markup.Parse(href)
		if err != nil {
			f.warn("docs.json: footer social %q: %v; left out", name, err)
			continue
		}
		b.Markup(` <a href="`)
		b.URL(u)
		b.Markup(`" rel="me">`)
		b.Text(siteName(name))
		b.Markup(`</a>`)
	}
	for _, col := range ft.Links {
		b.Markup(`<div class="footer-links">`)
		if col.Header != "" {
			b.Markup(`<p class="footer-header">`)
			b.Text(col.Header)
			b.Markup(`</p>`)
		}
		for _, l := range col.Items {
			f.siteLink(b, "footer link", l, prefix)
		}
		b.Markup(`</div>`)
	}
	b.Markup(`</footer>`)
}

// siteNames spells the social sites docs.json names by key.
var siteNames = map[string]string{"github": "GitHub", "x": "X", "linkedin": "LinkedIn", "youtube": "YouTube",
	"discord": "Discord", "slack": "Slack", "website": "Website", "x-twitter": "X", "hacker-news": "Hacker News"}

func siteName(key string) string {
	if n, ok := siteNames[key]; ok {
		return n
	}
	return titleFromKey(key)
}

// cspMeta writes the <meta> element of a page's policy. f.cspConnect
// holds the extra connect-src origins of the export (the API
// playground's servers, the analytics endpoint); scripts are those of the
// page's own MDX (pageScripts).
func (f *frame) cspMeta(b *markup.Builder, scripts []string) {
	b.Markup(`<meta http-equiv="Content-Security-Policy"`)
	b.Attr("content", csp.ContentSecurityPolicy(f.kind == KindAirGapped, csp.Policy{Connect: f.cspConnect, Scripts: scripts}))
	b.Markup(`>`)
}
