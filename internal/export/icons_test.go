package export

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/components"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/icons"
)

// faIcon is a Font Awesome icon as a page draws it by default.
func faIcon(name string) string { return drawn(icons.FontAwesome, name, "") }

// drawn is an icon as a page draws it: a span naming its drawing, whose
// mask the site stylesheet holds.
func drawn(lib icons.Library, name, typ string) string {
	return icons.NewSet(lib).Draw(icons.Ref{Name: name, Type: typ}, "").String()
}

func iconsFixture(t *testing.T) fstest.MapFS {
	m := fstest.MapFS{}
	root := "testdata/icons"
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		m[filepath.ToSlash(rel)] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestExport_iconsByName exports a source that names icons in every place
// the platform takes one: each is drawn from Font Awesome (the default
// library), with iconType choosing the style, the docs.json icon object
// its style and library, and paths and URLs drawn as images.
func TestExport_iconsByName(t *testing.T) {
	var warns []string
	dir, _ := exportTo(t, Request{Source: iconsFixture(t), Kind: KindCloud, Warn: func(wrn Warning) { s := wrn.Message; warns = append(warns, s) }})
	index := readOut(t, dir, "index.html")
	wantAll(t, "index.html", index,
		`<span class="card-icon">`+faIcon("rocket")+`</span>`,
		`<span class="card-icon">`+drawn(icons.FontAwesome, "circle-check", "solid")+`</span>`,
		`<span class="card-icon"><img class="i" src="images/logo.svg" alt=""></span>`,
		`<span class="card-icon"><img class="i" src="https://example.com/icon.png" alt=""></span>`,
		`<p class="tab-title">`+faIcon("terminal")+`First</p>`,
		`<summary>`+faIcon("circle-info")+`Details</summary>`,
		`<li class="step step-with-icon" id="install"><span class="step-icon">`+faIcon("download")+`</span>`,
		`<span class="callout-icon">`+faIcon("bolt")+`</span>`,
		`<span class="icon" style="--icon-size:32px;color:#FF0000" role="img" aria-label="flag">`+drawn(icons.FontAwesome, "flag", "solid")+`</span>`,
		`<span class="badge">`+faIcon("star")+`new</span>`,
		// the navigation: a tab, a global anchor, groups with the object
		// form (a style, another library), a page's frontmatter icon
		`>`+faIcon("book-open")+`Guides</a>`,
		`>`+faIcon("newspaper")+`Blog</a>`,
		`<p class="nav-group-title">`+faIcon("rocket")+`Start</p>`,
		`<p class="nav-group-title">`+drawn(icons.Lucide, "notebook-text", "")+`More</p>`,
		`<summary>`+drawn(icons.FontAwesome, "github", "brands")+`Nested</summary>`,
		`<a href="index.html" aria-current="page">`+faIcon("house")+`Icons</a>`,
		`<a href="styles.html">`+drawn(icons.FontAwesome, "palette", "solid")+`Styles</a>`,
		`<a href="nested/deep.html"><img class="i" src="images/logo.svg" alt="">Deep</a>`,
	)
	// An unknown name draws nothing: no dot, no slot left behind.
	if !strings.Contains(index, `<div class="card"><span class="card-icon"></span><p class="card-title">Missing</p>`) {
		t.Error("the card with an unknown icon should have no icon at all")
	}
	if strings.Contains(index, "data-icon") || strings.Contains(index, `<circle cx="12" cy="12" r="4"/>`) {
		t.Error("a slot or a dot is left in the page")
	}
	if readOut(t, dir, "reference.html"); !strings.Contains(readOut(t, dir, "reference.html"), `<p class="nav-group-title">API</p>`) {
		t.Error("the group with an unknown icon should show its title alone")
	}
	// Pro styles draw in the closest free style.
	styles := readOut(t, dir, "styles.html")
	regular, solid := faIcon("house"), drawn(icons.FontAwesome, "house", "solid")
	if strings.Count(styles, `<span class="card-icon">`+regular) != 2 || strings.Count(styles, `<span class="card-icon">`+solid) != 2 {
		t.Errorf("light and thin should draw regular, duotone and sharp-solid solid")
	}
	// One warning per unknown name, naming where it is used; one per Pro style.
	all := strings.Join(warns, "\n")
	for _, w := range []string{
		`icon "no-such-icon" is not in Font Awesome Free (@fortawesome/fontawesome-free@7.3.1); drawn as nothing at index.mdx (Card)`,
		`icon "not-an-icon" is not in Font Awesome Free (@fortawesome/fontawesome-free@7.3.1); drawn as nothing at docs.json navigation group "API"`,
		`iconType "light" is a Font Awesome Pro style, which the export cannot ship; 1 icon drawn in regular instead: house`,
		`iconType "duotone" is a Font Awesome Pro style, which the export cannot ship; 1 icon drawn in solid instead: house`,
	} {
		if strings.Count(all, w) != 1 {
			t.Errorf("want once: %s\nin\n%s", w, all)
		}
	}
	if n := len(regexp.MustCompile(`(?m)^(icon|iconType) "`).FindAllString(all, -1)); n != 6 {
		t.Errorf("want 6 warnings about icons (2 names, 4 styles), got %d:\n%s", n, all)
	}
	// The licences of the libraries drawn from, and of those only.
	if fa := readOut(t, dir, "_static/licenses/icons-fontawesome.txt"); !strings.Contains(fa, "CC BY 4.0") || !strings.Contains(fa, "@fortawesome/fontawesome-free@7.3.1") {
		t.Errorf("Font Awesome licence: %.200s", fa)
	}
	if lu := readOut(t, dir, "_static/licenses/icons-lucide.txt"); !strings.Contains(lu, "ISC License") {
		t.Errorf("Lucide licence: %.200s", lu)
	}
	if _, err := os.Stat(filepath.Join(dir, "_static/licenses/icons-tabler.txt")); err == nil {
		t.Error("Tabler's licence shipped though no Tabler icon is drawn")
	}
}

// TestExport_iconsOnlyThoseUsed: the pages show icons by name as spans
// naming their drawing, and the site stylesheet holds exactly the
// drawings the pages (the 404 page included) show, each once; no page
// carries a drawing inline, and nothing else of the libraries' data is
// in the bundle.
func TestExport_iconsOnlyThoseUsed(t *testing.T) {
	dir, _ := exportTo(t, Request{Source: iconsFixture(t), Kind: KindCloud})
	want := map[string]bool{}
	for _, r := range []struct {
		lib       icons.Library
		name, typ string
	}{
		{icons.FontAwesome, "rocket", ""}, {icons.FontAwesome, "circle-check", "solid"}, {icons.FontAwesome, "terminal", ""},
		{icons.FontAwesome, "gear", ""}, {icons.FontAwesome, "circle-info", ""}, {icons.FontAwesome, "download", ""},
		{icons.FontAwesome, "bolt", ""}, {icons.FontAwesome, "flag", "solid"}, {icons.FontAwesome, "star", ""},
		{icons.FontAwesome, "book-open", ""}, {icons.FontAwesome, "code", ""}, {icons.FontAwesome, "newspaper", ""},
		{icons.Lucide, "notebook-text", ""}, {icons.FontAwesome, "github", ""}, {icons.FontAwesome, "house", ""},
		{icons.FontAwesome, "house", "solid"}, {icons.FontAwesome, "palette", ""}, {icons.FontAwesome, "grip", ""},
	} {
		want[drawn(r.lib, r.name, r.typ)] = true
	}
	for _, n := range []string{"rocket", "book", "code", "terminal", "gear", "house", "user", "users", "lock", "key", "cloud", "server",
		"database", "bolt", "star", "heart", "bell", "flag", "globe", "link", "image", "video", "file", "folder", "chart-line",
		"puzzle-piece", "shield", "wrench", "envelope", "comments"} {
		want[faIcon(n)] = true // the cards page
	}
	own := map[string]bool{} // the export's own glyphs, drawn inline
	for _, n := range []string{"info", "lightbulb", "warning", "check", "danger", "link"} {
		own[components.Icon(n).String()] = true
	}
	span := regexp.MustCompile(`<span class="i (ic-[a-z]+-[0-9]+)" aria-hidden="true"></span>`)
	svg := regexp.MustCompile(`(?s)<svg class="i".*?</svg>`)
	shown := map[string]bool{} // the classes of the drawings the pages show
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.HasSuffix(p, ".gz") || strings.Contains(string(b), `"styles":{`) {
			t.Errorf("%s looks like icon library data", p)
		}
		if !strings.HasSuffix(p, ".html") {
			return nil
		}
		for _, m := range span.FindAllStringSubmatch(string(b), -1) {
			if !want[m[0]] {
				t.Errorf("%s shows an icon no page names: %s", p, m[0])
			}
			shown[m[1]] = true
		}
		for _, m := range svg.FindAllString(string(b), -1) {
			if !own[m] {
				t.Errorf("%s draws an icon inline: %.120s", p, m)
			}
		}
		if strings.Contains(string(b), `<use href="#i:`) || strings.Contains(string(b), `class="i-defs"`) {
			t.Errorf("%s defines icons inline", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(shown) != len(want) {
		t.Errorf("the pages show %d distinct drawings, want the %d they name", len(shown), len(want))
	}
	css := readOut(t, dir, "_static/style.css")
	rules := regexp.MustCompile(`(?m)^\.(ic-[a-z]+-[0-9]+)\{--i:url\("data:image/svg\+xml,[^"]+"\)\}$`).FindAllStringSubmatch(css, -1)
	held, bytes := map[string]bool{}, 0
	for _, r := range rules {
		if held[r[1]] {
			t.Errorf("the stylesheet holds %s twice", r[1])
		}
		if !shown[r[1]] {
			t.Errorf("the stylesheet holds %s, which no page shows", r[1])
		}
		held[r[1]] = true
		bytes += len(r[0]) + 1
	}
	for c := range shown {
		if !held[c] {
			t.Errorf("a page shows %s, which the stylesheet does not draw", c)
		}
	}
	t.Logf("%d distinct drawings, %d bytes of mask CSS once for the site", len(held), bytes)
}

// TestExport_iconsLibrary draws from docs.json's icons.library, and
// warns about a library the platform does not document.
func TestExport_iconsLibrary(t *testing.T) {
	src := func(lib string) fstest.MapFS {
		return fstest.MapFS{
			"docs.json": {Data: []byte(`{"name":"L","icons":{"library":"` + lib + `"},"navigation":{"groups":[{"group":"G","icon":"house","pages":["index"]}]}}`)},
			"index.mdx": {Data: []byte("---\ntitle: Home\n---\n\n<Card title=\"A\" icon=\"zap\">x</Card>\n<Card title=\"B\" icon=\"xmark\">y</Card>\n")},
		}
	}
	var warns []string
	dir, _ := exportTo(t, Request{Source: src("lucide"), Warn: func(wrn Warning) { s := wrn.Message; warns = append(warns, s) }})
	index := readOut(t, dir, "index.html")
	wantAll(t, "lucide", index, `<p class="nav-group-title">`+drawn(icons.Lucide, "house", "")+`G</p>`,
		`<span class="card-icon">`+drawn(icons.Lucide, "zap", "")+`</span>`)
	if all := strings.Join(warns, "\n"); !strings.Contains(all, `icon "xmark" is not in Lucide (lucide-static@1.62.0); drawn as nothing at index.mdx (Card)`) {
		t.Errorf("a Font Awesome name under lucide should warn:\n%s", all)
	}
	warns = nil
	dir, _ = exportTo(t, Request{Source: src("heroicons"), Warn: func(wrn Warning) { s := wrn.Message; warns = append(warns, s) }})
	if all := strings.Join(warns, "\n"); !strings.Contains(all, `docs.json: icons.library "heroicons" is none of fontawesome, lucide, tabler; Font Awesome is used`) {
		t.Errorf("unknown library not warned:\n%s", all)
	}
	if !strings.Contains(readOut(t, dir, "index.html"), `<span class="card-icon">`+faIcon("xmark")+`</span>`) {
		t.Error("an unknown library should draw from Font Awesome")
	}
}

// TestExport_iconsAirGapped leaves remote icon images out, as any remote
// content, and keeps the icons drawn by name and from files.
func TestExport_iconsAirGapped(t *testing.T) {
	var warns []string
	dir, _ := exportTo(t, Request{Source: iconsFixture(t), Kind: KindAirGapped, Warn: func(wrn Warning) { s := wrn.Message; warns = append(warns, s) }})
	index := readOut(t, dir, "index.html")
	if strings.Contains(index, "example.com/icon.png") || !strings.Contains(index, `<span class="card-icon"></span><p class="card-title">Remote</p>`) {
		t.Error("a remote icon image is left in an air-gapped page")
	}
	if all := strings.Join(warns, "\n"); !strings.Contains(all, `index.mdx (Card): the icon "https://example.com/icon.png" is remote; an air-gapped bundle leaves it out`) {
		t.Errorf("the remote icon left out without a word:\n%s", all)
	}
	wantAll(t, "index.html", index, `<span class="card-icon">`+faIcon("rocket")+`</span>`,
		`<span class="card-icon"><img class="i" src="images/logo.svg" alt=""></span>`)
	readOut(t, dir, "images/logo.svg")
}

// TestExport_iconsInDirectory puts a page's icon and a nested group's on
// the cards of a group's directory, as the platform does.
func TestExport_iconsInDirectory(t *testing.T) {
	src := fstest.MapFS{
		"docs.json":    {Data: []byte(`{"name":"D","navigation":{"groups":[{"group":"G","root":"overview","directory":"card","pages":["a",{"group":"Sub","icon":"cloud","pages":["b"]}]}]}}`)},
		"overview.mdx": {Data: []byte("---\ntitle: Overview\n---\n\nAll of it.\n")},
		"a.mdx":        {Data: []byte("---\ntitle: A\nicon: rocket\n---\n\nA.\n")},
		"b.mdx":        {Data: []byte("---\ntitle: B\n---\n\nB.\n")},
	}
	dir, _ := exportTo(t, Request{Source: src})
	wantAll(t, "overview.html", readOut(t, dir, "overview.html"),
		`<a class="card" href="a.html"><span class="card-icon">`+faIcon("rocket")+`</span><span class="card-title">A</span></a>`,
		`<a class="card" href="b.html"><span class="card-icon">`+faIcon("cloud")+`</span><span class="card-title">Sub</span></a>`)
}
