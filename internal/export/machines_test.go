package export

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMachines_llmsTxt: llms.txt has the site's title and description,
// then the listed pages by navigation group, each linking to a Markdown
// copy that exists; hidden and unlisted pages stay out, and
// llms-full.txt holds each listed copy in reading order.
func TestMachines_llmsTxt(t *testing.T) {
	dir, _ := exportTo(t, Request{Source: fixture(), Kind: KindCloud})
	llms := readOut(t, dir, "llms.txt")
	if !strings.HasPrefix(llms, "# Fixture Docs\n\n> A docs source that uses every supported feature.\n\n## ") {
		t.Errorf("llms.txt does not open with the title, summary and a section:\n%s", llms)
	}
	if !strings.Contains(llms, "- [All components](components.md): Every component the exporter renders.\n") {
		t.Errorf("llms.txt lacks the components page with its description:\n%s", llms)
	}
	links := regexp.MustCompile(`\]\(([^)]+)\)`).FindAllStringSubmatch(llms, -1)
	if len(links) < 4 {
		t.Fatalf("llms.txt lists %d pages", len(links))
	}
	full := readOut(t, dir, "llms-full.txt")
	last := -1
	for _, l := range links {
		md := readOut(t, dir, l[1]) // fails when a link names no file
		at := strings.Index(full, "<!-- Source: "+l[1]+" -->\n\n"+md)
		if at < 0 {
			t.Errorf("llms-full.txt lacks %s", l[1])
		}
		if at < last {
			t.Errorf("llms-full.txt has %s out of the llms.txt order", l[1])
		}
		last = at
	}
	for _, out := range []string{"hidden-page.md", "secret.md", "spaced%20page.md"} {
		if strings.Contains(llms, out) {
			t.Errorf("llms.txt lists %s, which is outside the navigation", out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "hidden-page.md")); err != nil {
		t.Errorf("a hidden page has no Markdown copy: %v", err)
	}
	robots := readOut(t, dir, "robots.txt")
	if !strings.Contains(robots, "User-agent: *\n") || !strings.Contains(robots, "Sitemap: https://docs.example.com/sitemap.xml\n") {
		t.Errorf("robots.txt = %q", robots)
	}
}

// TestMachines_pageMarkdown: a page's copy has its title and
// description, components as Markdown, and links to other pages made
// relative links to their copies; the page's HTML links its copy and
// embeds it for "Copy page".
func TestMachines_pageMarkdown(t *testing.T) {
	dir, _ := exportTo(t, Request{Source: fixture(), Kind: KindCloud})
	md := readOut(t, dir, "components.md")
	for _, want := range []string{"# All components\n\n> Every component the exporter renders.\n",
		"> **Note:**\n>\n> A note with **bold** text.", "**1. First step**", "**[Linked card](nested/child.md)**",
		"`limit` (query, integer, required, default: 10)", "![A pixel](images/pic.png)", `<img src="images/pic.png"`,
		"Literal `<Note>` in code stays text."} {
		if !strings.Contains(md, want) {
			t.Errorf("components.md lacks %q", want)
		}
	}
	for _, bad := range []string{"\n<Note", "<Card", "\nimport ", "{/*"} {
		if strings.Contains(md, bad) {
			t.Errorf("components.md keeps %q", bad)
		}
	}
	child := readOut(t, dir, "nested/child.md")
	html := readOut(t, dir, "nested/child.html")
	if !strings.Contains(html, `<link rel="alternate" type="text/markdown" href="child.md">`) ||
		!strings.Contains(html, `<a class="md-view" type="text/markdown" href="child.md">View as Markdown</a>`) {
		t.Error("the page does not link its Markdown copy")
	}
	esc := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(child)
	if !strings.Contains(html, `<textarea class="md-source" hidden readonly aria-hidden="true" tabindex="-1">`+esc+`</textarea>`) {
		t.Error("the page does not embed its Markdown copy for Copy page")
	}
}

// TestMachines_apiMarkdown: an endpoint page's copy has the method and
// path, parameters, body fields and responses; a spec description's
// remote image keeps only its text.
func TestMachines_apiMarkdown(t *testing.T) {
	dir, _ := exportTo(t, Request{Source: os.DirFS("testdata/apisite"), Kind: KindCloud})
	md := readOut(t, dir, "api-reference/pets/create-a-pet.md")
	for _, want := range []string{"# Create a pet\n", "```http\nPOST /pets\n```", "## Authorization\n\n- `basicAuth` (basic)",
		"## Body\n\n`application/json`", "- `name` (string, required): The pet's name.", "## Responses\n\n### 201\n\nThe pet was created.",
		"### 400", "```json\n{\n  \"id\": 1,"} {
		if !strings.Contains(md, want) {
			t.Errorf("create-a-pet.md lacks %q:\n%s", want, md)
		}
	}
	item := readOut(t, dir, "reference/item.md")
	if !strings.Contains(item, "## Path parameters\n\n- `itemId` (string, required)") {
		t.Errorf("item.md lacks its path parameter:\n%s", item)
	}
	if llms := readOut(t, dir, "llms.txt"); strings.Contains(llms, "hidden-operation") {
		t.Error("llms.txt lists an x-hidden operation")
	}
	src := mapFS(map[string]string{
		"docs.json": `{"navigation": {"tabs": [{"tab": "API", "openapi": "o.json"}]}}`,
		"o.json": `{"openapi": "3.1.0", "paths": {"/a": {"get": {"summary": "A", "description": "See ![pixel](https://tracker.test/p.png) here",
			"responses": {"200": {"description": "ok"}}}}}}`,
	})
	dir, _ = exportTo(t, Request{Source: src, Kind: KindCloud})
	if a := readOut(t, dir, "api-reference/a.md"); strings.Contains(a, "tracker.test") || !strings.Contains(a, "See pixel here") {
		t.Errorf("a spec's remote image in the copy: %s", a)
	}
}

// TestMachines_airGappedMarkdownLoadsNothing: the Markdown copies of an
// air-gapped bundle hold no element or image that would load from
// another server when a viewer renders them.
func TestMachines_airGappedMarkdownLoadsNothing(t *testing.T) {
	dir, _ := exportTo(t, Request{Source: docsRepo(), Kind: KindAirGapped})
	// A Markdown image whose address names another server.
	remoteMDImage := regexp.MustCompile(`!\[([^\]]*)\]\(\s*<?(?:[a-zA-Z][a-zA-Z0-9+.-]*:)?//[^)]*\)`)
	remote := append([]*regexp.Regexp{remoteMDImage}, outbound[:3]...)
	n := 0
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || (filepath.Ext(p) != ".md" && filepath.Base(p) != "llms-full.txt") {
			return err
		}
		n++
		b, err := os.ReadFile(p)
		for _, re := range remote {
			if m := re.Find(b); m != nil {
				t.Errorf("%s: %s", p, m)
			}
		}
		return err
	})
	if err != nil || n < 10 {
		t.Fatalf("walked %d copies: %v", n, err)
	}
}

// TestMachines_seo: seo.metatags reach every page's head, a page's
// frontmatter overrides them; with seo.indexing "navigable" a page
// outside the navigation is kept from search engines, the sitemap and
// llms.txt, with "all" it is not; a bad value warns naming the field.
func TestMachines_seo(t *testing.T) {
	files := func(indexing string) map[string]string {
		return map[string]string{
			"docs.json": `{"name": "S", "seo": {"indexing": "` + indexing + `", "metatags": {"og:site_name": "Site", "google-site-verification": "abc", "bad": {"x": 1}}},
				"navigation": {"pages": ["a", "b"]}}`,
			"a.mdx":     "---\ntitle: A\nog:site_name: Page A\n---\nA.",
			"b.mdx":     "---\ntitle: B\nrobots: noindex\n---\nB.",
			"loose.mdx": "---\ntitle: Loose\n---\nNot in the navigation.",
		}
	}
	var warns []string
	dir, _ := exportTo(t, Request{Source: mapFS(files("navigable")), Kind: KindCloud, Warn: func(wrn Warning) { m := wrn.Message; warns = append(warns, m) }})
	a := readOut(t, dir, "a.html")
	if !strings.Contains(a, `<meta name="google-site-verification" content="abc">`) || !strings.Contains(a, `<meta property="og:site_name" content="Page A">`) ||
		strings.Contains(a, `content="Site"`) || strings.Contains(a, `name="robots"`) {
		t.Errorf("a.html head meta wrong:\n%s", a[:min(len(a), 2000)])
	}
	if !strings.Contains(strings.Join(warns, "\n"), "seo.metatags.bad is not text") {
		t.Errorf("no warning names seo.metatags.bad: %q", warns)
	}
	for _, p := range []string{"b.html", "loose.html"} {
		if h := readOut(t, dir, p); strings.Count(h, `<meta name="robots"`) != 1 || !strings.Contains(h, `<meta name="robots" content="noindex">`) {
			t.Errorf("%s is not kept from search engines exactly once", p)
		}
	}
	sm, llms := readOut(t, dir, "sitemap.xml"), readOut(t, dir, "llms.txt")
	if !strings.Contains(sm, "/a</loc>") || strings.Contains(sm, "/b</loc>") || strings.Contains(sm, "/loose</loc>") {
		t.Errorf("sitemap = %s", sm)
	}
	if !strings.Contains(llms, "(a.md)") || strings.Contains(llms, "b.md") || strings.Contains(llms, "loose.md") {
		t.Errorf("llms.txt = %s", llms)
	}
	dir, _ = exportTo(t, Request{Source: mapFS(files("all")), Kind: KindCloud})
	if h := readOut(t, dir, "loose.html"); strings.Contains(h, `name="robots"`) {
		t.Error(`with seo.indexing "all" a page outside the navigation is kept from search engines`)
	}
	if sm := readOut(t, dir, "sitemap.xml"); !strings.Contains(sm, "/loose</loc>") {
		t.Errorf(`with seo.indexing "all" the sitemap lacks the page outside the navigation: %s`, sm)
	}
	if llms := readOut(t, dir, "llms.txt"); !strings.Contains(llms, "## Other pages\n\n- [Loose](loose.md)") {
		t.Errorf(`with seo.indexing "all" llms.txt lacks the page outside the navigation: %s`, llms)
	}
	warns = nil
	exportTo(t, Request{Source: mapFS(files("everything")), Kind: KindCloud, Warn: func(wrn Warning) { m := wrn.Message; warns = append(warns, m) }})
	if !strings.Contains(strings.Join(warns, "\n"), `seo.indexing is "everything"; want "navigable" or "all"`) {
		t.Errorf("no warning names seo.indexing: %q", warns)
	}
}

// TestMachines_ownFilesWin: a source's own llms.txt and robots.txt are
// shipped instead of the generated ones.
func TestMachines_ownFilesWin(t *testing.T) {
	dir, _ := exportTo(t, Request{Source: mapFS(map[string]string{
		"docs.json": `{"navigation": {"pages": ["a"]}}`, "a.mdx": "A.",
		"llms.txt": "# Mine\n", "robots.txt": "User-agent: *\nDisallow: /\n",
	}), Kind: KindCloud})
	if got := readOut(t, dir, "llms.txt"); got != "# Mine\n" {
		t.Errorf("llms.txt = %q", got)
	}
	if got := readOut(t, dir, "robots.txt"); got != "User-agent: *\nDisallow: /\n" {
		t.Errorf("robots.txt = %q", got)
	}
}
