package export

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// key presses k (ArrowDown, Enter, Escape…) as a keyboard does, on the
// focused element.
func (b *browser) key(k string) error {
	codes := map[string]int{"ArrowDown": 40, "ArrowUp": 38, "ArrowLeft": 37, "ArrowRight": 39, "Enter": 13, "Escape": 27, "Home": 36, "End": 35}
	ev := map[string]any{"key": k, "code": k, "windowsVirtualKeyCode": codes[k]}
	if k == "Enter" {
		ev["text"] = "\r"
	}
	for _, t := range []string{"keyDown", "keyUp"} {
		ev["type"] = t
		if err := b.call("Input.dispatchKeyEvent", ev, nil); err != nil {
			return err
		}
	}
	return nil
}

// TestBrowser_switcherMenuByKeyboard opens a page of a site with
// languages and versions from file:// and uses the version switcher with
// the keyboard only, as a screen-reader user would: it is a menu button
// whose menu has the current version checked; ArrowDown opens it on the
// current choice, ArrowDown moves, Escape closes it and returns to the
// button; Enter on the other version opens the same page's closest
// parent there.
func TestBrowser_switcherMenuByKeyboard(t *testing.T) {
	bin := chromium(t)
	dir, _ := exportTo(t, Request{Source: mapFS(switcherSite()), Kind: KindAirGapped})
	b, ctx, must := browserSession(t, bin, 90*time.Second)
	must(b.setViewport(desktopWidth, 900))
	must(b.openFile(ctx, dir, "en/v2/guide/setup.html"))
	must(b.waitFor(ctx, `document.documentElement.classList.contains("js")`))

	var roles struct {
		Button, Popup, Expanded, Menu, Labelled string
		Items                                   []string
		Checked                                 []string
	}
	must(b.eval(`(function () {
		var s = document.querySelector(".switch-version summary"), m = document.querySelector(".switch-version ul");
		return {Button: s.getAttribute("role"), Popup: s.getAttribute("aria-haspopup"), Expanded: s.getAttribute("aria-expanded"),
			Menu: m.getAttribute("role"), Labelled: m.getAttribute("aria-labelledby") === s.id ? "yes" : "no",
			Items: Array.from(m.querySelectorAll("a")).map(function (a) { return a.getAttribute("role"); }),
			Checked: Array.from(m.querySelectorAll("a[aria-checked=true]")).map(function (a) { return a.textContent; })};
	})()`, &roles))
	if roles.Button != "button" || roles.Popup != "menu" || roles.Expanded != "false" || roles.Menu != "menu" || roles.Labelled != "yes" ||
		strings.Join(roles.Items, " ") != "menuitemradio menuitemradio" || strings.Join(roles.Checked, " ") != "v2" {
		t.Errorf("version switcher roles: %+v; want a menu button, a menu labelled by it, menuitemradio items with v2 checked", roles)
	}
	var summary string
	must(b.eval(`document.querySelector(".switch-version summary").textContent`, &summary))
	if summary != "v2" {
		t.Errorf("the switcher shows %q, want the current version v2", summary)
	}

	must(b.eval(`document.querySelector(".switch-version summary").focus()`, nil))
	must(b.key("ArrowDown"))
	must(b.waitFor(ctx, `document.querySelector(".switch-version").open && document.activeElement.textContent === "v2"`))
	must(b.key("ArrowDown"))
	must(b.waitFor(ctx, `document.activeElement.textContent === "v1"`))
	var expanded string
	must(b.eval(`document.querySelector(".switch-version summary").getAttribute("aria-expanded")`, &expanded))
	if expanded != "true" {
		t.Errorf("open menu: aria-expanded %q", expanded)
	}
	must(b.key("Escape"))
	must(b.waitFor(ctx, `!document.querySelector(".switch-version").open && document.activeElement === document.querySelector(".switch-version summary")`))

	must(b.key("Enter"))
	must(b.waitFor(ctx, `document.querySelector(".switch-version").open && document.activeElement.textContent === "v2"`))
	must(b.key("End"))
	must(b.key("Enter"))
	must(b.waitFor(ctx, `location.pathname.endsWith("/en/v1/guide/index.html") && document.readyState === "complete"`))

	// The language switcher on a v1 page leads to v1 in French.
	must(b.eval(`document.querySelector(".switch-language summary").click()`, nil))
	must(b.eval(`Array.from(document.querySelectorAll(".switch-language a")).find(function (a) { return a.textContent === "Français"; }).click()`, nil))
	must(b.waitFor(ctx, `location.pathname.endsWith("/fr/v1/intro.html") && document.readyState === "complete"`))
}

// phoneSite has five long tab labels and a language switcher, the
// header a phone has to fit.
func phoneSite() map[string]string {
	src := map[string]string{}
	var tabs []string
	for i, label := range []string{"Getting started guide", "API reference documentation", "Software development kits", "Changelog and release notes", "Integrations"} {
		key := fmt.Sprintf("en/t%d/page", i)
		tabs = append(tabs, fmt.Sprintf(`{"tab": %q, "groups": [{"group": "Pages", "pages": [%q]}]}`, label, key))
		src[key+".mdx"] = "---\ntitle: " + label + "\n---\n\nAbout webhooks and " + label + ".\n\n## Details\n\nMore text.\n"
		src["fr/t"+fmt.Sprint(i)+"/page.mdx"] = "---\ntitle: " + label + " FR\n---\n\nTexte.\n"
	}
	var frTabs []string
	for i := range tabs {
		frTabs = append(frTabs, fmt.Sprintf(`{"tab": "Onglet %d", "groups": [{"group": "Pages", "pages": ["fr/t%d/page"]}]}`, i, i))
	}
	src["docs.json"] = `{"name": "Phone Docs", "navbar": {"links": [{"label": "Status", "href": "https://status.example.com"}]}, "navigation": {"languages": [
		{"language": "en", "tabs": [` + strings.Join(tabs, ",") + `]},
		{"language": "fr", "tabs": [` + strings.Join(frTabs, ",") + `]}]}}`
	return src
}

// TestBrowser_phoneHeader opens a page with five long tabs and a
// language switcher from file:// at 360, 390 and 768 px and checks the
// header a reader gets, keeping a screenshot of each width, closed and
// with the search open: nothing scrolls sideways; the top bar is one
// row; each tab label stays on one line and the tab bar scrolls instead;
// on a phone the search is a button that opens a search box the width
// of the screen, which searches and closes with Escape back to its
// button; at 768 px the search box is in the bar.
func TestBrowser_phoneHeader(t *testing.T) {
	bin := chromium(t)
	dir, _ := exportTo(t, Request{Source: mapFS(phoneSite()), Kind: KindAirGapped})
	shots := t.ArtifactDir()
	t.Logf("screenshots in %s", shots)
	b, ctx, must := browserSession(t, bin, 120*time.Second)
	for _, width := range []int{360, phoneWidth, 768} {
		must(b.setViewport(width, 800))
		must(b.openFile(ctx, dir, "en/t1/page.html"))
		must(b.waitFor(ctx, `document.documentElement.classList.contains("js")`))
		must(b.screenshot(filepath.Join(shots, fmt.Sprintf("header-%d.png", width)), false))
		var got struct {
			Scroll, Client int
			Wide, Clipped  []string
		}
		must(b.eval(overflowScript, &got))
		if got.Scroll > got.Client {
			t.Errorf("%dpx: the page scrolls sideways (%dpx wide); past the edge: %s", width, got.Scroll, strings.Join(got.Wide, ", "))
		}
		var head struct {
			Bar, Toggle, Search  float64
			Lines                []int
			TabScroll, TabClient float64
			TabOverflow          string
		}
		must(b.eval(`(function () {
			function lines(e) { var r = document.createRange(); r.selectNodeContents(e); var tops = {}; Array.from(r.getClientRects()).forEach(function (x) { tops[Math.round(x.top)] = 1; }); return Object.keys(tops).length; }
			var bar = document.querySelector(".tabbar");
			return {Bar: document.querySelector(".topbar").getBoundingClientRect().height,
				Toggle: document.querySelector(".search-toggle").getBoundingClientRect().width,
				Search: document.querySelector("#search-input").getBoundingClientRect().width,
				Lines: Array.from(bar.querySelectorAll("a")).map(lines),
				TabScroll: bar.scrollWidth, TabClient: bar.clientWidth, TabOverflow: getComputedStyle(bar).overflowX};
		})()`, &head))
		if head.Bar > 64 {
			t.Errorf("%dpx: the top bar is %.0fpx high; want one row", width, head.Bar)
		}
		for i, n := range head.Lines {
			if n != 1 {
				t.Errorf("%dpx: tab %d takes %d lines; want labels on one line", width, i, n)
			}
		}
		if head.TabScroll > head.TabClient && head.TabOverflow != "auto" {
			t.Errorf("%dpx: the tabs are wider than their bar (%.0f > %.0f) and it does not scroll (overflow-x %s)", width, head.TabScroll, head.TabClient, head.TabOverflow)
		}
		if width == 768 {
			if head.Toggle != 0 || head.Search < 150 {
				t.Errorf("768px: search button %.0fpx wide, search box %.0fpx; want no button and the box in the bar", head.Toggle, head.Search)
			}
			continue
		}
		if width == 360 && head.TabScroll <= head.TabClient {
			t.Errorf("360px: five long tabs fit in %.0fpx? the fixture no longer tests scrolling", head.TabClient)
		}
		if head.Toggle == 0 || head.Search != 0 {
			t.Errorf("%dpx: search button %.0fpx wide, search box %.0fpx; want the button and no box", width, head.Toggle, head.Search)
		}
		must(b.eval(`document.querySelector(".search-toggle").click()`, nil))
		must(b.waitFor(ctx, `document.activeElement && document.activeElement.id === "search-input"`))
		box, err := b.box("#search-input")
		must(err)
		if box.Left < 0 || box.Right > float64(width) || box.Right-box.Left < float64(width)-110 {
			t.Errorf("%dpx: the open search box spans %.0f..%.0f; want nearly the screen's width", width, box.Left, box.Right)
		}
		got0 := runSearch(ctx, t, b, "webhooks")
		if len(got0) == 0 {
			t.Errorf("%dpx: the open search box finds nothing for webhooks", width)
		}
		res, err := b.box("#search-results")
		must(err)
		if res.Left < 0 || res.Right > float64(width) {
			t.Errorf("%dpx: the results span %.0f..%.0f, past the screen", width, res.Left, res.Right)
		}
		must(b.screenshot(filepath.Join(shots, fmt.Sprintf("header-%d-search.png", width)), false))
		must(b.key("Escape"))
		must(b.waitFor(ctx, `!document.body.classList.contains("search-open") && document.activeElement === document.querySelector(".search-toggle")`))
	}
}
