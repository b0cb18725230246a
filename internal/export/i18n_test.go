package export

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// platformLanguages are the codes navigation.languages takes, as the
// platform's navigation documentation lists them.
var platformLanguages = []string{"ar", "ca", "cn", "zh-Hant", "cs", "da", "nl", "en", "fi", "fr", "de", "he", "hi", "hu",
	"id", "it", "jp", "ko", "lv", "no", "pl", "pt-BR", "ro", "ru", "es", "sv", "tr", "uk", "uz", "vi"}

var placeholder = regexp.MustCompile(`\{[a-z]+\}`)

// TestUIStrings_everyLanguageHasEveryKey holds the table to the platform's
// list: every language is there with its own name, and has every key of
// English, no other, none empty, with the same placeholders; and no two
// languages share most of their texts (a copy left untranslated).
func TestUIStrings_everyLanguageHasEveryKey(t *testing.T) {
	en := uiStrings["en"]
	for _, code := range platformLanguages {
		table, ok := uiStrings[code]
		if !ok {
			t.Errorf("%s: not in the table", code)
			continue
		}
		if languageNames[code] == "" {
			t.Errorf("%s: no language name", code)
		}
		for k, v := range en {
			got := table[k]
			if strings.TrimSpace(got) == "" {
				t.Errorf("%s: no %q", code, k)
				continue
			}
			if a, b := placeholder.FindAllString(v, -1), placeholder.FindAllString(got, -1); strings.Join(a, "") != strings.Join(b, "") {
				t.Errorf("%s %q = %q: placeholders %v, want %v", code, k, got, b, a)
			}
		}
		for k := range table {
			if _, ok := en[k]; !ok {
				t.Errorf("%s: key %q that English lacks", code, k)
			}
		}
		if code == "en" {
			continue
		}
		same := 0
		for k, v := range table {
			if v == en[k] {
				same++
			}
		}
		if same > len(en)/3 {
			t.Errorf("%s: %d of %d texts are the English ones", code, same, len(en))
		}
	}
	if len(uiStrings) != len(platformLanguages) || len(languageNames) != len(platformLanguages) {
		t.Errorf("table has %d languages and %d names; the platform lists %d", len(uiStrings), len(languageNames), len(platformLanguages))
	}
}

// TestUIFor_aliasesAndFallback: the ISO codes authors write find the
// platform's languages; a language the table lacks reads English text
// but keeps its own <html lang>.
func TestUIFor_aliasesAndFallback(t *testing.T) {
	for _, c := range []struct{ in, code, lang, onThisPage string }{
		{"jp", "jp", "ja", "このページの内容"},
		{"ja", "jp", "ja", "このページの内容"},
		{"cn", "cn", "zh-Hans", "本页内容"},
		{"zh", "cn", "zh-Hans", "本页内容"},
		{"zh_TW", "zh-Hant", "zh-Hant", "本頁內容"},
		{"PT-br", "pt-BR", "pt-BR", "Nesta página"},
		{"de", "de", "de", "Auf dieser Seite"},
		{"", "en", "en", "On this page"},
		{"xx", "xx", "xx", "On this page"},
		{"tlh-Latn", "tlh-Latn", "tlh-Latn", "On this page"},
		{`x"><script>`, `x"><script>`, "en", "On this page"},
	} {
		u := uiFor(c.in)
		if u.code != c.code || u.htmlLang() != c.lang || u.t("onThisPage") != c.onThisPage {
			t.Errorf("uiFor(%q) = %s, lang %s, %q; want %s, %s, %q", c.in, u.code, u.htmlLang(), u.t("onThisPage"), c.code, c.lang, c.onThisPage)
		}
	}
	partial := uiText{code: "de", table: map[string]string{"copy": "Kopieren"}}
	if partial.t("copy") != "Kopieren" || partial.t("next") != "Next" {
		t.Errorf("a missing key does not fall back to English: %q %q", partial.t("copy"), partial.t("next"))
	}
	if !uiFor("ar").rtl() || !uiFor("he").rtl() || uiFor("fr").rtl() {
		t.Error("right-to-left languages wrong")
	}
	if languageName("ja") != "日本語" || languageName("cn") != "简体中文" || languageName("xx") != "xx" {
		t.Errorf("language names: %q %q %q", languageName("ja"), languageName("cn"), languageName("xx"))
	}
}

// TestExport_translatedInterface exports a site in English, Japanese (as
// "jp"), Chinese (as "zh") and a language the platform does not list:
// each page's frame speaks its branch's language, <html lang> says which,
// the switcher names each language in itself, and the unknown language
// falls back to English.
func TestExport_translatedInterface(t *testing.T) {
	page := func(title string) string {
		return "---\ntitle: " + title + "\n---\n\n## One\n\n```bash\necho hi\n```\n\n## Two\n\nText.\n"
	}
	src := mapFS(map[string]string{
		"docs.json": `{"name": "Multi", "banner": {"content": "News", "dismissible": true}, "navigation": {"languages": [
			{"language": "en", "groups": [{"group": "Start", "pages": ["en/a", "en/b"]}]},
			{"language": "jp", "groups": [{"group": "開始", "pages": ["ja/a", "ja/b"]}]},
			{"language": "zh", "groups": [{"group": "开始", "pages": ["zh/a", "zh/b"]}]},
			{"language": "xx", "groups": [{"group": "Start", "pages": ["xx/a", "xx/b"]}]}]}}`,
		"en/a.mdx": page("A"), "en/b.mdx": page("B"),
		"ja/a.mdx": page("あ"), "ja/b.mdx": page("い"),
		"zh/a.mdx": page("甲"), "zh/b.mdx": page("乙"),
		"xx/a.mdx": page("A"), "xx/b.mdx": page("B"),
	})
	dir, _ := exportTo(t, Request{Source: src})
	for _, c := range []struct {
		page string
		want []string
		not  []string
	}{
		{"ja/a.html", []string{`<html lang="ja" data-ui="`, `placeholder="検索…"`, `aria-label="ドキュメントを検索"`,
			`<p class="toc-title">このページの内容</p>`, `<span>次へ</span>`, `>本文へスキップ</a>`, `aria-label="お知らせ"`, `aria-label="閉じる"`,
			`<button class="copy" type="button">コピー</button>`, `aria-label="このセクションへのリンク"`, `aria-label="メニュー"`,
			`<summary>日本語</summary>`, `>English</a>`, `>简体中文</a>`, `&#34;copied&#34;:&#34;コピーしました&#34;`},
			[]string{"On this page", ">Copy<", "Search…", "<span>Next</span>", `rel="prev"`}}, // no previous into English
		{"ja/b.html", []string{`<span>前へ</span>`}, []string{"<span>Previous</span>", `rel="next"`}}, // no next into Chinese
		{"en/b.html", []string{`rel="prev"`}, []string{`rel="next"`}},
		{"zh/a.html", []string{`<html lang="zh-Hans"`, `placeholder="搜索…"`, `<p class="toc-title">本页内容</p>`, `<span>下一页</span>`,
			`<button class="copy" type="button">复制</button>`, `<summary>简体中文</summary>`},
			[]string{"On this page", ">Copy<"}},
		{"en/a.html", []string{`<html lang="en" data-root=`, `placeholder="Search…"`, `<p class="toc-title">On this page</p>`,
			`<button class="copy" type="button">Copy</button>`, `<summary>English</summary>`, `>日本語</a>`},
			[]string{"data-ui"}},
		{"xx/a.html", []string{`<html lang="xx" data-root=`, `placeholder="Search…"`, `<p class="toc-title">On this page</p>`,
			`<span>Next</span>`, `<summary>xx</summary>`}, []string{"data-ui"}},
		{"404.html", []string{`<html lang="en"`, `<h1>Page not found</h1>`, `Go to the start page</a>`}, nil},
	} {
		html := readOut(t, dir, c.page)
		for _, w := range c.want {
			if !strings.Contains(html, w) {
				t.Errorf("%s lacks %s", c.page, w)
			}
		}
		for _, n := range c.not {
			if strings.Contains(html, n) {
				t.Errorf("%s still has %s", c.page, n)
			}
		}
	}
}

// TestExport_translatedAPIHeadings: the section headings of a generated
// endpoint page, and its table of contents, are in the language of its
// navigation branch; their ids stay, so links to them hold in every
// language.
func TestExport_translatedAPIHeadings(t *testing.T) {
	spec, err := fs.ReadFile(os.DirFS("testdata/apisite/specs"), "shop.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src := mapFS(map[string]string{
		"docs.json": `{"name": "Shop", "navigation": {"languages": [
			{"language": "en", "groups": [{"group": "API", "openapi": "shop.yaml", "pages": ["GET /pets/{petId}"]}]},
			{"language": "ja", "groups": [{"group": "API", "openapi": "shop.yaml", "pages": ["DELETE /pets/{petId}"]}]}]}}`,
		"shop.yaml": string(spec),
	})
	dir, _ := exportTo(t, Request{Source: src})
	var pages []string
	err = filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".html") && strings.Contains(readOut(t, dir, mustRel(t, dir, p)), `<h2 id="path-parameters">`) {
			pages = append(pages, mustRel(t, dir, p))
		}
		return err
	})
	if err != nil || len(pages) != 2 {
		t.Fatalf("endpoint pages %v (%v); want one per language", pages, err)
	}
	for _, page := range pages {
		html := readOut(t, dir, page)
		ja := strings.Contains(html, `<html lang="ja"`)
		want := []string{`<h2 id="path-parameters">Path Parameters<`, `<h2 id="responses">Responses<`}
		if ja {
			want = []string{`<h2 id="path-parameters">パスパラメータ<`, `<h2 id="responses">レスポンス<`}
		}
		// An endpoint page with examples shows them where the contents
		// would be; one without keeps the contents, translated.
		if strings.Contains(html, `class="toc"`) {
			want = append(want, map[bool]string{false: `<a href="#responses">Responses</a>`, true: `<a href="#responses">レスポンス</a>`}[ja])
		}
		for _, w := range want {
			if !strings.Contains(html, w) {
				t.Errorf("%s (ja %v) lacks %s", page, ja, w)
			}
		}
	}
}

func mustRel(t *testing.T, dir, p string) string {
	t.Helper()
	r, err := filepath.Rel(dir, p)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.ToSlash(r)
}
