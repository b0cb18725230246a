package export

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func mdxPage(title string, extra ...string) *fstest.MapFile {
	return &fstest.MapFile{Data: []byte("---\ntitle: " + title + "\n" + strings.Join(extra, "\n") + "\n---\nBody of " + title + ".\n")}
}

// TestNavigation_languagesAndHidden covers the navigation levels the
// fixture does not: languages, hidden pages and groups, and pages that
// exist only on disk.
func TestNavigation_languagesAndHidden(t *testing.T) {
	src := fstest.MapFS{
		"docs.json": {Data: []byte(`{"name": "Multi", "navigation": {"languages": [
			{"language": "en", "groups": [
				{"group": "Guide", "pages": ["en/a", "en/secret", "/en/b"]},
				{"group": "Internal", "hidden": true, "pages": ["en/internal"]}]},
			{"language": "fr", "groups": [{"group": "Guide", "pages": ["fr/a"]}]}
		]}}`)},
		"en/a.mdx":        mdxPage("Alpha"),
		"en/b.md":         mdxPage("Beta", "sidebarTitle: B short"),
		"en/secret.mdx":   mdxPage("Secret", "hidden: true"),
		"en/internal.mdx": mdxPage("Internal"),
		"fr/a.mdx":        mdxPage("Alpha FR"),
		"orphan.mdx":      mdxPage("Orphan"),
		"snippets/s.mdx":  mdxPage("Not a page"),
	}
	dir, m := exportTo(t, Request{Source: src})
	if m.PageCount != 6 {
		t.Errorf("pageCount = %d, want 6 (snippets are not pages)", m.PageCount)
	}
	a := readOut(t, dir, "en/a.html")
	for _, want := range []string{
		`<details class="switch switch-language"><summary>English</summary>`,
		`<a href="../fr/a.html">Français</a>`,
		`<a href="../en/b.html">B short</a>`,
		`<a class="next" rel="next" href="../en/b.html">`,
	} {
		if !strings.Contains(a, want) {
			t.Errorf("en/a.html lacks %s", want)
		}
	}
	for _, hidden := range []string{`en/secret.html">`, `en/internal.html">`, `Internal</p>`} {
		if strings.Contains(a, hidden) {
			t.Errorf("en/a.html shows hidden navigation entry %s", hidden)
		}
	}
	orphan := readOut(t, dir, "orphan.html")
	if !strings.Contains(orphan, "Body of Orphan") || strings.Contains(readOut(t, dir, "sitemap.xml"), "orphan") {
		t.Error("a page outside the navigation must be exported but left out of the sitemap")
	}
	if !strings.Contains(readOut(t, dir, "index.html"), `url=en/a.html`) {
		t.Error("index.html does not send readers to the first page")
	}
}

func TestNavigation_noNavigationListsEveryPage(t *testing.T) {
	src := fstest.MapFS{
		"docs.json": {Data: []byte(`{"name": "Plain"}`)},
		"b.md":      mdxPage("Bee"),
		"a.md":      mdxPage("Ay"),
		"index.md":  mdxPage("Home"),
	}
	dir, _ := exportTo(t, Request{Source: src})
	home := readOut(t, dir, "index.html")
	for _, want := range []string{`<a href="index.html" aria-current="page">Home</a>`, `<a href="a.html">Ay</a>`, `<a class="next" rel="next" href="a.html">`} {
		if !strings.Contains(home, want) {
			t.Errorf("index.html lacks %s", want)
		}
	}
	if !strings.Contains(readOut(t, dir, "sitemap.xml"), "https://docs.example.com/b</loc>") {
		t.Error("pages of a source without navigation are listed pages and belong in the sitemap")
	}
}

// TestExport_pagesDifferingByCaseOrNormalization: Guide.mdx and guide.mdx,
// and café.mdx written composed and decomposed, would overwrite each other
// when a bundle is unpacked on macOS or Windows. One of each set is kept,
// the same one whatever order the files are read in, with a warning.
func TestExport_pagesDifferingByCaseOrNormalization(t *testing.T) {
	const nfc, nfd = "caf\u00e9", "cafe\u0301"
	src := mapFS(map[string]string{
		"docs.json":  `{"navigation": {"pages": ["index", "Guide", "guide", "` + nfc + `", "` + nfd + `"]}}`,
		"index.mdx":  mdxBody("Home"),
		"Guide.mdx":  mdxBody("Upper"),
		"guide.mdx":  mdxBody("Lower"),
		nfc + ".mdx": mdxBody("Composed"),
		nfd + ".mdx": mdxBody("Decomposed"),
	})
	for range 3 {
		var warnings []string
		_, m := exportTo(t, Request{Source: src, Kind: KindCloud, Warn: func(wrn Warning) { s := wrn.Message; warnings = append(warnings, s) }})
		var html []string
		for _, f := range m.Files {
			if strings.HasSuffix(f.Path, ".html") && f.Path != "404.html" {
				html = append(html, f.Path)
			}
		}
		slices.Sort(html)
		if want := []string{"Guide.html", nfc + ".html", "index.html"}; !slices.Equal(html, want) {
			t.Fatalf("pages %q, want %q", html, want)
		}
		joined := strings.Join(warnings, "\n")
		for _, w := range []string{"Guide.mdx and guide.mdx differ only by case", nfc + ".mdx and " + nfd + ".mdx differ only by case or Unicode normalization"} {
			if !strings.Contains(joined, w) {
				t.Errorf("no warning %q in %q", w, warnings)
			}
		}
	}
}

func mdxBody(title string) string { return "---\ntitle: " + title + "\n---\n\nBody.\n" }

// TestNavigation_drilldown: with interaction.drilldown true the title of
// a nested group leads to its first page (a hidden one skipped, a root
// page first), where the group is open; without it a group only expands.
// No warning names the setting it honours; another key of interaction is
// named.
func TestNavigation_drilldown(t *testing.T) {
	nav := `"navigation": {"groups": [{"group": "Guide", "pages": ["intro",
		{"group": "Boats", "pages": ["boats/secret", {"group": "Sails", "pages": ["boats/sails"]}, "boats/hulls"]},
		{"group": "Crew", "root": "crew/index", "pages": ["crew/roles"]}]}]}`
	src := func(interaction string) fstest.MapFS {
		return fstest.MapFS{
			"docs.json":        {Data: []byte(`{"name": "Drill", ` + interaction + nav + `}`)},
			"intro.mdx":        mdxPage("Intro"),
			"boats/secret.mdx": mdxPage("Secret", "hidden: true"),
			"boats/sails.mdx":  mdxPage("Sails"),
			"boats/hulls.mdx":  mdxPage("Hulls"),
			"crew/index.mdx":   mdxPage("Crew"),
			"crew/roles.mdx":   mdxPage("Roles"),
		}
	}
	var warns []string
	dir, _ := exportTo(t, Request{Source: src(`"interaction": {"drilldown": true, "tooltips": 1}, `), Warn: func(wrn Warning) { m := wrn.Message; warns = append(warns, m) }})
	intro := readOut(t, dir, "intro.html")
	for _, want := range []string{
		`<summary><a class="nav-drill" href="boats/sails.html">Boats</a></summary>`,
		`<summary><a class="nav-drill" href="boats/sails.html">Sails</a></summary>`,
		`<summary><a class="nav-drill" href="crew/index.html">Crew</a></summary>`,
	} {
		if !strings.Contains(intro, want) {
			t.Errorf("intro.html lacks %s", want)
		}
	}
	if sails := readOut(t, dir, "boats/sails.html"); strings.Count(sails, "<details open>") < 2 {
		t.Errorf("the first page of Boats does not open its groups:\n%s", sails)
	}
	all := strings.Join(warns, "\n")
	if strings.Contains(all, `"interaction"`) || strings.Contains(all, "drilldown") || !strings.Contains(all, `"interaction.tooltips"`) {
		t.Errorf("warnings = %q: want interaction.tooltips named, drilldown not", warns)
	}
	for _, off := range []string{`"interaction": {"drilldown": false}, `, ``} {
		dir, _ := exportTo(t, Request{Source: src(off)})
		if intro := readOut(t, dir, "intro.html"); strings.Contains(intro, "nav-drill") || !strings.Contains(intro, `<summary>Boats</summary>`) {
			t.Errorf("with %q a group title is a link", off)
		}
	}
}
