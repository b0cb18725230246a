package export

import (
	"net/url"
	"path/filepath"
	"testing"
	"time"
)

// TestBrowser_translatedSearch opens a Japanese and a Chinese page from
// file:// and searches for something no page has: app.js answers in the
// page's language, with the query in it as text, and the English page
// stays English. No page, the Arabic (right-to-left) one included,
// scrolls sideways.
func TestBrowser_translatedSearch(t *testing.T) {
	bin := chromium(t)
	src := mapFS(map[string]string{
		"docs.json": `{"name": "Multi", "navigation": {"languages": [
			{"language": "en", "pages": ["en/a"]}, {"language": "ja", "pages": ["ja/a"]}, {"language": "cn", "pages": ["zh/a"]},
			{"language": "ar", "pages": ["ar/a"]}]}}`,
		"ar/a.mdx": "---\ntitle: أ\n---\n\nنص.\n",
		"en/a.mdx": "---\ntitle: A\n---\n\nText.\n",
		"ja/a.mdx": "---\ntitle: あ\n---\n\n本文。\n",
		"zh/a.mdx": "---\ntitle: 甲\n---\n\n正文。\n",
	})
	dir, _ := exportTo(t, Request{Source: src, Kind: KindAirGapped})
	b, ctx, must := browserSession(t, bin, 90*time.Second)
	for _, c := range []struct{ page, lang, empty string }{
		{"ja/a.html", "ja", "「<b>qqzz</b>」に一致する結果はありません"},
		{"zh/a.html", "zh-Hans", "未找到“<b>qqzz</b>”的相关结果"},
		{"en/a.html", "en", "No results for “<b>qqzz</b>”"},
		{"ar/a.html", "ar", "لا توجد نتائج لـ «<b>qqzz</b>»"},
	} {
		u := (&url.URL{Scheme: "file", Path: filepath.Join(dir, c.page)}).String()
		must(b.call("Page.navigate", map[string]any{"url": u}, nil))
		must(b.waitFor(ctx, `document.readyState === "complete" && document.documentElement.classList.contains("js") && location.pathname.endsWith("/`+c.page+`")`))
		var lang string
		must(b.eval(`document.documentElement.lang`, &lang))
		if lang != c.lang {
			t.Errorf("%s: lang %q, want %q", c.page, lang, c.lang)
		}
		// A right-to-left page scrolls sideways no more than others do.
		var overflow int
		must(b.eval(`document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth`, &overflow))
		if overflow > 0 {
			t.Errorf("%s: scrolls %dpx sideways", c.page, overflow)
		}
		must(b.eval(`(function () { var i = document.getElementById("search-input"); i.value = "<b>qqzz</b>"; i.dispatchEvent(new Event("input")); })()`, nil))
		must(b.waitFor(ctx, `!!document.querySelector("#search-results .r-empty")`))
		var got string
		must(b.eval(`document.querySelector("#search-results .r-empty").textContent`, &got))
		if got != c.empty {
			t.Errorf("%s: no-results text %q, want %q", c.page, got, c.empty)
		}
	}
}
