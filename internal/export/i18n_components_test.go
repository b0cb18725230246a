package export

import (
	"strings"
	"testing"
)

// TestExport_translatedComponents: the texts the MDX components write (a
// field's pills and link, an Expandable's summary, the examples' titles)
// are in the language of the page's navigation branch, in a snippet the
// page imports too, and English pages keep English.
func TestExport_translatedComponents(t *testing.T) {
	page := "---\ntitle: P\n---\n\nimport Shared from '/snippets/shared.mdx'\n\n" +
		"<ParamField body=\"user\" type=\"object\" required deprecated default=\"none\">\n  The user.\n  <Expandable>\n" +
		"    <ParamField body=\"id\" type=\"string\">Its id.</ParamField>\n  </Expandable>\n</ParamField>\n\n" +
		"<Expandable title=\"options\" defaultOpen>\n  Text.\n</Expandable>\n\n" +
		"<RequestExample>\n\n```bash\ncurl /u\n```\n\n</RequestExample>\n\n<ResponseExample>\n\n```json\n{}\n```\n\n</ResponseExample>\n\n" +
		"<Shared />\n"
	src := mapFS(map[string]string{
		"docs.json": `{"name": "Multi", "navigation": {"languages": [
			{"language": "en", "groups": [{"group": "Start", "pages": ["en/a"]}]},
			{"language": "jp", "groups": [{"group": "開始", "pages": ["ja/a"]}]},
			{"language": "fr", "groups": [{"group": "Début", "pages": ["fr/a"]}]}]}}`,
		"snippets/shared.mdx": "<ParamField query=\"limit\" required>How many.</ParamField>\n",
		"en/a.mdx":            page, "ja/a.mdx": page, "fr/a.mdx": page,
	})
	dir, _ := exportTo(t, Request{Source: src})
	english := []string{`>required<`, `>deprecated<`, `>default: <`, `Show properties`, `Hide properties`, `Show options`,
		`>Request example<`, `>Response example<`, `aria-label="Link to user"`}
	for _, c := range []struct {
		page string
		want []string
	}{
		{"ja/a.html", []string{`<span class="field-required">必須</span>`, `<span class="field-deprecated">非推奨</span>`,
			`<span class="field-default">デフォルト: <code>none</code>`,
			`<span class="expand-show">プロパティを表示</span><span class="expand-hide">プロパティを非表示</span>`,
			`<span class="expand-show">optionsを表示</span>`,
			`<p class="example-title">リクエスト例</p>`, `<p class="example-title">レスポンス例</p>`,
			`aria-label="user へのリンク"`, `aria-label="limit へのリンク"`}},
		{"fr/a.html", []string{`<span class="field-required">obligatoire</span>`, `<span class="field-deprecated">obsolète</span>`,
			`<span class="field-default">par défaut : <code>none</code>`,
			`<span class="expand-show">Afficher les propriétés</span><span class="expand-hide">Masquer les propriétés</span>`,
			`<span class="expand-show">Afficher options</span>`,
			`<p class="example-title">Exemple de requête</p>`, `<p class="example-title">Exemple de réponse</p>`, //nolint:misspell // French
			`aria-label="Lien vers user"`, `aria-label="Lien vers limit"`}},
		{"en/a.html", english},
	} {
		html := readOut(t, dir, c.page)
		for _, w := range c.want {
			if !strings.Contains(html, w) {
				t.Errorf("%s lacks %s", c.page, w)
			}
		}
		if c.page == "en/a.html" {
			continue
		}
		for _, n := range english {
			if strings.Contains(html, n) {
				t.Errorf("%s still has the English %s", c.page, n)
			}
		}
	}
}
