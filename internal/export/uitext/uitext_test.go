package uitext

import (
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
		u := For(c.in)
		if u.code != c.code || u.htmlLang() != c.lang || u.T("onThisPage") != c.onThisPage {
			t.Errorf("For(%q) = %s, lang %s, %q; want %s, %s, %q", c.in, u.code, u.htmlLang(), u.T("onThisPage"), c.code, c.lang, c.onThisPage)
		}
	}
	partial := Text{code: "de", table: map[string]string{"copy": "Kopieren"}}
	if partial.T("copy") != "Kopieren" || partial.T("next") != "Next" {
		t.Errorf("a missing key does not fall back to English: %q %q", partial.T("copy"), partial.T("next"))
	}
	if !For("ar").rtl() || !For("he").rtl() || For("fr").rtl() {
		t.Error("right-to-left languages wrong")
	}
	if LanguageName("ja") != "日本語" || LanguageName("cn") != "简体中文" || LanguageName("xx") != "xx" {
		t.Errorf("language names: %q %q %q", LanguageName("ja"), LanguageName("cn"), LanguageName("xx"))
	}
}
