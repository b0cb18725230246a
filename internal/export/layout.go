package export

import (
	"strconv"
	"strings"
)

// chromeKey identifies the page frame shared by all pages of a section at
// one directory depth: only the root prefix and the section change it, so
// it is built once per pair instead of once per page.
type chromeKey struct {
	section int
	prefix  string
}

// chrome returns the top bar, division switchers and sidebar for pages of
// section s whose root is at prefix.
func (j *job) chrome(s *division, prefix string) string {
	k := chromeKey{-1, prefix}
	if s != nil {
		k.section = s.index
	}
	if v, ok := j.chromes.Load(k); ok {
		return v.(string)
	}
	var b strings.Builder
	b.WriteString(`<a class="skip" href="#content">Skip to content</a>`)
	j.banner(&b, bannerOf(s, j.cfg.Banner), prefix)
	b.WriteString(`<header class="topbar"><button class="menu-toggle" type="button" aria-controls="sidebar" aria-expanded="false" aria-label="Menu">` +
		`<svg viewBox="0 0 24 24" width="20" height="20" stroke="currentColor" stroke-width="2" aria-hidden="true"><path d="M3 6h18M3 12h18M3 18h18"/></svg></button>`)
	b.WriteString(`<a class="brand" href="` + prefix + `index.html">`)
	if j.logoLight != "" {
		b.WriteString(`<img class="logo logo-light" src="` + prefix + esc(j.logoLight) + `" alt="` + esc(j.cfg.Name) + `">`)
		b.WriteString(`<img class="logo logo-dark" src="` + prefix + esc(j.logoDark) + `" alt="` + esc(j.cfg.Name) + `">`)
	} else {
		b.WriteString(`<span class="brand-name">` + esc(j.cfg.Name) + `</span>`)
	}
	b.WriteString(`</a><div class="search"><input id="search-input" type="search" placeholder="Search…" aria-label="Search the docs" autocomplete="off">` +
		`<div id="search-results" class="search-results" role="listbox" hidden></div></div>`)
	j.navbar(&b, navbarOf(s, &j.cfg.Navbar), prefix)
	if j.features["assistant"] {
		b.WriteString(`<a class="assistant" href="` + esc(j.assistantURL()) + `" target="_blank" rel="noopener">Ask AI</a>`)
	}
	b.WriteString(`<button class="theme-toggle" type="button" aria-label="Toggle dark mode"><svg viewBox="0 0 24 24" width="18" height="18" fill="currentColor" aria-hidden="true"><path d="M12 3a9 9 0 1 0 9 9 7 7 0 0 1-9-9z"/></svg></button></header>`)
	j.switchers(&b, s, prefix)
	b.WriteString(`<div class="layout"><nav class="sidebar" id="sidebar" aria-label="Documentation">`)
	if len(j.tree.global) > 0 {
		b.WriteString(`<ul class="anchors">`)
		for _, g := range j.tree.global {
			j.divisionLink(&b, g, prefix, false)
		}
		b.WriteString(`</ul>`)
	}
	if s != nil {
		j.anchors(&b, s, prefix)
		j.items(&b, s.items, prefix, true)
	}
	b.WriteString(`</nav>`)
	v, _ := j.chromes.LoadOrStore(k, b.String())
	return v.(string)
}

// switchers renders, for each level above the page's section, the sibling
// divisions: tabs as a tab bar, languages, versions and dropdowns as menus.
func (j *job) switchers(b *strings.Builder, s *division, prefix string) {
	var path []*division
	for d := s; d != nil && d.parent != nil; d = d.parent {
		path = append([]*division{d}, path...)
	}
	if len(path) == 0 {
		return
	}
	b.WriteString(`<nav class="divisions" aria-label="Sections">`)
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
			b.WriteString(`<ul class="tabbar">`)
			for _, c := range sib {
				j.divisionLink(b, c, prefix, c == d)
			}
			b.WriteString(`</ul>`)
			continue
		}
		b.WriteString(`<details class="switch switch-` + d.kind + `"><summary>` + esc(d.label) + `</summary><ul>`)
		for _, c := range sib {
			j.divisionLink(b, c, prefix, c == d)
		}
		b.WriteString(`</ul></details>`)
	}
	b.WriteString(`</nav>`)
}

// anchors lists the anchor divisions next to the section, if any.
func (j *job) anchors(b *strings.Builder, s *division, prefix string) {
	parent := s.parent
	if s.kind != "anchor" || parent == nil {
		return
	}
	b.WriteString(`<ul class="anchors">`)
	for _, c := range parent.children {
		if c.kind == "anchor" && (c.first != "" || c.href != "") {
			j.divisionLink(b, c, prefix, c == s)
		}
	}
	b.WriteString(`</ul>`)
}

func (j *job) divisionLink(b *strings.Builder, d *division, prefix string, current bool) {
	href := ""
	switch {
	case d.href != "" && hasScheme(d.href):
		href = d.href
	case d.href != "":
		if t, ok := j.link.target("index", d.href); ok {
			href = t
			if !hasScheme(t) {
				href = prefix + t
			}
		}
	case d.first != "":
		href = prefix + hrefPath(d.first+".html")
	}
	if href == "" {
		return
	}
	cur := ""
	if current {
		cur = ` class="current" aria-current="true"`
	}
	desc := ""
	if d.desc != "" && (d.kind == "product" || d.kind == "menu") {
		desc = `<span class="switch-desc">` + esc(d.desc) + `</span>`
	}
	b.WriteString(`<li><a href="` + esc(href) + `"` + cur + `>` + iconSVG(d.icon) + esc(d.label) + navTag(d.tag) + desc + `</a></li>`)
}

// navTag is the badge of a navigation entry ("NEW", "Latest"), if any.
func navTag(tag string) string {
	if tag == "" {
		return ""
	}
	return ` <span class="nav-tag">` + esc(tag) + `</span>`
}

// items renders sidebar groups and pages. Groups of the top level become
// headed blocks; nested groups are list items that collapse with <details>.
// Below the top level the caller has already opened the <ul>.
func (j *job) items(b *strings.Builder, items []*navItem, prefix string, top bool) {
	open := false
	for _, it := range items {
		if it.hidden || it.page != "" && j.byKey[it.page].fm.Hidden {
			continue
		}
		if top && it.page == "" {
			if open {
				b.WriteString(`</ul>`)
				open = false
			}
			b.WriteString(`<div class="nav-group"><p class="nav-group-title">` + iconSVG(it.icon) + esc(it.group) + navTag(it.tag) + `</p><ul class="nav-list">`)
			j.groupBody(b, it, prefix)
			b.WriteString(`</ul></div>`)
			continue
		}
		if top && !open {
			b.WriteString(`<ul class="nav-list">`)
			open = true
		}
		if it.page != "" {
			j.pageLink(b, it.page, prefix)
			continue
		}
		// Nested groups start closed unless "expanded" (the platform's
		// rule); markCurrent opens the ones around the page being read.
		attr := ""
		if it.expanded {
			attr = " open"
		}
		b.WriteString(`<li class="nav-sub"><details` + attr + `><summary>` + iconSVG(it.icon) + esc(it.group) + navTag(it.tag) + `</summary><ul class="nav-list">`)
		j.groupBody(b, it, prefix)
		b.WriteString(`</ul></details></li>`)
	}
	if open {
		b.WriteString(`</ul>`)
	}
}

func (j *job) groupBody(b *strings.Builder, it *navItem, prefix string) {
	if it.root != "" {
		j.pageLink(b, it.root, prefix)
	}
	j.items(b, it.children, prefix, false)
}

func (j *job) pageLink(b *strings.Builder, key, prefix string) {
	p := j.byKey[key]
	// A deprecated endpoint is labelled in the sidebar too, as on the platform.
	label := ""
	if p.fm.Deprecated || p.api != nil && p.api.op.flag("deprecated") {
		label = ` <span class="nav-tag nav-deprecated">deprecated</span>`
	}
	b.WriteString(`<li><a href="` + prefix + esc(hrefPath(p.out)) + `">` + iconSVG(p.fm.Icon) + esc(p.navTitle()) + label + `</a></li>`)
}

// markCurrent flags the page's own sidebar link, found by its exact href,
// and opens the collapsed groups around it so a reader sees where they
// are without script.
func markCurrent(chrome, prefix, out string) string {
	href := prefix + esc(hrefPath(out))
	link := `<a href="` + href + `">`
	// Only the sidebar: a top bar link to the same page is not "current".
	side := strings.Index(chrome, `<nav class="sidebar"`)
	if side < 0 {
		return chrome
	}
	at := strings.Index(chrome[side:], link)
	if at < 0 {
		return chrome
	}
	at += side
	var b strings.Builder
	b.Grow(len(chrome) + 64)
	last := 0
	for _, i := range openDetails(chrome[:at]) {
		if strings.HasPrefix(chrome[i:], `<details>`) {
			b.WriteString(chrome[last:i])
			b.WriteString(`<details open>`)
			last = i + len(`<details>`)
		}
	}
	b.WriteString(chrome[last:at])
	b.WriteString(`<a href="` + href + `" aria-current="page">`)
	b.WriteString(chrome[at+len(link):])
	return b.String()
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
func (j *job) head(b *strings.Builder, title, desc, canonical, prefix string, noindex bool, meta string) {
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\" data-root=\"" + prefix + "\"><head><meta charset=\"utf-8\">" +
		j.cspMeta() + `<meta name="viewport" content="width=device-width, initial-scale=1">`)
	b.WriteString(`<title>` + esc(title) + `</title>`)
	if desc != "" {
		b.WriteString(`<meta name="description" content="` + esc(desc) + `">`)
	}
	if noindex {
		b.WriteString(`<meta name="robots" content="noindex">`)
	}
	b.WriteString(meta)
	if canonical != "" {
		b.WriteString(`<link rel="canonical" href="` + esc(canonical) + `">`)
	}
	if j.favicon != "" {
		b.WriteString(`<link rel="icon" href="` + prefix + esc(j.favicon) + `">`)
	}
	b.WriteString(`<link rel="stylesheet" href="` + prefix + `_static/style.css">`)
	b.WriteString(`<script>` + themeScript + `</script>`)
	if j.features["analytics"] {
		b.WriteString(`<script src="` + prefix + `_static/analytics.js" defer></script>`)
	}
	b.WriteString(`</head><body>`)
}

// tail closes the layout opened by chrome.
func tail(b *strings.Builder, prefix string) {
	b.WriteString(`</div><script src="` + prefix + `_static/app.js"></script></body></html>` + "\n")
}

// toc renders the table of contents from a page's headings.
func toc(b *strings.Builder, hs []heading) {
	if len(hs) == 0 {
		b.WriteString(`<aside class="toc"></aside>`)
		return
	}
	b.WriteString(`<aside class="toc" aria-label="On this page"><p class="toc-title">On this page</p><ul>`)
	for _, h := range hs {
		b.WriteString(`<li class="toc-` + strconv.Itoa(h.Level) + `"><a href="#` + esc(h.ID) + `">` + esc(h.Text) + `</a></li>`)
	}
	b.WriteString(`</ul></aside>`)
}

// banner renders the announcement of docs.json above the top bar. Its
// Markdown links resolve like any link; in an air-gapped bundle remote
// content in it is replaced as in a page. app.js lets a reader dismiss a
// dismissible one.
func (j *job) banner(b *strings.Builder, bn *bannerSettings, prefix string) {
	if bn == nil || strings.TrimSpace(bn.Content) == "" {
		return
	}
	body := strings.TrimSpace(j.mdHTML(bn.Content, "index", prefix))
	if j.kind == KindAirGapped {
		body = string(j.offline("docs.json banner", []byte(body)))
	}
	b.WriteString(`<div class="banner" role="region" aria-label="Announcement"><div class="banner-body">` + body + `</div>`)
	if bn.Dismissible {
		b.WriteString(`<button class="banner-close" type="button" aria-label="Dismiss">×</button>`)
	}
	b.WriteString(`</div>`)
}

// navbar renders the top bar links of docs.json; site-relative ones are
// resolved like any link.
func (j *job) navbar(b *strings.Builder, nb *navbarSettings, prefix string) {
	links := nb.Links
	if p := nb.Primary; p != nil {
		links = append(links[:len(links):len(links)], *p)
	}
	if len(links) == 0 {
		return
	}
	b.WriteString(`<nav class="navbar-links" aria-label="Links">`)
	for _, l := range links {
		j.siteLink(b, l, prefix)
	}
	b.WriteString(`</nav>`)
}

// siteLink writes a link of the top bar or the footer; site-relative
// ones are resolved like any link.
func (j *job) siteLink(b *strings.Builder, l navbarLink, prefix string) {
	href := l.Href
	if t, ok := j.link.target("index", href); ok {
		href = t
		if !hasScheme(t) {
			href = prefix + t
		}
	}
	label := l.Label
	if label == "" {
		label = siteName(l.Type)
	}
	if href == "" || label == "" {
		return
	}
	b.WriteString(`<a href="` + esc(href) + `">` + esc(label) + `</a>`)
}

// footer renders the site name, the social links (in name order, so the
// output is stable) and the link columns of the footer of section s.
func (j *job) footer(b *strings.Builder, s *division, prefix string) {
	f := footerOf(s, &j.cfg.Footer)
	b.WriteString(`<footer class="footer"><span>` + esc(j.cfg.Name) + `</span>`)
	for _, name := range sortedKeys(f.Socials) {
		if href := f.Socials[name]; hasScheme(href) {
			b.WriteString(` <a href="` + esc(href) + `" rel="me">` + esc(siteName(name)) + `</a>`)
		}
	}
	for _, col := range f.Links {
		b.WriteString(`<div class="footer-links">`)
		if col.Header != "" {
			b.WriteString(`<p class="footer-header">` + esc(col.Header) + `</p>`)
		}
		for _, l := range col.Items {
			j.siteLink(b, l, prefix)
		}
		b.WriteString(`</div>`)
	}
	b.WriteString(`</footer>`)
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
