package export

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
