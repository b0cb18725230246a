package frame

import (
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/site"
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
	f.switchers(&b, s, prefix, u, nil)
	b.Markup(`<div`)
	b.Attr("class", m.Class())
	b.Markup(`>`)
	if m.Sidebar() {
		f.sidebar(&b, s, prefix, u)
	}
	v, _ := f.chromes.LoadOrStore(k, b.Fragment())
	return v.(markup.HTML)
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

// Tail closes the layout opened by chrome.
func Tail(b *markup.Builder, prefix markup.Prefix) {
	b.Markup(`</div><script src="`)
	b.URL(markup.Path(prefix, "_static/app.js", ""))
	b.Markup(`"></script></body></html>` + "\n")
}
