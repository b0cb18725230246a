package export

import (
	"strings"
	"testing"
)

// switcherSite has two languages and two versions inside each, with
// their pages in folders named for them: the English v2 has a page that
// v1 lacks (but v1 has its folder's page) and one v1 lacks entirely.
func switcherSite() map[string]string {
	page := func(title string) string { return "---\ntitle: " + title + "\n---\n\nAbout " + title + ".\n" }
	return map[string]string{
		"docs.json": `{"name": "Switch", "navigation": {"languages": [
			{"language": "en", "versions": [
				{"version": "v2", "groups": [{"group": "Guide", "pages": ["en/v2/intro", "en/v2/guide/index", "en/v2/guide/setup", "en/v2/new"]}]},
				{"version": "v1", "groups": [{"group": "Guide", "pages": ["en/v1/intro", "en/v1/guide/index"]}]}]},
			{"language": "fr", "versions": [
				{"version": "v2", "groups": [{"group": "Guide", "pages": ["fr/v2/intro", "fr/v2/guide/index", "fr/v2/guide/setup"]}]},
				{"version": "v1", "groups": [{"group": "Guide", "pages": ["fr/v1/intro"]}]}]}]}}`,
		"en/v2/intro.mdx": page("Intro"), "en/v2/guide/index.mdx": page("Guide"), "en/v2/guide/setup.mdx": page("Setup"),
		"en/v2/new.mdx": page("New"), "en/v1/intro.mdx": page("Intro v1"), "en/v1/guide/index.mdx": page("Guide v1"),
		"fr/v2/intro.mdx": page("Intro FR"), "fr/v2/guide/index.mdx": page("Guide FR"), "fr/v2/guide/setup.mdx": page("Setup FR"),
		"fr/v1/intro.mdx": page("Intro FR v1"),
	}
}

// TestSwitchers_keepThePage: choosing another version or language leads
// to the same page there when it exists, else to its closest parent page,
// else to the first page; the current choice stays marked.
func TestSwitchers_keepThePage(t *testing.T) {
	dir, _ := exportTo(t, Request{Source: mapFS(switcherSite())})
	for _, c := range []struct {
		page string
		want []string // the switchers' links, in order
	}{
		// the same page in the other version and the other language
		{"en/v2/intro.html", []string{`href="../../fr/v2/intro.html">Français`, `href="../../en/v2/intro.html" class="current" aria-current="true">v2`, `href="../../en/v1/intro.html">v1`}},
		// v1 has no setup page but has its folder's page
		{"en/v2/guide/setup.html", []string{`href="../../../fr/v2/guide/setup.html">Français`, `href="../../../en/v1/guide/index.html">v1`}},
		// nothing like it in v1: its first page
		{"en/v2/new.html", []string{`href="../../fr/v2/intro.html">Français`, `href="../../en/v1/intro.html">v1`}},
		// back from the older version: the same page
		{"en/v1/guide/index.html", []string{`href="../../../fr/v1/intro.html">Français`, `href="../../../en/v2/guide/index.html">v2`}},
		{"fr/v2/guide/setup.html", []string{`href="../../../en/v2/guide/setup.html">English`, `href="../../../fr/v1/intro.html">v1`}},
	} {
		html := readOut(t, dir, c.page)
		nav := html[strings.Index(html, `<nav class="divisions"`):]
		nav = nav[:strings.Index(nav, "</nav>")]
		at := 0
		for _, w := range c.want {
			i := strings.Index(nav[at:], w)
			if i < 0 {
				t.Errorf("%s: switchers lack %s (in this order) in %s", c.page, w, nav)
				break
			}
			at += i
		}
	}
}
