package export

import (
	"os"
	"strings"
	"testing"
)

// basePathSite is a docs source written for a site served under /docs:
// its links, images, docs.json references and redirects carry the prefix,
// with a few written without it.
func basePathSite() Request {
	return Request{Source: os.DirFS("testdata/basepath"), Kind: KindCloud, BasePath: "/docs"}
}

// TestExport_basePath: with the deployment's base path set, a link, an
// image, a docs.json reference or a redirect written with the prefix
// resolves inside the bundle like one written without it; canonical URLs
// carry the prefix; a prefixed link to nothing is reported like any other.
func TestExport_basePath(t *testing.T) {
	var warnings []string
	req := basePathSite()
	req.Warn = func(wrn Warning) { m := wrn.Message; warnings = append(warnings, m) }
	dir, _ := exportTo(t, req)

	index := readOut(t, dir, "index.html")
	start := readOut(t, dir, "guides/start.html")
	chart := readOut(t, dir, "reference/chart.html")
	for _, c := range []struct{ page, name, html, want string }{
		{"index", "prefixed page", index, `href="guides/start.html">Start here</a>`},
		{"index", "unprefixed page", index, `href="guides/start.html">the same page without the prefix</a>`},
		{"index", "prefixed anchor", index, `href="guides/start.html#checklist">The checklist</a>`},
		{"index", "anchor on another page", index, `href="reference/rules.html#quay-side">the rules on the quay</a>`},
		{"index", "redirect through the prefix", index, `href="guides/moorings.html">The old berth list</a>`},
		{"index", "redirect chain ending in a fragment", index, `href="reference/rules.html#quay-side">the pier notes</a>`},
		{"index", "the base path itself", index, `href="index.html">Back to this page</a>`},
		{"index", "the base path with a fragment", index, `href="index.html#overview">its overview</a>`},
		{"index", "Markdown image", index, `src="images/map.svg"`},
		{"index", "HTML image", index, `<img src="images/mark.svg" alt="Harbour mark"`},
		{"index", "card", index, `href="guides/moorings.html"`},
		{"index", "logo", index, `src="images/mark.svg"`},
		{"index", "navbar link", index, `href="guides/moorings.html">Moorings</a>`},
		{"index", "navbar link without the prefix", index, `href="reference/tides.html">Tide tables</a>`},
		{"index", "navbar button", index, `href="guides/start.html#before-you-sail"`},
		{"index", "footer link", index, `href="reference/rules.html">Harbour rules</a>`},
		{"index", "footer link to a redirect", index, `href="guides/moorings.html">Old berth list</a>`},
		{"index", "banner", index, `href="reference/tides.html#winter">winter schedule</a>`},
		{"index", "anchor href", index, `href="guides/start.html#checklist"`},
		{"start", "relative link", start, `href="../reference/tides.html#winter">the tide table</a>`},
		{"start", "prefixed file", start, `href="../images/map.svg">the map</a>`},
		{"start", "canonical URL carries the prefix", start, `<link rel="canonical" href="https://docs.example.com/docs/guides/start">`},
		{"chart", "stylesheet", chart, `href="../styles/harbor.css"`},
	} {
		if !strings.Contains(c.html, c.want) {
			t.Errorf("%s: %s: no %s", c.page, c.name, c.want)
		}
	}
	for _, f := range []string{"images/map.svg", "images/mark.svg", "styles/harbor.css", "berths.html", "pier.html", "quay.html"} {
		if _, err := os.Stat(dir + "/" + f); err != nil {
			t.Errorf("the bundle lacks %s", f)
		}
	}
	if b := readOut(t, dir, "berths.html"); !strings.Contains(b, `guides/moorings.html`) {
		t.Errorf("berths.html (a redirect source written with the prefix) does not go to the moorings:\n%s", b)
	}
	if sm := readOut(t, dir, "sitemap.xml"); !strings.Contains(sm, "<loc>https://docs.example.com/docs/reference/tides</loc>") {
		t.Errorf("sitemap URLs lack the base path:\n%s", sm)
	}
	all := strings.Join(warnings, "\n")
	if !strings.Contains(all, `reference/rules: /docs/guides/sailing-notes`) {
		t.Errorf("the prefixed link to nothing is not reported:\n%s", all)
	}
	if strings.Count(all, "resolve to no page or file") != 1 || !strings.Contains(all, "1 references resolve") {
		t.Errorf("want exactly the one unresolved reference reported:\n%s", all)
	}
}

// TestExport_basePathAirGapped: an air-gapped bundle keeps the prefixed
// images and stylesheets of a page inside the bundle, and the root-relative
// url()s of its CSS lose the prefix as they are made relative.
func TestExport_basePathAirGapped(t *testing.T) {
	req := basePathSite()
	req.Kind = KindAirGapped
	dir, _ := exportTo(t, req)
	chart := readOut(t, dir, "reference/chart.html")
	if !strings.Contains(chart, `url(&#34;../images/map.svg&#34;)`) && !strings.Contains(chart, `url(&quot;../images/map.svg&quot;)`) {
		t.Errorf("the inline style's url() does not name the bundle's image:\n%s", chart)
	}
	if css := readOut(t, dir, "styles/harbor.css"); !strings.Contains(css, `url("../images/map.svg")`) {
		t.Errorf("the stylesheet's url() does not name the bundle's image:\n%s", css)
	}
	if index := readOut(t, dir, "index.html"); !strings.Contains(index, `src="images/map.svg"`) {
		t.Errorf("the prefixed image is not the bundle's")
	}
}

// TestExport_basePathWithout: the same source exported with no base path
// leaves the prefixed references unresolved and reported, and keeps the
// unprefixed ones working: the prefix is a deployment setting, never
// guessed.
func TestExport_basePathWithout(t *testing.T) {
	var warnings []string
	req := basePathSite()
	req.BasePath = ""
	req.Warn = func(wrn Warning) { m := wrn.Message; warnings = append(warnings, m) }
	dir, _ := exportTo(t, req)
	index := readOut(t, dir, "index.html")
	if !strings.Contains(index, `href="guides/start.html">the same page without the prefix</a>`) {
		t.Errorf("an unprefixed link no longer resolves")
	}
	if !strings.Contains(index, `href="/docs/guides/start">Start here</a>`) {
		t.Errorf("a prefixed link resolved with no base path set")
	}
	if all := strings.Join(warnings, "\n"); !strings.Contains(all, "index: /docs/guides/start") {
		t.Errorf("the prefixed link is not reported:\n%s", all)
	}
}

// TestCleanBasePath: the forms a deployment may write, and what is refused.
func TestCleanBasePath(t *testing.T) {
	for in, want := range map[string]string{"": "", "/": "", "docs": "/docs", "/docs/": "/docs", " /en/docs ": "/en/docs"} {
		if got, err := CleanBasePath(in); err != nil || got != want {
			t.Errorf("CleanBasePath(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"https://x.test/docs", "/docs?x=1", "/docs#a", "/a/../b", "/a//b", `/a\b`, "/a b", "/%2e%2e"} {
		if got, err := CleanBasePath(in); err == nil {
			t.Errorf("CleanBasePath(%q) = %q, want an error", in, got)
		}
	}
}
