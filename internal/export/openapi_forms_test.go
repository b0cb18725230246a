package export

import (
	"encoding/json"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/apipages"
)

var tags = regexp.MustCompile(`<[^>]*>`)

// pageText is the text of a page's HTML, as a reader copies it.
func pageText(s string) string { return html.UnescapeString(tags.ReplaceAllString(s, "")) }

// playgroundOf decodes the playground configuration of an endpoint page.
func playgroundOf(t *testing.T, page string) apipages.PlaygroundConfig {
	t.Helper()
	_, rest, ok := strings.Cut(page, `<script type="application/json" class="playground-config">`)
	raw, _, ok2 := strings.Cut(rest, `</script>`)
	if !ok || !ok2 {
		t.Fatal("page has no playground configuration")
	}
	var cfg apipages.PlaygroundConfig
	if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestSamples_formsAndCookies checks that form bodies are sent as forms
// and cookies as cookies in every generated sample, and that the
// playground gets one input per form property.
func TestSamples_formsAndCookies(t *testing.T) {
	dir, _ := exportTo(t, Request{Source: docsRepo(), Kind: KindClientHosted})
	upload := readOut(t, dir, "en/api-reference/pets/upload-a-photo.html")
	wantAll(t, "upload-a-photo", pageText(upload),
		`--form 'photo=@photo.bin'`, `--form 'caption=<caption>'`,
		`files = {"photo": open("photo.bin", "rb")}`, `data = {"caption": "<caption>"}`, `, data=data, files=files, headers=headers)`,
		`const form = new FormData();`, `form.append("photo", fileInput.files[0]); // photo.bin`, `body: form`)
	if strings.Contains(pageText(upload), "Content-Type: multipart/form-data") {
		t.Error("a sample sets the multipart content type by hand, which loses the boundary")
	}
	cfg := playgroundOf(t, upload)
	if len(cfg.Bodies) != 1 || cfg.Bodies[0].Form != "multipart" || len(cfg.Bodies[0].Fields) != 2 ||
		!cfg.Bodies[0].Fields[0].Binary || !cfg.Bodies[0].Fields[0].Required || cfg.Bodies[0].Fields[1].Binary {
		t.Errorf("upload playground bodies = %+v, want a multipart form of a required file and a text field", cfg.Bodies)
	}

	order := readOut(t, dir, "en/api-reference/orders/place-an-order.html")
	cfg = playgroundOf(t, order)
	if len(cfg.Bodies) != 2 || cfg.Bodies[0].Media != "application/json" || cfg.Bodies[0].Example != "{}" ||
		cfg.Bodies[1].Form != "urlencoded" || len(cfg.Bodies[1].Fields) != 2 {
		// The docs repo does not set api.examples.prefill, so the JSON
		// editor starts without the example's values.
		t.Errorf("order playground bodies = %+v, want an empty JSON body then a urlencoded form", cfg.Bodies)
	}

	item := pageText(readOut(t, dir, "en/events/item.html"))
	wantAll(t, "item", item, `--cookie 'sid=<api-key>'`, `cookies = {"sid": "<api-key>"}`, `, cookies=cookies, headers=headers)`,
		`credentials: "include"`, `fetch cannot set it`)
	if strings.Contains(item, "Cookie:") {
		t.Error("the samples send the cookie as a header, which fetch refuses")
	}
}
