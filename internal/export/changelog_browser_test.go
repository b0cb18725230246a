package export

import (
	"net/url"
	"path/filepath"
	"slices"
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
