package uitext

import (
	"encoding/json"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// Text is the interface language of a page: the language of the
// navigation branch it sits in (navigation.languages), English for a
// site without languages.
type Text struct {
	code  string            // the platform's code ("cn", "pt-BR"), or the code as written when the table lacks it
	table map[string]string // nil when the table lacks the language: every string is English
}

// langAliases are codes authors write for the platform's languages
// (the ISO and BCP 47 ones) in lower case.
var langAliases = map[string]string{"zh": "cn", "zh-cn": "cn", "zh-hans": "cn", "zh-sg": "cn", "ja": "jp", "ja-jp": "jp",
	"zh-tw": "zh-Hant", "zh-hk": "zh-Hant", "zh-hant": "zh-Hant", "pt": "pt-BR", "pt-br": "pt-BR", "nb": "no", "nn": "no",
	"iw": "he", "in": "id", "en-us": "en", "en-gb": "en"}

// htmlLangs are the BCP 47 tags of the platform codes that are not one.
var htmlLangs = map[string]string{"cn": "zh-Hans", "jp": "ja", "no": "nb"}

// For returns the interface language for a code of navigation.languages.
func For(code string) Text {
	c := strings.ReplaceAll(strings.TrimSpace(code), "_", "-")
	if c == "" {
		c = "en"
	}
	if a, ok := langAliases[strings.ToLower(c)]; ok {
		c = a
	}
	for k, table := range uiStrings {
		if strings.EqualFold(k, c) {
			return Text{code: k, table: table}
		}
	}
	return Text{code: c}
}

// Code is the platform's code of the language ("cn", "pt-BR"), or the
// code as written when the table lacks it.
func (u Text) Code() string { return u.code }

// T is the text for key in the page's language, else in English.
func (u Text) T(key string) string {
	if s := u.table[key]; s != "" {
		return s
	}
	return uiStrings["en"][key]
}

// htmlLang is the page's language as <html lang> takes it.
func (u Text) htmlLang() string {
	if l, ok := htmlLangs[u.code]; ok {
		return l
	}
	if !validLangTag(u.code) {
		return "en"
	}
	return u.code
}

// validLangTag reports a string of the shape of a BCP 47 tag: letter
// and digit subtags joined by hyphens.
func validLangTag(s string) bool {
	if s == "" || len(s) > 35 {
		return false
	}
	for _, sub := range strings.Split(s, "-") {
		if sub == "" || len(sub) > 8 {
			return false
		}
		for _, r := range sub {
			if (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (r < '0' || r > '9') {
				return false
			}
		}
	}
	return true
}

// rtl reports a language written right to left.
func (u Text) rtl() bool { return u.code == "ar" || u.code == "he" }

// LanguageName is the name of a language of navigation.languages in
// that language, as the language switcher shows it; a code the platform
// does not list stays as written.
func LanguageName(code string) string {
	if n, ok := languageNames[For(code).code]; ok {
		return n
	}
	return code
}

// HTMLAttrs writes the language attributes of <html>, and for a language
// other than English the texts app.js writes (data-ui, JSON).
func (u Text) HTMLAttrs(b *markup.Builder) {
	b.Attr("lang", u.htmlLang())
	if u.rtl() {
		b.Markup(` dir="rtl"`)
	}
	if u.table == nil || u.code == "en" {
		return
	}
	js := map[string]string{}
	for _, k := range append([]string{"copy", "copied", "noResults", "tab", "filterByTag"}, diagramKeys[:]...) {
		js[k] = u.T(k)
	}
	data, _ := json.Marshal(js) // a map of strings always encodes
	b.Attr("data-ui", string(data))
}

// IsEnglish reports whether the page's interface is English: an English
// page, or a language the table lacks.
func (u Text) IsEnglish() bool { return u.table == nil || u.code == "en" }

// Keys are the keys of the table, in no particular order; English has
// every one.
func Keys() []string {
	ks := make([]string, 0, len(uiStrings["en"]))
	for k := range uiStrings["en"] {
		ks = append(ks, k)
	}
	return ks
}

// Languages are the codes the table has, in no particular order.
func Languages() []string {
	cs := make([]string, 0, len(uiStrings))
	for c := range uiStrings {
		cs = append(cs, c)
	}
	return cs
}
