package export

import (
	"context"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/icons"
)

// TestNavigation_productsMenusAndBadges covers the navigation forms of the
// platform's format description that the fixtures do not: products, a
// tab's menu, group and version tags, nested groups collapsed unless
// "expanded", and a version marked "default".
func TestNavigation_productsMenusAndBadges(t *testing.T) {
	src := fstest.MapFS{
		"docs.json": {Data: []byte(`{"name": "Platform", "navigation": {"products": [
			{"product": "Core API", "description": "Core", "icon": "server", "tabs": [
				{"tab": "Docs", "menu": [
					{"item": "Getting started", "icon": "rocket", "groups": [
						{"group": "Setup", "tag": "NEW", "pages": ["core/install",
							{"group": "Advanced", "pages": ["core/advanced"]},
							{"group": "Tuning", "expanded": true, "pages": ["core/tuning"]}]}]},
					{"item": "Guides", "pages": ["core/guide"]}]},
				{"tab": "Changelog", "href": "https://example.com/changelog"}]},
			{"product": "Analytics", "versions": [
				{"version": "v1", "pages": ["analytics/v1"]},
				{"version": "v2", "tag": "Latest", "default": true, "pages": ["analytics/v2"]}]},
			{"product": "Mobile SDK", "href": "https://mobile.example.com"},
			{"product": "Billing", "menu": [{"item": "Invoices", "pages": ["billing/invoices"]}]}
		], "global": {"tabs": [{"tab": "Status", "href": "https://status.example.com"}]}}}`)},
		"billing/invoices.mdx": mdxPage("Invoices"),
		"core/install.mdx":     mdxPage("Install"),
		"core/advanced.mdx":    mdxPage("Advanced setup"),
		"core/tuning.mdx":      mdxPage("Tuning"),
		"core/guide.mdx":       mdxPage("Guide"),
		"analytics/v1.mdx":     mdxPage("Analytics one"),
		"analytics/v2.mdx":     mdxPage("Analytics two"),
	}
	dir, m := exportTo(t, Request{Source: src})
	if m.PageCount != 7 {
		t.Errorf("pageCount = %d, want 7", m.PageCount)
	}
	install := readOut(t, dir, "core/install.html")
	wantAll(t, "core/install.html", install,
		`<details class="switch switch-product"><summary>Core API</summary>`,
		`Core API<span class="switch-desc">Core</span></a>`, // a product's description in its switcher
		`<a href="../analytics/v2.html">Analytics</a>`,      // a product opens on its default version
		`<a href="https://mobile.example.com">Mobile SDK</a>`,
		`<a href="../billing/invoices.html">Billing</a>`,                                    // a product made of a menu
		`<ul class="anchors"><li><a href="https://status.example.com">Status</a></li></ul>`, // global tabs
		`<details class="switch switch-menu"><summary>Getting started</summary>`,
		`<a href="../core/guide.html">Guides</a>`,
		`<a href="https://example.com/changelog">Changelog</a>`,
		`Setup <span class="nav-tag">NEW</span></p>`,
		`<details><summary>Advanced</summary>`,    // nested groups start closed
		`<details open><summary>Tuning</summary>`, // unless expanded
		`<a href="../core/install.html" aria-current="page">Install</a>`)
	// The page being read opens the collapsed group around it.
	wantAll(t, "core/advanced.html", readOut(t, dir, "core/advanced.html"),
		`<details open><summary>Advanced</summary><ul class="nav-list"><li><a href="../core/advanced.html" aria-current="page">`)
	v1 := readOut(t, dir, "analytics/v1.html")
	wantAll(t, "analytics/v1.html", v1, `<a href="../analytics/v2.html">v2 <span class="nav-tag">Latest</span></a>`)
	if !strings.Contains(readOut(t, dir, "index.html"), `url=core/install.html`) {
		t.Error("index.html does not open on the first product's first page")
	}
}

// TestNavigation_defaultVersionOpensSite checks that "default" picks the
// page the bundle root sends readers to.
func TestNavigation_defaultVersionOpensSite(t *testing.T) {
	src := fstest.MapFS{
		"docs.json": {Data: []byte(`{"navigation": {"versions": [
			{"version": "v1", "pages": ["v1/a"]}, {"version": "v2", "default": true, "pages": ["v2/a"]}]}}`)},
		"v1/a.mdx": mdxPage("Old"),
		"v2/a.mdx": mdxPage("New"),
	}
	dir, _ := exportTo(t, Request{Source: src})
	if got := readOut(t, dir, "index.html"); !strings.Contains(got, `url=v2/a.html`) {
		t.Errorf("index.html does not open on the default version:\n%s", got)
	}
}

// TestNavigation_unsupportedKeysWarn checks that a navigation setting the
// export leaves out is named in a warning, once per key, with where it is.
func TestNavigation_unsupportedKeysWarn(t *testing.T) {
	src := fstest.MapFS{
		"docs.json": {Data: []byte(`{"navigation": {"tabs": [
			{"tab": "Docs", "groups": [{"group": "G", "root": "a", "pages": ["a"]}]},
			{"tab": "SDK", "sdk": {"format": "typedoc", "source": "sdk.json"}},
			{"tab": "Events", "asyncapi": "asyncapi.yaml"},
			{"tab": "More", "groups": [{"group": "H", "sdk": {}, "pages": ["a"]}]}]}}`)},
		"a.mdx": mdxPage("A"),
	}
	var warns []string
	exportTo(t, Request{Source: src, Warn: func(wrn Warning) { s := wrn.Message; warns = append(warns, s) }})
	want := []string{
		`docs.json: the navigation setting "sdk" at navigation.tabs[1] and 1 more places is ignored: SDK reference pages are not generated`,
		`docs.json: the navigation setting "asyncapi" at navigation.tabs[2] is ignored: AsyncAPI channel pages are not generated`,
	}
	for _, w := range want {
		if !strings.Contains(strings.Join(warns, "\n"), w) {
			t.Errorf("warnings lack %q; got %q", w, warns)
		}
	}
}

// TestNavigation_directoryListings follows the platform's example: a
// group's "directory" lists its entries on its root page, nested groups
// inherit it, and "none" turns it off below.
func TestNavigation_directoryListings(t *testing.T) {
	src := fstest.MapFS{
		"docs.json": {Data: []byte(`{"navigation": {"groups": [
			{"group": "Help Center", "root": "help/index", "directory": "accordion", "pages": [
				{"group": "Getting Started", "root": "help/start/index", "pages": ["help/start/quickstart", "help/start/install"]},
				{"group": "API Reference", "root": "help/api/index", "directory": "none", "pages": ["help/api/overview"]},
				{"group": "Cards", "root": "help/cards/index", "directory": "card", "pages": ["help/cards/one", "help/secret"]}]}]}}`)},
		"help/index.mdx":            mdxPage("Help"),
		"help/start/index.mdx":      mdxPage("Start here"),
		"help/start/quickstart.mdx": mdxPage("Quickstart", "description: Up in five minutes."),
		"help/start/install.mdx":    mdxPage("Install"),
		"help/api/index.mdx":        mdxPage("API"),
		"help/api/overview.mdx":     mdxPage("Overview"),
		"help/cards/index.mdx":      mdxPage("Cards"),
		"help/cards/one.mdx":        mdxPage("Card one", "description: The first card."),
		"help/secret.mdx":           mdxPage("Secret", "hidden: true"),
	}
	dir, _ := exportTo(t, Request{Source: src})
	wantAll(t, "help/index.html", readOut(t, dir, "help/index.html"),
		`<nav class="directory directory-accordion" aria-label="In this section"><ul class="directory-list"><li><details open><summary>Getting Started</summary>`,
		`<a href="../help/start/quickstart.html">Quickstart</a> <span class="directory-desc">Up in five minutes.</span>`)
	wantAll(t, "help/start/index.html", readOut(t, dir, "help/start/index.html"), // inherited
		`<nav class="directory directory-accordion"`, `<a href="../../help/start/install.html">Install</a>`)
	if api := readOut(t, dir, "help/api/index.html"); strings.Contains(api, `class="directory`) {
		t.Error("directory none still lists the group on its root page")
	}
	cards := readOut(t, dir, "help/cards/index.html")
	wantAll(t, "help/cards/index.html", cards, `<nav class="directory directory-card" aria-label="In this section"><div class="card-group">`+
		`<a class="card" href="../../help/cards/one.html"><span class="card-title">Card one</span><span class="card-body">The first card.</span></a></div>`)
	if strings.Contains(cards, "Secret") {
		t.Error("a hidden page is listed in the directory")
	}
	if strings.Contains(readOut(t, dir, "help/start/quickstart.html"), `class="directory`) {
		t.Error("a page that is no group root got a directory listing")
	}
}

// TestNavigation_productMenu checks a product whose content is a menu:
// the menu's items are a switcher on its pages.
func TestNavigation_productMenu(t *testing.T) {
	src := fstest.MapFS{
		"docs.json": {Data: []byte(`{"navigation": {"products": [{"product": "Core", "menu": [
			{"item": "Guides", "groups": [{"group": "Start", "pages": ["guides/a"]}]},
			{"item": "API", "pages": ["api/b"]},
			{"item": "Changelog", "href": "https://example.com/changelog"}]}]}}`)},
		"guides/a.mdx": mdxPage("Guide A"),
		"api/b.mdx":    mdxPage("API B"),
	}
	dir, _ := exportTo(t, Request{Source: src})
	wantAll(t, "guides/a.html", readOut(t, dir, "guides/a.html"),
		`<details class="switch switch-menu"><summary>Guides</summary><ul><li><a href="../guides/a.html" class="current" aria-current="true">Guides</a></li>`+
			`<li><a href="../api/b.html">API</a></li><li><a href="https://example.com/changelog">Changelog</a></li></ul></details>`,
		`<p class="nav-group-title">Start</p>`)
}

// TestNavigation_languageNavbarAndFooter follows the platform's languages
// example: each language has its own banner, top bar and footer (socials
// and link columns); without a language's own, the site's show.
func TestNavigation_languageNavbarAndFooter(t *testing.T) {
	src := fstest.MapFS{
		"docs.json": {Data: []byte(`{"name": "Intl", "banner": {"content": "Site banner with ![x](https://cdn.test/x.png)"}, "footer": {"links": [{"header": "Site", "items": [{"label": "Home", "href": "/en/overview"}]}]},
		  "navigation": {"languages": [
			{"language": "en", "banner": {"content": "🚀 v2 is live! See the [changelog](/en/quickstart).", "dismissible": true},
			 "footer": {"socials": {"x": "https://x.com/acme"}, "links": [{"header": "Resources", "items": [
				{"label": "Documentation", "href": "/en/overview"}, {"label": "Blog", "href": "https://acme.test/blog"}]}]},
			 "navbar": {"links": [{"label": "Docs", "href": "/en/overview"}], "primary": {"type": "button", "label": "Get Started", "href": "/en/quickstart"}},
			 "groups": [{"group": "Getting started", "pages": ["en/overview", "en/quickstart"]}]},
			{"language": "es",
			 "footer": {"links": [{"header": "Recursos", "items": [{"label": "Documentación", "href": "/es/overview"}]}]},
			 "navbar": {"links": [{"label": "Documentación", "href": "/es/overview"}]},
			 "groups": [{"group": "Primeros pasos", "pages": ["es/overview"]}]}]}}`)},
		"en/overview.mdx":   mdxPage("Overview"),
		"en/quickstart.mdx": mdxPage("Quickstart"),
		"es/overview.mdx":   mdxPage("Resumen"),
	}
	var warns []string
	dir, _ := exportTo(t, Request{Source: src, Warn: func(wrn Warning) { s := wrn.Message; warns = append(warns, s) }})
	wantAll(t, "en/overview.html", readOut(t, dir, "en/overview.html"),
		`<nav class="navbar-links" aria-label="Links"><a href="../en/overview.html">Docs</a><a href="../en/quickstart.html">Get Started</a></nav>`,
		`<li><a href="../en/overview.html" aria-current="page">Overview</a></li>`, // the sidebar link, not the top bar's
		`<a href="https://x.com/acme" rel="me">`+drawn(icons.FontAwesome, "x-twitter", "brands")+`<span class="sr-only">X</span></a><div class="footer-links"><p class="footer-header">Resources</p>`+
			`<a href="../en/overview.html">Documentation</a><a href="https://acme.test/blog">Blog</a></div></footer>`)
	wantAll(t, "en/overview.html", readOut(t, dir, "en/overview.html"),
		`<div class="banner" role="region" aria-label="Announcement"><div class="banner-body"><p>🚀 v2 is live! See the <a href="../en/quickstart.html">changelog</a>.</p>`+
			`</div><button class="banner-close" type="button" aria-label="Dismiss">×</button></div><header class="topbar">`)
	es := readOut(t, dir, "es/overview.html")
	wantAll(t, "es/overview.html", es, `<div class="banner-body"><p>Site banner with <img src="https://cdn.test/x.png" alt="x"></p></div></div>`)
	wantAll(t, "es/overview.html", es,
		`<nav class="navbar-links" aria-label="Enlaces"><a href="../es/overview.html">Documentación</a></nav>`,
		`<p class="footer-header">Recursos</p><a href="../es/overview.html">Documentación</a></div></footer>`)
	if strings.Contains(es, "Get Started") || strings.Contains(es, "x.com") {
		t.Error("es/overview.html shows the English top bar or footer")
	}
	if strings.Contains(strings.Join(warns, "\n"), "banner") {
		t.Errorf("warnings = %q, the banner is supported", warns)
	}
	// Air-gapped: remote content of a banner is replaced, as in a page.
	warns = nil
	dir, _ = exportTo(t, Request{Source: src, Kind: KindAirGapped, Warn: func(wrn Warning) { s := wrn.Message; warns = append(warns, s) }})
	if es := readOut(t, dir, "es/overview.html"); strings.Contains(es, `src="https://cdn.test`) {
		t.Error("an air-gapped banner loads remote content")
	}
	if !strings.Contains(strings.Join(warns, "\n"), "docs.json banner: remote content replaced (1: https://cdn.test/x.png)") {
		t.Errorf("warnings = %q, want the banner's remote image named", warns)
	}
	// Without a language's own, the site's footer columns show.
	dir, _ = exportTo(t, Request{Source: fstest.MapFS{"a.mdx": mdxPage("A"), "docs.json": {Data: []byte(
		`{"footer": {"links": [{"header": "Site", "items": [{"label": "Home", "href": "/a"}]}]}, "navigation": {"pages": ["a"]}}`)}}})
	wantAll(t, "a.html", readOut(t, dir, "a.html"), `<div class="footer-links"><p class="footer-header">Site</p><a href="a.html">Home</a></div></footer>`)
}

// TestNavigation_eyebrows checks styling.eyebrows: "section" puts the
// page's group above its title, "breadcrumbs" the whole path; other
// styling settings are named in a warning.
func TestNavigation_eyebrows(t *testing.T) {
	src := func(mode string) fstest.MapFS {
		return fstest.MapFS{
			"docs.json": {Data: []byte(`{"styling": {"eyebrows": "` + mode + `", "codeblocks": "dark"}, "navigation": {"tabs": [
				{"tab": "Guides", "groups": [{"group": "Start", "pages": ["a", {"group": "Deep", "pages": ["b"]}]}]}]}}`)},
			"a.mdx": mdxPage("A"),
			"b.mdx": mdxPage("B"),
		}
	}
	var warns []string
	dir, _ := exportTo(t, Request{Source: src("breadcrumbs"), Warn: func(wrn Warning) { s := wrn.Message; warns = append(warns, s) }})
	wantAll(t, "b.html", readOut(t, dir, "b.html"),
		`<header class="page-head"><nav class="eyebrow breadcrumbs" aria-label="Breadcrumb"><ol><li>Guides</li><li>Start</li><li>Deep</li></ol></nav><h1>B</h1>`)
	if !strings.Contains(strings.Join(warns, "\n"), `"styling.codeblocks" is not supported`) {
		t.Errorf("warnings = %q, want styling.codeblocks named", warns)
	}
	dir, _ = exportTo(t, Request{Source: src("section")})
	wantAll(t, "a.html", readOut(t, dir, "a.html"), `<header class="page-head"><p class="eyebrow">Start</p><h1>A</h1>`)
	dir, _ = exportTo(t, Request{Source: src("")})
	if strings.Contains(readOut(t, dir, "a.html"), `class="eyebrow`) {
		t.Error("an eyebrow without styling.eyebrows")
	}
}

// TestNavigation_iconForms: a navigation entry's icon may be a name or
// the documented object form, at every level and in nested groups; a
// value of another shape is decoration the export does not understand:
// a warning, never a failed job.
func TestNavigation_iconForms(t *testing.T) {
	src := mapFS(map[string]string{
		"docs.json": `{"navigation": {"tabs": [{"tab": "Guides", "icon": {"name": "book", "style": "solid"},
			"groups": [{"group": "Start", "icon": "rocket", "pages": ["index",
				{"group": "Nested", "icon": {"name": "bolt", "style": "solid", "library": "fontawesome"}, "pages": ["a"]},
				{"group": "Odd", "icon": ["not", "an", "icon"], "tag": {"x": 1}, "pages": ["b"]}]}]}]}}`,
		"index.mdx": mdxBody("Home"),
		"a.mdx":     mdxBody("A"),
		"b.mdx":     mdxBody("B"),
	})
	var warnings []string
	_, m := exportTo(t, Request{Source: src, Kind: KindCloud, Warn: func(wrn Warning) { s := wrn.Message; warnings = append(warnings, s) }})
	n := 0
	for _, f := range m.Files {
		if f.Path == "a.html" || f.Path == "b.html" || f.Path == "index.html" {
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d of the 3 pages exported", n)
	}
	if joined := strings.Join(warnings, "\n"); !strings.Contains(joined, `"Odd" (["not", "an", "icon"])`) || !strings.Contains(joined, `"Odd" tag ({"x": 1})`) {
		t.Errorf("no warning names the entry with an odd icon: %q", warnings)
	}
}

// TestNavigation_typeErrorLine: a wrong type deep in a nested group is
// reported at its own line, not at a line counted from the group.
func TestNavigation_typeErrorLine(t *testing.T) {
	doc := "{\n  \"navigation\": {\n    \"groups\": [\n      {\n        \"group\": \"A\",\n        \"pages\": [\n          \"index\",\n" +
		"          {\n            \"group\": \"B\",\n            \"pages\": [\"a\"],\n            \"root\": {\"page\": \"a\"}\n          }\n        ]\n      }\n    ]\n  }\n}\n"
	src := mapFS(map[string]string{"docs.json": doc, "index.mdx": mdxBody("Home"), "a.mdx": mdxBody("A")})
	_, err := New(Options{}).Export(context.Background(), Request{Source: src, Kind: KindCloud, Domain: "docs.example.com"}, t.TempDir(), nil)
	if err == nil || !strings.Contains(err.Error(), "root has the wrong type") || !strings.Contains(err.Error(), "at line 11") {
		t.Errorf("error = %v, want the root's type at line 11", err)
	}
}

// TestLinks_followRedirects: a link to the source of a docs.json redirect
// goes where the page moved (through a chain of moves, keeping the
// link's fragment), and a loop of redirects leaves the link as written.
func TestLinks_followRedirects(t *testing.T) {
	src := mapFS(map[string]string{
		"docs.json": `{"navigation": {"pages": ["index", "guides/new"]},
			"redirects": [{"source": "/old", "destination": "/guides/new"}, {"source": "/older/", "destination": "/old"},
			              {"source": "/out", "destination": "https://example.com/moved"},
			              {"source": "/loop1", "destination": "/loop2"}, {"source": "/loop2", "destination": "/loop1"}]}`,
		"index.mdx":      "---\ntitle: Home\n---\n\n[a](/old) [b](/older#setup) [c](/out) [d](/loop1)\n",
		"guides/new.mdx": "---\ntitle: New\n---\n\n## Setup\n\n[back](../old)\n",
	})
	var warnings []string
	dir, _ := exportTo(t, Request{Source: src, Kind: KindCloud, Warn: func(wrn Warning) { s := wrn.Message; warnings = append(warnings, s) }})
	index := readOut(t, dir, "index.html")
	for _, want := range []string{`href="guides/new.html">a</a>`, `href="guides/new.html#setup">b</a>`, `href="https://example.com/moved">c</a>`, `href="/loop1">d</a>`} {
		if !strings.Contains(index, want) {
			t.Errorf("index.html lacks %s", want)
		}
	}
	if got := readOut(t, dir, "guides/new.html"); !strings.Contains(got, `href="../guides/new.html">back</a>`) {
		i := strings.Index(got, ">back<")
		t.Errorf("a relative link to a redirect source is not followed: %s", got[max(0, i-80):i+6])
	}
	joined := strings.Join(warnings, "\n")
	if strings.Contains(joined, "/old") && strings.Contains(joined, "unresolved") {
		t.Errorf("a link through a redirect is still reported: %q", warnings)
	}
}

// TestLinks_wildcardRedirects: the platform's wildcard redirects
// (create/redirects.mdx) are followed by links and written as redirect
// pages for every page their destination names. Before, every pattern
// was skipped with a warning, and links relying on one broke.
func TestLinks_wildcardRedirects(t *testing.T) {
	src := mapFS(map[string]string{
		"docs.json": `{"navigation": {"pages": ["index", "v2/intro", "v2/guide/setup", "collections/overview", "new/article-123"]},
			"redirects": [{"source": "/beta/:slug*", "destination": "/v2/:slug*"},
			              {"source": "/articles/concepts-*", "destination": "/collections/overview"},
			              {"source": "/old/article-*", "destination": "/new/article-*"},
			              {"source": "/team/:name/profile", "destination": "/people/:name"},
			              {"source": "/bad/:a", "destination": "/v2/:b"}]}`,
		"index.mdx":                "---\ntitle: Home\n---\n\n[a](/beta/intro) [b](/beta/guide/setup#step) [c](/articles/concepts-getting-started) [d](/old/article-123) [e](/beta/missing)\n",
		"v2/intro.mdx":             "---\ntitle: Intro\n---\n\nv2\n",
		"v2/guide/setup.mdx":       "---\ntitle: Setup\n---\n\n## Step\n",
		"collections/overview.mdx": "---\ntitle: Overview\n---\n\nall\n",
		"new/article-123.mdx":      "---\ntitle: Article\n---\n\n123\n",
	})
	var warnings []string
	dir, _ := exportTo(t, Request{Source: src, Kind: KindAirGapped, Warn: func(wrn Warning) { s := wrn.Message; warnings = append(warnings, s) }})
	index := readOut(t, dir, "index.html")
	for _, want := range []string{`href="v2/intro.html">a</a>`, `href="v2/guide/setup.html#step">b</a>`,
		`href="collections/overview.html">c</a>`, `href="new/article-123.html">d</a>`} {
		if !strings.Contains(index, want) {
			t.Errorf("index.html lacks %s", want)
		}
	}
	for page, want := range map[string]string{
		"beta/intro.html":       `url=../v2/intro.html"`,
		"beta/guide/setup.html": `url=../../v2/guide/setup.html"`,
		"old/article-123.html":  `url=../new/article-123.html"`,
	} {
		if got := readOut(t, dir, page); !strings.Contains(got, want) {
			t.Errorf("%s lacks %s:\n%s", page, want, got)
		}
	}
	joined := strings.Join(warnings, "\n")
	if strings.Contains(joined, "no static equivalent") {
		t.Errorf("a wildcard redirect is still skipped: %q", warnings)
	}
	if !strings.Contains(joined, `redirect "/bad/:a" goes to "/v2/:b", which names a parameter the source does not catch`) {
		t.Errorf("a destination naming a parameter the source lacks is not reported: %q", warnings)
	}
}

func TestRedirectPattern(t *testing.T) {
	for _, c := range []struct{ source, dest, key, want string }{
		{"/beta/:slug*", "/v2/:slug*", "beta/a/b", "/v2/a/b"},
		{"/beta/:slug*", "/v2/:slug*", "beta", "/v2"},
		{"/beta/:slug*", "/v2/:slug*", "betamax", ""},
		{"/team/:name/profile", "/people/:name", "team/ana/profile", "/people/ana"},
		{"/team/:name/profile", "/people/:name", "team/a/b/profile", ""},
		{"/old/article-*", "/new/article-*", "old/article-123", "/new/article-123"},
		{"/docs/:slug*", "/help/:slug*?ref=docs#top", "docs/x", "/help/x?ref=docs#top"},
		{"/x.y/:p", "/z/:p", "xzy/q", ""}, // the dot is a dot
	} {
		rps := redirectPatterns([]docsjson.Redirect{{Source: c.source, Destination: c.dest}}, "", func(string, ...any) {})
		got, _ := rps[0].destinationOf(c.key)
		if got != c.want {
			t.Errorf("%s → %s: %q goes to %q, want %q", c.source, c.dest, c.key, got, c.want)
		}
	}
}

// TestExport_customCSS: every .css file of the source is linked on every
// page after the site's stylesheet, as the platform includes them
// (customize/custom-scripts.mdx), and copied into the bundle; an
// air-gapped copy keeps nothing from outside it. Before, the bundle
// linked none of them and pages styled by them came out unstyled.
func TestExport_customCSS(t *testing.T) {
	src := mapFS(map[string]string{
		"docs.json":              `{"navigation": {"pages": ["index", "guides/intro"]}}`,
		"index.mdx":              "---\ntitle: Home\n---\n\n<div className=\"my-callout\">Styled</div>\n",
		"guides/intro.mdx":       "---\ntitle: Intro\n---\n\nHello\n",
		"style.css":              ".my-callout { border-radius: 1rem; background: url(https://cdn.example.com/bg.png); }\n",
		"themes/extra.CSS":       "h1 { letter-spacing: 0.01em; }\n",
		"node_modules/x/lib.css": ".vendor {}\n",
		".hidden/secret.css":     ".no {}\n",
	})
	dir, _ := exportTo(t, Request{Source: src, Kind: KindAirGapped})
	for page, prefix := range map[string]string{"index.html": "", "guides/intro.html": "../"} {
		got := readOut(t, dir, page)
		want := `<link rel="stylesheet" href="` + prefix + `_static/style.css"><link rel="stylesheet" href="` + prefix +
			`style.css"><link rel="stylesheet" href="` + prefix + `themes/extra.CSS">`
		if !strings.Contains(got, want) {
			i := strings.Index(got, "_static/style.css")
			t.Errorf("%s does not link the source's stylesheets in order:\n%s", page, got[max(0, i-60):min(len(got), i+300)])
		}
		if strings.Contains(got, "lib.css") || strings.Contains(got, "secret.css") {
			t.Errorf("%s links a stylesheet of node_modules or a hidden folder", page)
		}
	}
	css := readOut(t, dir, "style.css")
	if !strings.Contains(css, ".my-callout") || strings.Contains(css, "url(https://cdn.example.com") {
		t.Errorf("the air-gapped copy of style.css:\n%s", css)
	}
	if got := readOut(t, dir, "themes/extra.CSS"); !strings.Contains(got, "letter-spacing") {
		t.Errorf("themes/extra.CSS: %q", got)
	}
}
