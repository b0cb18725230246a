package export

import (
	"strings"
	"testing"
)

// TestExport_remoteLogoAndFavicon: a logo and favicon given as https URLs
// are kept in cloud and client-hosted bundles, on every page and the 404
// page, and left out of an air-gapped one with a warning naming the field
// (the top bar then shows the site's name).
func TestExport_remoteLogoAndFavicon(t *testing.T) {
	src := mapFS(map[string]string{
		"docs.json": `{"name": "Remote Brand", "logo": {"light": "https://cdn.example.com/logo-light.svg", "dark": "https://cdn.example.com/logo-dark.svg"},
			"favicon": "https://cdn.example.com/favicon.png",
			"navigation": {"groups": [{"group": "G", "pages": ["index", "guide/start"]}]}}`,
		"index.mdx":       "---\ntitle: Home\n---\n\nBody.\n",
		"guide/start.mdx": "---\ntitle: Start\n---\n\nBody.\n",
	})
	kept := []string{`<img class="logo logo-light" src="https://cdn.example.com/logo-light.svg"`,
		`<img class="logo logo-dark" src="https://cdn.example.com/logo-dark.svg"`,
		`<link rel="icon" href="https://cdn.example.com/favicon.png">`}
	for _, kind := range []Kind{KindCloud, KindClientHosted, KindAirGapped} {
		t.Run(string(kind), func(t *testing.T) {
			var warnings []string
			dir, _ := exportTo(t, Request{Source: src, Kind: kind, Warn: func(wrn Warning) { m := wrn.Message; warnings = append(warnings, m) }})
			for _, page := range []string{"index.html", "guide/start.html", "404.html"} {
				html := readOut(t, dir, page)
				for _, want := range kept {
					if got := strings.Contains(html, want); got != (kind != KindAirGapped) {
						t.Errorf("%s: has %s = %v", page, want, got)
					}
				}
				if kind == KindAirGapped && !strings.Contains(html, `<span class="brand-name">Remote Brand</span>`) {
					t.Errorf("%s: an air-gapped page without its logo does not show the site's name", page)
				}
			}
			joined := strings.Join(warnings, "\n")
			for _, field := range []string{`the logo "https://cdn.example.com/logo-light.svg" is remote`,
				`the logo "https://cdn.example.com/logo-dark.svg" is remote`, `the favicon "https://cdn.example.com/favicon.png" is remote`} {
				if got := strings.Contains(joined, field); got != (kind == KindAirGapped) {
					t.Errorf("warning %q given = %v; warnings:\n%s", field, got, joined)
				}
			}
		})
	}
}
