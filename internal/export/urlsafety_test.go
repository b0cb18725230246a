package export

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// urlAttrs finds every URL-bearing attribute a page writes, and a meta
// refresh target.
var urlAttrs = regexp.MustCompile(`(?i)(?:href|src|poster|action|formaction|url)\s*=\s*"?([^"> ]*)`)

// TestExport_everyURLFieldRefusesJavascript feeds every URL-taking field of
// docs.json, of a component and of a file name a javascript: value (in
// mixed case too) and a path whose first segment holds a colon, and checks
// that no page of any kind links to a script URL, that each refusal is a
// warning naming its field, and that the colon paths still work as links.
func TestExport_everyURLFieldRefusesJavascript(t *testing.T) {
	const bad = "JaVaScRiPt:alert(document.domain)"
	src := mapFS(map[string]string{
		"docs.json": `{"name": "Safe", "logo": "javascript:alert(1)", "favicon": "javascript:alert(2)",
			"navbar": {"links": [{"label": "Evil", "href": "` + bad + `"}, {"label": "Ratio", "href": "/v1:ratio"}],
			           "primary": {"type": "button", "label": "Go", "href": "javascript:alert(3)"}},
			"footer": {"socials": {"github": "javascript:alert(4)", "x": "data:text/html,hi"},
			           "links": [{"header": "More", "items": [{"label": "Bad", "href": "vbscript:msgbox(5)"}]}]},
			"redirects": [{"source": "/old", "destination": "javascript:alert(6)"}, {"source": "/older", "destination": "/v1:ratio"}],
			"navigation": {"global": {"anchors": [{"anchor": "Out", "href": "javascript:alert(7)"}]},
			  "tabs": [{"tab": "Docs", "groups": [{"group": "G", "pages": ["index", "v1:ratio", "javascript:alert(8)"]}]},
			           {"tab": "Evil tab", "href": "javascript:alert(9)"}]}}`,
		"index.mdx":               "---\ntitle: Home\n---\n\n<Card title=\"c\" href=\"javascript:alert(10)\" img=\"javascript:alert(11)\">x</Card>\n\nSee [ratio](/v1:ratio).\n",
		"v1:ratio.mdx":            "---\ntitle: Ratio\n---\n\nBody.\n",
		"javascript:alert(8).mdx": "---\ntitle: Named badly\n---\n\nBody.\n",
	})
	for _, kind := range []Kind{KindCloud, KindClientHosted, KindAirGapped} {
		t.Run(string(kind), func(t *testing.T) {
			var warnings []string
			dir, _ := exportTo(t, Request{Source: src, Kind: kind, Warn: func(wrn Warning) { m := wrn.Message; warnings = append(warnings, m) }})
			err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
					return err
				}
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				for _, m := range urlAttrs.FindAllStringSubmatch(string(b), -1) {
					ref := strings.ToLower(m[1])
					if strings.HasPrefix(ref, "javascript:") || strings.HasPrefix(ref, "vbscript:") || strings.HasPrefix(ref, "data:text") ||
						strings.HasPrefix(ref, "v1:") {
						t.Errorf("%s: unsafe reference %q", filepath.Base(p), m[1])
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			index := readOut(t, dir, "index.html")
			for _, want := range []string{`href="./v1:ratio.html"`, `href="./javascript:alert%288%29.html"`} {
				if !strings.Contains(index, want) {
					t.Errorf("index.html lacks %s", want)
				}
			}
			if older := readOut(t, dir, "older.html"); !strings.Contains(older, `url=./v1:ratio.html"`) {
				t.Errorf("redirect to a colon path is not made safe:\n%s", older)
			}
			joined := strings.Join(warnings, "\n")
			for _, field := range []string{`navbar link "Evil"`, `navbar link "Go"`, `footer social "github"`, `footer social "x"`,
				`footer link "Bad"`, `redirect "/old"`, `anchor "Out" href`, `tab "Evil tab" href`, `logo "javascript:alert(1)"`, `favicon "javascript:alert(2)"`} {
				if !strings.Contains(joined, field) {
					t.Errorf("no warning names %s; warnings:\n%s", field, joined)
				}
			}
		})
	}
}
