package export

import (
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func viewsSource(extra ...string) Request {
	files := map[string]string{
		"docs.json": `{"name": "V", "navigation": {"pages": ["index", "api"]}}`,
		"index.mdx": "---\ntitle: Views\n---\n\n## Install\n\n" +
			"<View title=\"JavaScript\" icon=\"js\">\n  ## With npm\n\n  JS only.\n</View>\n\n" +
			"<View title=\"Python\" icon=\"python\">\n  ## With pip\n\n  Python only.\n</View>\n\n" +
			"<Panel>\n  <Info>Pinned beside the page.</Info>\n</Panel>\n",
		"api.mdx": "---\ntitle: Call\napi: GET https://api.example.com/items\n---\n\nText.\n\n" +
			"<Panel>\n  <Tip>Panel tip.</Tip>\n  <RequestExample>\n```bash\ncurl https://api.example.com/items\n```\n  </RequestExample>\n</Panel>\n",
	}
	// extra: more files, as name and content pairs.
	for i := 0; i+1 < len(extra); i += 2 {
		files[extra[i]] = extra[i+1]
	}
	return Request{Kind: KindAirGapped, Source: mapFS(files)}
}

// TestExport_panelTakesTheContentsColumn: a <Panel>'s content replaces
// the table of contents, and on a two-column API page it heads the
// examples column with the examples it holds.
func TestExport_panelTakesTheContentsColumn(t *testing.T) {
	dir, _ := exportTo(t, viewsSource())
	page := readFile(t, filepath.Join(dir, "index.html"))
	if col := strings.Index(page, `<aside class="toc toc-panel"><div class="panel-content prose">`); col < 0 ||
		!strings.Contains(page[col:], `<div class="callout callout-info"`) ||
		strings.Contains(page, `class="side-panel"`) || strings.Contains(page, `class="toc-title"`) {
		t.Errorf("index.html: the panel is not in the contents column:\n%s", page)
	}
	api := readFile(t, filepath.Join(dir, "api.html"))
	col := api[strings.Index(api, `<aside class="api-examples"`):]
	if !strings.Contains(col, `<div class="panel-content prose">`) || !strings.Contains(col, "Panel tip.") ||
		!strings.Contains(col, "curl https://api.example.com/items") || strings.Contains(api, `class="side-panel"`) {
		t.Errorf("api.html: the panel and its example are not in the examples column:\n%s", col)
	}
}

// TestBrowser_viewsAndPanel: from file://, one view shows at a time,
// chosen in the page's dropdown, and the contents column holds the panel
// (the contents list of the views is checked on a page without one).
func TestBrowser_viewsAndPanel(t *testing.T) {
	bin := chromium(t)
	index := "---\ntitle: Views\n---\n\n## Install\n\n" +
		"<View title=\"JavaScript\" icon=\"js\">\n  ## With npm\n\n  JS only.\n</View>\n\n" +
		"<View title=\"Python\" icon=\"python\">\n  ## With pip\n\n  Python only.\n</View>\n\n"
	dir, _ := exportTo(t, viewsSource("noPanel.mdx", index, "docs.json", `{"name": "V", "navigation": {"pages": ["index", "noPanel", "api"]}}`))
	b, ctx, must := browserSession(t, bin, 60*time.Second)
	open := func(page string) {
		u := (&url.URL{Scheme: "file", Path: filepath.Join(dir, page)}).String()
		must(b.call("Page.navigate", map[string]any{"url": u}, nil))
		must(b.waitFor(ctx, `document.readyState === "complete" && !!document.querySelector(".view-select")`))
	}
	type state struct {
		Options        []string
		JS, Python     bool   // visible
		TOC            string // contents entries not hidden
		PanelInColumn  bool
		PanelDisplayed bool
	}
	read := func() (s state) {
		must(b.eval(`(() => ({
			Options: [...document.querySelectorAll(".view-select option")].map(o => o.value),
			JS: document.querySelector('[data-title="JavaScript"]').offsetParent !== null,
			Python: document.querySelector('[data-title="Python"]').offsetParent !== null,
			TOC: [...document.querySelectorAll(".toc li")].filter(li => !li.hidden).map(li => li.textContent).join(","),
			PanelInColumn: !!document.querySelector("aside.toc-panel .callout"),
			PanelDisplayed: (() => { const p = document.querySelector("aside.toc-panel"); return !!p && getComputedStyle(p).display !== "none" })(),
		}))()`, &s))
		return s
	}
	open("index.html")
	got := read()
	if strings.Join(got.Options, ",") != "JavaScript,Python" || !got.JS || got.Python || !got.PanelInColumn || !got.PanelDisplayed {
		t.Errorf("index.html: %+v", got)
	}
	open("noPanel.html")
	if got := read(); !got.JS || got.Python || got.TOC != "Install,With npm" {
		t.Errorf("noPanel.html, first view: %+v", got)
	}
	must(b.eval(`(() => { const s = document.querySelector(".view-select"); s.value = "Python"; s.dispatchEvent(new Event("change")) })()`, nil))
	if got := read(); got.JS || !got.Python || got.TOC != "Install,With pip" {
		t.Errorf("noPanel.html, Python chosen: %+v", got)
	}
}
