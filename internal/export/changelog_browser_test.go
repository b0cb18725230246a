package export

import (
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestBrowser_changelogTagFilters: from file://, a changelog whose
// updates have tags shows tag filters in place of its contents list;
// choosing tags shows only the updates that have every one of them
// (none without tags), the address keeps the choice, and an address with
// ?tags= opens with those filters on. The filters' title is in the
// page's language.
func TestBrowser_changelogTagFilters(t *testing.T) {
	bin := chromium(t)
	changelog := "---\ntitle: Changelog\n---\n\n" +
		"<Update label=\"March\" tags={[\"Wintergreen\", \"Spearmint\"]}>\n  Three.\n</Update>\n\n" +
		"<Update label=\"February\" tags={[\"Spearmint\"]}>\n  Two.\n</Update>\n\n" +
		"<Update label=\"January\" tags={[\"Peppermint\", \"Spearmint\"]}>\n  One.\n</Update>\n\n" +
		"<Update label=\"December\">\n  None.\n</Update>\n"
	dir, _ := exportTo(t, Request{Kind: KindAirGapped, Source: mapFS(map[string]string{
		"docs.json":        `{"name": "C", "navigation": {"languages": [{"language": "en", "pages": ["changelog"]}, {"language": "de", "pages": ["de/changelog"]}]}}`,
		"changelog.mdx":    changelog,
		"de/changelog.mdx": changelog,
	})})
	b, ctx, must := browserSession(t, bin, 60*time.Second)
	open := func(page, query string) {
		u := (&url.URL{Scheme: "file", Path: filepath.Join(dir, page), RawQuery: query}).String()
		must(b.call("Page.navigate", map[string]any{"url": u}, nil))
		must(b.waitFor(ctx, `document.readyState === "complete" && !!document.querySelector(".toc-filters")`))
	}
	type state struct {
		Filters, Checked, Shown []string
		Title, Search           string
	}
	read := func() (s state) {
		must(b.eval(`(() => ({
			Filters: [...document.querySelectorAll(".toc-filter input")].map(i => i.value),
			Checked: [...document.querySelectorAll(".toc-filter input:checked")].map(i => i.value),
			Shown: [...document.querySelectorAll(".update")].filter(u => u.offsetParent !== null).map(u => u.id),
			Title: document.querySelector(".toc-filters .toc-title").textContent,
			Search: location.search,
		}))()`, &s))
		return s
	}
	click := func(tag string) {
		must(b.eval(`document.querySelector('.toc-filter input[value="`+tag+`"]').click()`, nil))
	}
	open("changelog.html", "")
	s := read()
	if !slices.Equal(s.Filters, []string{"Wintergreen", "Spearmint", "Peppermint"}) || len(s.Checked) != 0 ||
		!slices.Equal(s.Shown, []string{"march", "february", "january", "december"}) || s.Title != "Filter by tag" {
		t.Fatalf("on load: %+v", s)
	}
	click("Spearmint")
	if s = read(); !slices.Equal(s.Shown, []string{"march", "february", "january"}) || s.Search != "?tags=Spearmint" {
		t.Errorf("Spearmint: %+v", s)
	}
	click("Peppermint")
	if s = read(); !slices.Equal(s.Shown, []string{"january"}) || s.Search != "?tags=Spearmint%2CPeppermint" {
		t.Errorf("Spearmint and Peppermint: %+v", s)
	}
	click("Spearmint")
	click("Peppermint")
	if s = read(); len(s.Shown) != 4 || s.Search != "" {
		t.Errorf("none chosen: %+v", s)
	}
	open("changelog.html", "tags=Wintergreen,Nonexistent")
	if s = read(); !slices.Equal(s.Checked, []string{"Wintergreen"}) || !slices.Equal(s.Shown, []string{"march"}) {
		t.Errorf("opened with ?tags=Wintergreen,Nonexistent: %+v", s)
	}
	open("de/changelog.html", "")
	if s = read(); s.Title != "Nach Tag filtern" {
		t.Errorf("German page: filters titled %q", s.Title)
	}
}

// TestExport_changelogFeed: a page with updates has its RSS feed at its
// address with /rss.xml appended, linking into the page by the updates'
// final ids; rss: true in its frontmatter shows a link to it by the
// title; a page without updates has neither.
func TestExport_changelogFeed(t *testing.T) {
	changelog := "---\ntitle: Changelog\nrss: true\n---\n\n## Install\n\n" +
		"<Update label=\"Install\" rss={{ title: \"Installer\", description: \"Now one command.\" }}>\n  Details.\n</Update>\n\n" +
		"<Update label=\"March\">\n  Faster `exports`.\n</Update>\n"
	dir, _ := exportTo(t, Request{Kind: KindCloud, Domain: "docs.example.com", Source: mapFS(map[string]string{
		"docs.json":          `{"name": "C", "navigation": {"pages": ["news/changelog", "plain"]}}`,
		"news/changelog.mdx": changelog,
		"plain.mdx":          "---\ntitle: Plain\nrss: true\n---\n\nText.\n",
	})})
	feed := readFile(t, filepath.Join(dir, "news", "changelog", "rss.xml"))
	for _, want := range []string{
		"<title><![CDATA[Changelog]]></title>",
		"<title><![CDATA[Installer]]></title>\n<link>https://docs.example.com/news/changelog#install-2</link>",
		"<description><![CDATA[Now one command.]]></description>",
		"<title><![CDATA[March]]></title>\n<link>https://docs.example.com/news/changelog#march</link>",
		"<description><![CDATA[Faster .]]></description>",
	} {
		if !strings.Contains(feed, want) {
			t.Errorf("the feed lacks %q:\n%s", want, feed)
		}
	}
	page := readFile(t, filepath.Join(dir, "news", "changelog.html"))
	if !strings.Contains(page, `<a class="rss-link" href="../news/changelog/rss.xml" type="application/rss+xml">`) {
		t.Errorf("no link to the feed by the title:\n%s", page)
	}
	if _, err := os.Stat(filepath.Join(dir, "plain", "rss.xml")); !os.IsNotExist(err) {
		t.Errorf("a page without updates has a feed: %v", err)
	}
	if strings.Contains(readFile(t, filepath.Join(dir, "plain.html")), "rss-link") {
		t.Error("a page without updates links to a feed")
	}
}
