package frame

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/csp"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/site"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/theme"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/uitext"
)

// chromeKey identifies the page frame shared by all pages of a section at
// one directory depth: only the root prefix and the section change it, so
// it is built once per pair instead of once per page.
type chromeKey struct {
	section int
	prefix  markup.Prefix
	mode    site.Mode
}

// Chrome returns the top bar, division switchers and sidebar for pages of
// section s whose root is at prefix, shown in mode m: a mode without the
// sidebar has no menu button to open it either.
func (f *Frame) Chrome(s *site.Division, prefix markup.Prefix, m site.Mode) markup.HTML {
	k := chromeKey{-1, prefix, m}
	if s != nil {
		k.section = s.Index
	}
	if v, ok := f.chromes.Load(k); ok {
		return v.(markup.HTML)
	}
	var b markup.Builder
	u := f.UI(s)
	b.Markup(`<a class="skip" href="#content">`)
	b.Text(u.T("skip"))
	b.Markup(`</a>`)
	f.banner(&b, site.BannerOf(s, f.cfg.Banner), prefix, u)
	b.Markup(`<header class="topbar">`)
	if m.Sidebar() {
		b.Markup(`<button class="menu-toggle" type="button" aria-controls="sidebar" aria-expanded="false"`)
		b.Attr("aria-label", u.T("menu"))
		b.Markup(`>` +
			`<svg viewBox="0 0 24 24" width="20" height="20" stroke="currentColor" stroke-width="2" aria-hidden="true"><path d="M3 6h18M3 12h18M3 18h18"/></svg></button>`)
	}
	b.Markup(`<a class="brand" href="`)
	b.URL(markup.Path(prefix, "index.html", ""))
	b.Markup(`">`)
	if !f.LogoLight.Empty() {
		b.Markup(`<img class="logo logo-light" src="`)
		b.URL(markup.Join(prefix, f.LogoLight))
		b.Markup(`"`)
		b.Attr("alt", f.cfg.Name)
		b.Markup(`><img class="logo logo-dark" src="`)
		b.URL(markup.Join(prefix, f.LogoDark))
		b.Markup(`"`)
		b.Attr("alt", f.cfg.Name)
		b.Markup(`>`)
	} else {
		b.Markup(`<span class="brand-name">`)
		b.Text(f.cfg.Name)
		b.Markup(`</span>`)
	}
	b.Markup(`</a>`)
	// On a phone the search box is a button that opens it over the
	// whole top bar (app.js; style.css).
	b.Markup(`<button class="search-toggle" type="button" aria-controls="search-box" aria-expanded="false"`)
	b.Attr("aria-label", u.T("searchLabel"))
	b.Markup(`><svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true"><circle cx="11" cy="11" r="7"/><path d="M20 20l-4-4"/></svg></button>`)
	b.Markup(`<div class="search" id="search-box"><input id="search-input" type="search"`)
	b.Attr("placeholder", u.T("search"))
	b.Attr("aria-label", u.T("searchLabel"))
	b.Markup(` autocomplete="off"><button class="search-close" type="button"`)
	b.Attr("aria-label", u.T("dismiss"))
	b.Markup(`>×</button>` +
		`<div id="search-results" class="search-results" role="listbox" hidden></div></div>`)
	f.navbar(&b, site.NavbarOf(s, &f.cfg.Navbar), prefix, u)
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
	f.nav.switchers(&b, s, prefix, u, nil)
	b.Markup(`<div`)
	b.Attr("class", m.Class())
	b.Markup(`>`)
	if m.Sidebar() {
		f.nav.sidebar(&b, s, prefix, u)
	}
	v, _ := f.chromes.LoadOrStore(k, b.Fragment())
	return v.(markup.HTML)
}

// sidebar renders the navigation of section s: the global anchors, the
// section's anchors and its groups and pages.
func (f *navWriter) sidebar(b *markup.Builder, s *site.Division, prefix markup.Prefix, u uitext.Text) {
	b.Markup(`<nav class="sidebar" id="sidebar"`)
	b.Attr("aria-label", u.T("documentation"))
	b.Markup(`>`)
	if len(f.tree.Global) > 0 {
		b.Markup(`<ul class="anchors">`)
		for _, g := range f.tree.Global {
			f.divisionLink(b, g, prefix, false)
		}
		b.Markup(`</ul>`)
	}
	if s != nil {
		f.anchors(b, s, prefix)
		if n := f.big(s); n != nil {
			f.bigSidebar(b, s, n, prefix, "", "") // bignav.go; PageChrome redraws it per page
		} else {
			f.items(b, s.Items, prefix, true)
		}
	}
	b.Markup(`</nav>`)
}

// anchors lists the anchor divisions next to the section, if any.
func (f *navWriter) anchors(b *markup.Builder, s *site.Division, prefix markup.Prefix) {
	parent := s.Parent
	if s.Kind != "anchor" || parent == nil {
		return
	}
	b.Markup(`<ul class="anchors">`)
	for _, c := range parent.Children {
		if c.Kind == "anchor" && (c.First != "" || c.Href != "") {
			f.divisionLink(b, c, prefix, c == s)
		}
	}
	b.Markup(`</ul>`)
}

func (f *navWriter) divisionLink(b *markup.Builder, d *site.Division, prefix markup.Prefix, current bool) {
	f.divisionLinkTo(b, d, prefix, current, "")
}

// divisionLinkTo writes the entry of division d in a tab bar or switcher:
// a link to its page key, or with key "" to its href or first page.
func (f *navWriter) divisionLinkTo(b *markup.Builder, d *site.Division, prefix markup.Prefix, current bool, key string) {
	var href markup.URL
	var to *site.Page
	if key != "" {
		to = f.byKey[key]
	}
	switch {
	case to != nil:
		href = markup.Path(prefix, to.Out, "")
	case d.Href != "":
		href = f.configLink(d.Kind+" "+strconv.Quote(d.Label)+" href", d.Href, prefix, markup.Scheme(d.Href) != "")
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
		b.HTML(f.icon.navIcon(d.Icon, d.Kind+" "+strconv.Quote(d.Label), prefix))
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

// configLink resolves a link written in docs.json (where names the field,
// for the warning): a page or file of the source becomes a path under
// prefix; an absolute URL with an allowed scheme stays as written; a
// relative one that names nothing stays as written when keep is set and
// is left out otherwise; anything else (javascript:, data:) is left out
// with a warning.
func (f *Frame) configLink(where, ref string, prefix markup.Prefix, keep bool) markup.URL {
	relative := markup.Scheme(ref) == ""
	if relative {
		if t, ok := f.target("index", ref); ok {
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
func (f *navWriter) items(b *markup.Builder, items []*site.Item, prefix markup.Prefix, top bool) {
	open := false
	for _, it := range items {
		if it.Hidden || it.Page != "" && f.byKey[it.Page].FM.Hidden {
			continue
		}
		if top && it.Page == "" {
			if open {
				b.Markup(`</ul>`)
				open = false
			}
			b.Markup(`<div class="nav-group"><p class="nav-group-title">`)
			f.groupLabel(b, it, "", false, prefix)
			b.Markup(`</p><ul class="nav-list">`)
			f.groupBody(b, it, prefix)
			b.Markup(`</ul></div>`)
			continue
		}
		if top && !open {
			b.Markup(`<ul class="nav-list">`)
			open = true
		}
		if it.Page != "" {
			f.pageLink(b, it.Page, prefix)
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
		if f.drilldown() {
			first = f.firstPage(it)
		}
		f.groupLabel(b, it, first, true, prefix)
		b.Markup(`</summary><ul class="nav-list">`)
		f.groupBody(b, it, prefix)
		b.Markup(`</ul></details></li>`)
	}
	if open {
		b.Markup(`</ul>`)
	}
}

// groupLabel writes group it's icon, title and tag, as a link to page
// first unless that is "" (of class nav-drill when drill).
func (f *navWriter) groupLabel(b *markup.Builder, it *site.Item, first string, drill bool, prefix markup.Prefix) {
	if first != "" {
		if drill {
			b.Markup(`<a class="nav-drill" href="`)
		} else {
			b.Markup(`<a href="`)
		}
		b.URL(markup.Path(prefix, f.byKey[first].Out, ""))
		b.Markup(`">`)
	}
	b.HTML(f.icon.navIcon(it.Icon, "group "+strconv.Quote(it.Group), prefix))
	b.Text(it.Group)
	navTag(b, it.Tag)
	if first != "" {
		b.Markup(`</a>`)
	}
}

// firstPage is the key of the first page a reader sees in group it (its
// root page, else its first listed page at any depth), or "".
func (f *navWriter) firstPage(it *site.Item) string {
	if it.Root != "" && f.byKey[it.Root] != nil && !f.byKey[it.Root].FM.Hidden {
		return it.Root
	}
	for _, c := range it.Children {
		if c.Hidden {
			continue
		}
		if c.Page != "" {
			if p := f.byKey[c.Page]; p != nil && !p.FM.Hidden {
				return c.Page
			}
			continue
		}
		if k := f.firstPage(c); k != "" {
			return k
		}
	}
	return ""
}

func (f *navWriter) groupBody(b *markup.Builder, it *site.Item, prefix markup.Prefix) {
	if it.Root != "" {
		f.pageLink(b, it.Root, prefix)
	}
	f.items(b, it.Children, prefix, false)
}

func (f *navWriter) pageLink(b *markup.Builder, key string, prefix markup.Prefix) {
	p := f.byKey[key]
	b.Markup(`<li><a href="`)
	b.URL(markup.Path(prefix, p.Out, ""))
	b.Markup(`">`)
	b.HTML(f.icon.pageIcon(p, prefix))
	b.Text(p.NavTitle())
	// A deprecated endpoint is labelled in the sidebar too, as on the platform.
	if p.FM.Deprecated || p.API != nil && p.API.Op.Flag("deprecated") {
		b.Markup(` <span class="nav-tag nav-deprecated">`)
		b.Text(f.ui(p).T("deprecated"))
		b.Markup(`</span>`)
	}
	b.Markup(`</a></li>`)
}

// MarkCurrent flags the page's own sidebar link, found by its exact href,
// and opens the collapsed groups around it so a reader sees where they
// are without script.
func MarkCurrent(chrome markup.HTML, prefix markup.Prefix, out string) markup.HTML {
	link := pageLinkTag(prefix, out)
	c := chrome.String()
	// Only the sidebar: a top bar link to the same page is not "current".
	side := strings.Index(c, `<nav class="sidebar"`)
	if side < 0 {
		return chrome
	}
	if marked, ok := markLink(c, side, link); ok {
		// Only attributes and open flags were added to markup that was safe.
		return markup.Rendered(marked)
	}
	return chrome
}

// pageLinkTag is the opening tag of the sidebar link, under prefix, to
// the page at out, as pageLink writes it.
func pageLinkTag(prefix markup.Prefix, out string) string {
	var lb markup.Builder
	lb.Markup(`<a href="`)
	lb.URL(markup.Path(prefix, out, ""))
	lb.Markup(`">`)
	return lb.String()
}

// markLink flags the first link of c after offset from whose opening tag
// is link, and opens the collapsed <details> around it; false when c has
// no such link.
func markLink(c string, from int, link string) (string, bool) {
	at := strings.Index(c[from:], link)
	if at < 0 {
		return c, false
	}
	at += from
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
	return b.String(), true
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

// Head writes the document head shared by pages and generated documents.
// scripts are the CSP sources of the page's own scripts (pageScripts).
// u is the page's interface language.
func (f *Frame) Head(b *markup.Builder, u uitext.Text, title, desc string, canonical markup.URL, prefix markup.Prefix, noindex bool, meta markup.HTML, own csp.Policy) {
	b.Markup("<!DOCTYPE html>\n<html")
	u.HTMLAttrs(b)
	b.Attr("data-root", string(prefix))
	theme.AppearanceAttrs(b, f.cfg.Appearance)
	b.Markup(`><head><meta charset="utf-8">`)
	f.cspMeta(b, own)
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
	if !f.Favicon.Empty() {
		b.Markup(`<link rel="icon" href="`)
		b.URL(markup.Join(prefix, f.Favicon))
		b.Markup(`">`)
	}
	b.Markup(`<link rel="stylesheet" href="`)
	b.URL(markup.Path(prefix, "_static/style.css", ""))
	b.Markup(`">`)
	for _, css := range f.CustomCSS {
		b.Markup(`<link rel="stylesheet" href="`)
		b.URL(markup.Path(prefix, css, ""))
		b.Markup(`">`)
	}
	b.Markup(`<script>` + csp.ThemeScript + `</script>`)
	for _, js := range f.CustomJS {
		b.Markup(`<script src="`)
		b.URL(markup.Path(prefix, js, ""))
		b.Markup(`" defer></script>`)
	}
	if f.features["analytics"] {
		b.Markup(`<script src="`)
		b.URL(markup.Path(prefix, "_static/analytics.js", ""))
		b.Markup(`" defer></script>`)
	}
	b.Markup(`</head><body>`)
}

// Tail closes the layout opened by chrome.
func Tail(b *markup.Builder, prefix markup.Prefix) {
	b.Markup(`</div><script src="`)
	b.URL(markup.Path(prefix, "_static/app.js", ""))
	b.Markup(`"></script></body></html>` + "\n")
}

// TOC renders the table of contents from a page's headings.
func TOC(b *markup.Builder, hs []mdx.Heading, u uitext.Text) {
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
func (f *Frame) banner(b *markup.Builder, bn *docsjson.Banner, prefix markup.Prefix, u uitext.Text) {
	if bn == nil || strings.TrimSpace(bn.Content) == "" {
		return
	}
	body := f.markdown(bn.Content, "index", prefix)
	if f.airGapped {
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
func (f *Frame) navbar(b *markup.Builder, nb *docsjson.Navbar, prefix markup.Prefix, u uitext.Text) {
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
func (f *Frame) siteLink(b *markup.Builder, where string, l docsjson.Link, prefix markup.Prefix) {
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
	b.HTML(f.icon.linkIcon(l, where+" "+strconv.Quote(label), prefix)) // siteicons.go
	b.Text(label)
	b.Markup(`</a>`)
}

// Footer renders the site name, the social links (in name order, so the
// output is stable) and the link columns of the footer of section s.
func (f *Frame) Footer(b *markup.Builder, s *site.Division, prefix markup.Prefix) {
	ft := site.FooterOf(s, &f.cfg.Footer)
	b.Markup(`<footer class="footer"><span>`)
	b.Text(f.cfg.Name)
	b.Markup(`</span>`)
	for _, name := range slices.Sorted(maps.Keys(ft.Socials)) {
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
		f.icon.social(b, name) // siteicons.go
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
	return site.TitleFromKey(key)
}

// cspMeta writes the <meta> element of a page's policy. f.CSPConnect
// holds the extra connect-src origins of the export (the API
// playground's servers, the analytics endpoint); own is what the page
// itself adds: the scripts of its MDX (csp.PageScripts), the origins
// its components read from.
func (f *Frame) cspMeta(b *markup.Builder, own csp.Policy) {
	b.Markup(`<meta http-equiv="Content-Security-Policy"`)
	b.Attr("content", csp.ContentSecurityPolicy(f.airGapped, csp.Policy{Connect: append(slices.Clip(f.CSPConnect), own.Connect...), Scripts: own.Scripts}))
	b.Markup(`>`)
}
