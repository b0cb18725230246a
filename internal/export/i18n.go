package export

import (
	"encoding/json"
	"strings"
	"sync"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/apipages"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"

	"github.com/yuin/goldmark"
)

// uiText is the interface language of a page: the language of the
// navigation branch it sits in (navigation.languages), English for a
// site without languages.
type uiText struct {
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

// uiFor returns the interface language for a code of navigation.languages.
func uiFor(code string) uiText {
	c := strings.ReplaceAll(strings.TrimSpace(code), "_", "-")
	if c == "" {
		c = "en"
	}
	if a, ok := langAliases[strings.ToLower(c)]; ok {
		c = a
	}
	for k, table := range uiStrings {
		if strings.EqualFold(k, c) {
			return uiText{code: k, table: table}
		}
	}
	return uiText{code: c}
}

// t is the text for key in the page's language, else in English.
func (u uiText) t(key string) string {
	if s := u.table[key]; s != "" {
		return s
	}
	return uiStrings["en"][key]
}

// htmlLang is the page's language as <html lang> takes it.
func (u uiText) htmlLang() string {
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
func (u uiText) rtl() bool { return u.code == "ar" || u.code == "he" }

// languageName is the name of a language of navigation.languages in
// that language, as the language switcher shows it; a code the platform
// does not list stays as written.
func languageName(code string) string {
	if n, ok := languageNames[uiFor(code).code]; ok {
		return n
	}
	return code
}

// ui is the interface language of the pages of section s.
func (f *frame) ui(s *division) uiText {
	for d := s; d != nil; d = d.parent {
		if d.kind == "language" {
			return uiFor(d.lang)
		}
	}
	return uiFor("en")
}

// htmlAttrs writes the language attributes of <html>, and for a language
// other than English the texts app.js writes (data-ui, JSON).
func (u uiText) htmlAttrs(b *markup.Builder) {
	b.Attr("lang", u.htmlLang())
	if u.rtl() {
		b.Markup(` dir="rtl"`)
	}
	if u.table == nil || u.code == "en" {
		return
	}
	js := map[string]string{}
	for _, k := range []string{"copy", "copied", "noResults", "tab"} {
		js[k] = u.t(k)
	}
	data, _ := json.Marshal(js) // a map of strings always encodes
	b.Attr("data-ui", string(data))
}

// The leaf packages write no interface text of their own: each takes its
// labels as a value, filled here from the table in the page's language.

// mdxLabels are the labels of code blocks and headings.
func (u uiText) mdxLabels() mdx.Labels {
	return mdx.Labels{Copy: u.t("copy"), AnchorLink: u.t("anchorLink")}
}

// apiLabels are the labels of the API pages and their playground, made
// once per language; English pages get apipages.EnglishLabels, so their
// playground carries no texts for the script.
func (u uiText) apiLabels() *apipages.Labels {
	if u.table == nil || u.code == "en" {
		return &apipages.EnglishLabels
	}
	return apiLabelSets()[u.code]
}

// apiLabelSets are the API page labels of every language of the table.
var apiLabelSets = sync.OnceValue(func() map[string]*apipages.Labels {
	m := make(map[string]*apipages.Labels, len(uiStrings))
	for code := range uiStrings {
		u := uiFor(code)
		l := &apipages.Labels{
			Authorizations: u.t("apiAuthorizations"), PathParams: u.t("apiPathParams"), QueryParams: u.t("apiQueryParams"),
			Headers: u.t("apiHeaders"), Cookies: u.t("apiCookies"), Body: u.t("apiBody"), Callbacks: u.t("apiCallbacks"),
			Responses: u.t("apiResponses"), Attributes: u.t("apiAttributes"), Example: u.t("apiExample"),
			Required: u.t("apiRequired"), Deprecated: u.t("deprecated"), ReadOnly: u.t("apiReadOnly"), WriteOnly: u.t("apiWriteOnly"),
			Default: u.t("apiDefault"), ShowChildren: u.t("apiShowChildren"), OneOf: u.t("apiOneOf"), AnyOf: u.t("apiAnyOf"),
			Options: u.t("apiOptions"), Option: u.t("apiOption"), Recursive: u.t("apiRecursive"), TooLarge: u.t("apiTooLarge"),
			Server: u.t("apiServer"), Or: u.t("apiOr"), Expected: u.t("apiExpected"), TryIt: u.t("apiTryIt"), Close: u.t("apiClose"),
			Authorization: u.t("apiAuthorization"), ExampleOf: u.t("apiExampleOf"), Colon: u.t("colon"), Bearer: u.t("apiBearer"), Basic: u.t("apiBasic"),
			Code: u.mdxLabels(), Playground: map[string]string{},
		}
		// playground.js reads the table's own keys: its "pg" ones and
		// the reference's labels it shares.
		for k := range uiStrings["en"] {
			if strings.HasPrefix(k, "pg") || playgroundShared[k] {
				l.Playground[k] = u.t(k)
			}
		}
		m[code] = l
	}
	return m
})

// playgroundShared are the keys outside "pg" that playground.js writes.
var playgroundShared = map[string]bool{"apiServer": true, "apiBody": true, "apiHeaders": true, "apiRequired": true, "apiTryIt": true}

// markdownIn is the goldmark converter of the pages in language u: its
// code blocks and headings carry u's labels. Converters are made once
// per language and shared, as e.md is.
func (e *Engine) markdownIn(u uiText) goldmark.Markdown {
	if u.table == nil || u.code == "en" {
		return e.md
	}
	if md, ok := markdownByLang.Load(u.code); ok {
		return md.(goldmark.Markdown)
	}
	md, _ := markdownByLang.LoadOrStore(u.code, mdx.NewMarkdownIn(u.mdxLabels()))
	return md.(goldmark.Markdown)
}

// markdownByLang holds markdownIn's converters by language code.
var markdownByLang sync.Map
