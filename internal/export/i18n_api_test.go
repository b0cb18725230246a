package export

import (
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/apipages"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/uitext"
)

// TestAPILabels_everyFieldInEveryLanguage: the labels the facade gives
// the API pages are filled in every language of the table, none left
// empty, and in a language other than English they are its own, down to
// the playground's texts.
func TestAPILabels_everyFieldInEveryLanguage(t *testing.T) {
	for _, code := range uitext.Languages() {
		l := apiLabels(uitext.For(code))
		v := reflect.ValueOf(*l)
		for i := 0; i < v.NumField(); i++ {
			if f := v.Field(i); f.Kind() == reflect.String && strings.TrimSpace(f.String()) == "" {
				t.Errorf("%s: %s is empty", code, v.Type().Field(i).Name)
			}
		}
		if l.Code.Copy == "" || l.Code.AnchorLink == "" {
			t.Errorf("%s: code labels %+v", code, l.Code)
		}
		if code == "en" {
			if l != &apipages.EnglishLabels || l.Playground != nil {
				t.Errorf("en: not the English labels, or playground texts %v on an English page", l.Playground)
			}
			continue
		}
		for _, k := range []string{"pgSend", "pgCookieNote", "pgFailed", "apiServer", "apiTryIt"} {
			// "Send" and "Server" are Danish and Dutch too; the sentences
			// are each language's own.
			if l.Playground[k] == "" || l.Playground[k] == uitext.For("en").T(k) && (k == "pgCookieNote" || k == "pgFailed") {
				t.Errorf("%s: playground text %q is %q", code, k, l.Playground[k])
			}
		}
	}
	// The English labels of the package are the table's English.
	en := apipages.EnglishLabels
	for k, want := range map[string]string{"apiRequired": en.Required, "apiShowChildren": en.ShowChildren, "apiRecursive": en.Recursive,
		"apiTryIt": en.TryIt, "apiBearer": en.Bearer, "copy": en.Code.Copy, "anchorLink": en.Code.AnchorLink, "colon": en.Colon} {
		if uitext.For("en").T(k) != want {
			t.Errorf("en %q: table %q, apipages %q", k, uitext.For("en").T(k), want)
		}
	}
}

// apiLangSite is one OpenAPI spec documented in English, Japanese and
// Chinese, with the playground.
func apiLangSite(t *testing.T) string {
	t.Helper()
	spec := readOut(t, "testdata/apisite/specs", "shop.yaml")
	src := mapFS(map[string]string{
		"docs.json": `{"name": "Shop", "navigation": {"languages": [
			{"language": "en", "groups": [{"group": "API", "openapi": "shop.yaml", "pages": ["GET /pets"]}]},
			{"language": "ja", "groups": [{"group": "API", "openapi": "shop.yaml", "pages": ["POST /pets"]}]},
			{"language": "cn", "groups": [{"group": "API", "openapi": "shop.yaml", "pages": ["GET /pets/{petId}"]}]}]}}`,
		"shop.yaml": spec,
	})
	dir, _ := exportTo(t, Request{Source: src, Features: []string{"playground"}})
	return dir
}

// apiPageOf is the endpoint page of dir whose <html lang> is lang.
func apiPageOf(t *testing.T, dir, lang string) string {
	t.Helper()
	var found string
	err := filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".html") {
			rel := mustRel(t, dir, p)
			if html := readOut(t, dir, rel); strings.Contains(html, `<html lang="`+lang+`"`) && strings.Contains(html, `class="playground"`) {
				found = rel
			}
		}
		return err
	})
	if err != nil || found == "" {
		t.Fatalf("no %s endpoint page with a playground (%v)", lang, err)
	}
	return found
}

// TestExport_translatedAPILabels: an endpoint page's labels (pills,
// notes, the server picker, the Try it dialog, code copy buttons,
// heading links) are in the language of its branch, and its playground
// carries the script's texts in that language; the English page carries
// none and reads as before.
func TestExport_translatedAPILabels(t *testing.T) {
	dir := apiLangSite(t)
	for _, c := range []struct {
		lang      string
		want, not []string
	}{
		{"ja", []string{`<span class="field-required">必須</span>`, `<label class="api-servers">サーバー <select`,
			`id="try-it-title">試してみる</p>`, `class="pg-close" type="button" aria-label="閉じる"`, `<button class="copy" type="button">コピー</button>`,
			`aria-label="このセクションへのリンク"`, `"text":{`, `"pgSend":"送信"`,
			`"apiServer":"サーバー"`, `>ページをコピー</button>`, `>Markdown で表示</a>`},
			[]string{">required<", ">Try it<", ">Copy<", "Link to this section", ">Copy page<"}},
		{"zh-Hans", []string{`<span class="field-required">必填</span>`, `id="try-it-title">试一试</p>`, `<button class="copy" type="button">复制</button>`, `<p class="api-or">或</p>`, `Bearer 认证请求头，格式为 <code>Bearer &lt;token&gt;</code>。`,
			`"pgSend":"发送"`, `"pgCookieNote":"浏览器不允许`},
			[]string{">required<", ">Try it<", ">Copy<"}},
		{"en", []string{`<span class="field-required">required</span>`, `id="try-it-title">Try it</p>`, `<button class="copy" type="button">Copy</button>`,
			`aria-label="Link to this section"`, `>Copy page</button>`},
			[]string{`"text":{`}},
	} {
		page := apiPageOf(t, dir, c.lang)
		html := readOut(t, dir, page)
		for _, w := range c.want {
			if !strings.Contains(html, strings.ReplaceAll(w, `"`, "&#34;")) && !strings.Contains(html, w) {
				t.Errorf("%s (%s) lacks %s", page, c.lang, w)
			}
		}
		for _, n := range c.not {
			if strings.Contains(html, n) {
				t.Errorf("%s (%s) still has %s", page, c.lang, n)
			}
		}
	}
}

// TestBrowser_translatedPlayground opens the Japanese endpoint page from
// file:// and its Try it dialog: the button, the labels the script
// writes and its message for a server that is not a URL are Japanese;
// the English page's are English.
func TestBrowser_translatedPlayground(t *testing.T) {
	bin := chromium(t)
	dir := apiLangSite(t)
	b, ctx, must := browserSession(t, bin, 90*time.Second)
	for _, c := range []struct {
		lang                           string
		button, server, send, relative string
	}{
		{"ja", "試してみる", "サーバー", "送信", "サーバー URL は絶対 URL（http:// または https://）である必要があります: /pets"},
		{"en", "Try it", "Server", "Send", "The server URL must be absolute (http:// or https://): /pets"},
	} {
		page := apiPageOf(t, dir, c.lang)
		u := (&url.URL{Scheme: "file", Path: filepath.Join(dir, page)}).String()
		must(b.call("Page.navigate", map[string]any{"url": u}, nil))
		must(b.waitFor(ctx, `document.readyState === "complete" && location.pathname.endsWith("/`+page+`") && !!document.querySelector(".playground .send")`))
		var got struct{ Button, Server, Send string }
		must(b.eval(`({Button: document.querySelector(".try-it").textContent,
			Server: document.querySelector(".pg-form label span").firstChild.textContent,
			Send: document.querySelector(".playground .send").textContent})`, &got))
		if got.Button != c.button || got.Server != c.server || got.Send != c.send {
			t.Errorf("%s: button %q, server label %q, send %q; want %q, %q, %q", page, got.Button, got.Server, got.Send, c.button, c.server, c.send)
		}
		must(openTryIt(ctx, b))
		// Sending without a server says, in the page's language, that
		// the request needs an absolute URL.
		must(b.eval(`(function () {
			document.querySelectorAll(".playground input.pg-param").forEach(function (i) { i.value = "1"; });
			document.querySelector(".playground .pg-server").value = "";
			document.querySelector(".playground .send").click(); })()`, nil))
		must(b.waitFor(ctx, `!!document.querySelector(".playground .pg-error")`))
		var msg string
		must(b.eval(`document.querySelector(".playground .pg-error").textContent`, &msg))
		if !strings.HasPrefix(msg, c.relative) {
			t.Errorf("%s: message %q, want it to start %q", page, msg, c.relative)
		}
	}
}
