package export

import (
	"net/url"
	"path/filepath"
	"testing"
	"testing/fstest"
	"time"
)

// TestBrowser_tabProps drives the tab props of the platform's Tabs and
// CodeGroup pages in Chromium, from file://: defaultTabIndex shows its
// tab first, a dropdown code group is a menu, picking a tab picks the
// tab of the same title elsewhere on the page except in a group that
// says sync={false}, and an address naming something in a closed
// accordion or a hidden tab shows it.
func TestBrowser_tabProps(t *testing.T) {
	bin := chromium(t)
	page := "# Tabs\n\n" +
		"<Tabs defaultTabIndex={1}>\n  <Tab title=\"JavaScript\">\n    JS one\n  </Tab>\n  <Tab title=\"Python\" id=\"py-tab\">\n    Py one\n  </Tab>\n</Tabs>\n\n" +
		"<CodeGroup dropdown>\n\n```javascript JavaScript\nconsole.log(1)\n```\n\n```python Python\nprint(1)\n```\n\n</CodeGroup>\n\n" +
		"<Tabs sync={false}>\n  <Tab title=\"JavaScript\">\n    JS three\n  </Tab>\n  <Tab title=\"Python\">\n    Py three\n  </Tab>\n</Tabs>\n\n" +
		"<Accordion title=\"Questions\" id=\"faq\">\n  Inside the accordion.\n</Accordion>\n"
	src := fstest.MapFS{
		"docs.json": {Data: []byte(`{"name": "T", "navigation": {"pages": ["index"]}}`)},
		"index.mdx": {Data: []byte(page)},
	}
	dir, _ := exportTo(t, Request{Source: src, Kind: KindAirGapped})
	b, ctx, must := browserSession(t, bin, 60*time.Second)
	u := (&url.URL{Scheme: "file", Path: filepath.Join(dir, "index.html")}).String()
	must(b.call("Page.navigate", map[string]any{"url": u}, nil))
	must(b.waitFor(ctx, `document.readyState === "complete" && document.documentElement.classList.contains("js")`))
	// shown is the title of the visible panel of each tabbed group.
	shown := func() []string {
		var got []string
		must(b.eval(`Array.from(document.querySelectorAll("[data-tabs]")).map(g =>
			(Array.from(g.children).find(c => c.hasAttribute("data-title") && !c.hidden) || {}).dataset?.title || "")`, &got))
		return got
	}
	check := func(step string, want ...string) {
		t.Helper()
		if got := shown(); len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
			t.Errorf("%s: shown %q, want %q", step, got, want)
		}
	}
	check("on load", "Python", "JavaScript", "JavaScript")
	var menu []string
	must(b.eval(`Array.from(document.querySelectorAll(".code-group > select.tab-select option")).map(o => o.textContent)`, &menu))
	if len(menu) != 2 || menu[0] != "JavaScript" || menu[1] != "Python" {
		t.Errorf("the dropdown code group's menu: %q", menu)
	}
	click := func(group, title string) {
		must(b.eval(`Array.from(document.querySelectorAll("[data-tabs]")[`+group+`].querySelectorAll(".tab-buttons button")).find(x => x.textContent === "`+title+`").click()`, nil))
	}
	click("0", "JavaScript")
	check("JavaScript picked in the first tabs", "JavaScript", "JavaScript", "JavaScript")
	must(b.eval(`(s => { s.selectedIndex = 1; s.dispatchEvent(new Event("change")); })(document.querySelector(".tab-select"))`, nil))
	check("Python picked in the menu", "Python", "Python", "JavaScript")
	click("2", "Python")
	click("2", "JavaScript")
	check("the unsynced tabs picked", "Python", "Python", "JavaScript")
	click("0", "JavaScript")
	must(b.eval(`location.hash = "py-tab"`, nil))
	must(b.waitFor(ctx, `!document.getElementById("py-tab").hidden`))
	must(b.eval(`location.hash = "faq"`, nil))
	must(b.waitFor(ctx, `document.getElementById("faq").open`))
}
