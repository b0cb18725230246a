package export

import (
	"strings"
	"sync"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/apipages"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/uitext"

	"github.com/yuin/goldmark"
)

// The leaf packages write no interface text of their own: each takes its
// labels as a value, filled here from the table in the page's language.

// mdxLabels are the labels of code blocks, headings and the MDX
// components.
func mdxLabels(u uitext.Text) mdx.Labels {
	return mdx.Labels{Copy: u.T("copy"), AnchorLink: u.T("anchorLink"),
		Required: u.T("apiRequired"), Deprecated: u.T("deprecated"), Default: u.T("apiDefault"), Colon: u.T("colon"),
		FieldLink: u.T("fieldLink"), ExpandShow: u.T("expandShow"), ExpandHide: u.T("expandHide"), Properties: u.T("expandProperties"),
		RequestExample: u.T("requestExample"), ResponseExample: u.T("responseExample")}
}

// componentLabels are mdxLabels of u's language, for the pages'
// components: the ones the API pages' labels already hold (their Code),
// made once per language.
func componentLabels(u uitext.Text) mdx.Labels { return apiLabels(u).Code }

// apiLabels are the labels of the API pages and their playground, made
// once per language; English pages get apipages.EnglishLabels, so their
// playground carries no texts for the script.
func apiLabels(u uitext.Text) *apipages.Labels {
	if u.IsEnglish() {
		return &apipages.EnglishLabels
	}
	return apiLabelSets()[u.Code()]
}

// apiLabelSets are the API page labels of every language of the table.
var apiLabelSets = sync.OnceValue(func() map[string]*apipages.Labels {
	codes := uitext.Languages()
	m := make(map[string]*apipages.Labels, len(codes))
	for _, code := range codes {
		u := uitext.For(code)
		l := &apipages.Labels{
			Authorizations: u.T("apiAuthorizations"), PathParams: u.T("apiPathParams"), QueryParams: u.T("apiQueryParams"),
			Headers: u.T("apiHeaders"), Cookies: u.T("apiCookies"), Body: u.T("apiBody"), Callbacks: u.T("apiCallbacks"),
			Responses: u.T("apiResponses"), Attributes: u.T("apiAttributes"), Example: u.T("apiExample"),
			Required: u.T("apiRequired"), Deprecated: u.T("deprecated"), ReadOnly: u.T("apiReadOnly"), WriteOnly: u.T("apiWriteOnly"),
			Default: u.T("apiDefault"), ShowChildren: u.T("apiShowChildren"), OneOf: u.T("apiOneOf"), AnyOf: u.T("apiAnyOf"),
			Options: u.T("apiOptions"), Option: u.T("apiOption"), Recursive: u.T("apiRecursive"), TooLarge: u.T("apiTooLarge"),
			Server: u.T("apiServer"), Or: u.T("apiOr"), Expected: u.T("apiExpected"), TryIt: u.T("apiTryIt"), Close: u.T("apiClose"),
			Authorization: u.T("apiAuthorization"), ExampleOf: u.T("apiExampleOf"), Colon: u.T("colon"), Bearer: u.T("apiBearer"), Basic: u.T("apiBasic"),
			Code: mdxLabels(u), Playground: map[string]string{},
		}
		// playground.js reads the table's own keys: its "pg" ones and
		// the reference's labels it shares.
		for _, k := range uitext.Keys() {
			if strings.HasPrefix(k, "pg") || playgroundShared[k] {
				l.Playground[k] = u.T(k)
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
func (e *Engine) markdownIn(u uitext.Text) goldmark.Markdown {
	if u.IsEnglish() {
		return e.md
	}
	if md, ok := markdownByLang.Load(u.Code()); ok {
		return md.(goldmark.Markdown)
	}
	md, _ := markdownByLang.LoadOrStore(u.Code(), mdx.NewMarkdownIn(mdxLabels(u)))
	return md.(goldmark.Markdown)
}

// markdownByLang holds markdownIn's converters by language code.
var markdownByLang sync.Map
