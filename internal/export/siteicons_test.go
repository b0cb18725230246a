package export

import (
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/icons"
)

// TestExport_iconsTopBarAndFooter: a navbar link's icon (by name, in the
// object form from another library, as an image), the primary button's
// site mark ("github") and each footer social's brand mark are drawn
// before their text; a social with a key that names no mark keeps its
// name as text, and each unknown name is warned about once, however many
// pages show it.
func TestExport_iconsTopBarAndFooter(t *testing.T) {
	var warns []string
	src := mapFS(map[string]string{
		"docs.json": `{"name": "Bar", "navigation": {"pages": ["index", "two"]},
			"navbar": {"links": [
				{"label": "Blog", "href": "https://blog.example.com", "icon": "newspaper"},
				{"label": "Notes", "href": "/two", "icon": {"name": "notebook-text", "library": "lucide"}},
				{"label": "Logo", "href": "/two", "icon": "/images/mark.svg"},
				{"label": "Oops", "href": "/two", "icon": "no-such-navbar-icon"},
				{"label": "Plain", "href": "/two"}],
				"primary": {"type": "github", "href": "https://github.com/acme/docs"}},
			"footer": {"socials": {"x": "https://x.com/acme", "github": "https://github.com/acme", "website": "https://acme.example",
				"linkedin": "https://linkedin.com/company/acme", "myspace": "https://myspace.example/acme"}}}`,
		"index.mdx":       "---\ntitle: One\n---\n\nText.\n",
		"two.mdx":         "---\ntitle: Two\n---\n\nText.\n",
		"images/mark.svg": `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>`,
	})
	dir, _ := exportTo(t, Request{Source: src, Kind: KindCloud, Warn: func(wrn Warning) { s := wrn.Message; warns = append(warns, s) }})
	for _, page := range []string{"index.html", "two.html"} {
		html := readOut(t, dir, page)
		wantAll(t, page, html,
			`<a href="https://blog.example.com">`+faIcon("newspaper")+`Blog</a>`,
			`<a href="two.html">`+drawn(icons.Lucide, "notebook-text", "")+`Notes</a>`,
			`<a href="two.html"><img class="i" src="images/mark.svg" alt="">Logo</a>`,
			`<a href="two.html">Oops</a>`,
			`<a href="two.html">Plain</a>`,
			`<a href="https://github.com/acme/docs">`+drawn(icons.FontAwesome, "github", "brands")+`GitHub</a>`,
			`<a href="https://x.com/acme" rel="me">`+drawn(icons.FontAwesome, "x-twitter", "brands")+`<span class="sr-only">X</span></a>`,
			`<a href="https://github.com/acme" rel="me">`+drawn(icons.FontAwesome, "github", "brands")+`<span class="sr-only">GitHub</span></a>`,
			`<a href="https://acme.example" rel="me">`+drawn(icons.FontAwesome, "earth-americas", "")+`<span class="sr-only">Website</span></a>`,
			`<a href="https://linkedin.com/company/acme" rel="me">`+drawn(icons.FontAwesome, "linkedin", "brands")+`<span class="sr-only">LinkedIn</span></a>`,
			`<a href="https://myspace.example/acme" rel="me">Myspace</a>`,
		)
	}
	all := strings.Join(warns, "\n")
	for _, w := range []string{
		`icon "no-such-navbar-icon" is not in Font Awesome Free (@fortawesome/fontawesome-free@7.3.1); drawn as nothing at docs.json navbar link "Oops"`,
		`icon "myspace" is not in Font Awesome Free (@fortawesome/fontawesome-free@7.3.1); drawn as nothing at docs.json footer.socials`,
	} {
		if strings.Count(all, w) != 1 {
			t.Errorf("want once: %s\nin\n%s", w, all)
		}
	}
}
