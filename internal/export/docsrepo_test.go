package export

import (
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// docsRepo is the fixture that looks like a real docs repository:
// docs.json split over nested $ref files with sibling keys, two
// languages, an OpenAPI 3.0 YAML and a 3.1 JSON spec named from the
// navigation and from frontmatter (a webhook too), an MDX-only API page,
// the docs.json api settings and x-mint extensions, snippets, images,
// video embeds and a hidden page.
func docsRepo() fs.FS { return os.DirFS("testdata/docsrepo") }

// docsRepoFragments are the parts of pages pinned by TestGolden_docsRepo:
// the article of each page kind, plus the section switcher and top bar
// that show what the $ref sibling keys changed. Whole pages would churn
// with every sidebar entry added to the fixture.
var docsRepoFragments = []struct {
	name, page, start, end string
}{
	{"divisions", "en/index.html", `<nav class="divisions"`, `</nav>`},
	{"topbar-links", "en/index.html", `<nav class="navbar-links"`, `</nav>`},
	{"en-index", "en/index.html", `<article class="page">`, `</article>`},
	{"fr-quickstart", "fr/quickstart.html", `<article class="page">`, `</article>`},
	{"videos", "en/media/videos.html", `<article class="page">`, `</article>`},
	{"images", "en/media/images.html", `<article class="page">`, `</article>`},
	{"endpoint-yaml", "en/api-reference/pets/list-pets.html", `<article class="page`, `</article>`},
	{"endpoint-frontmatter-fr", "fr/api/get-pet.html", `<article class="page`, `</article>`},
	{"webhook", "en/events/item-created.html", `<article class="page`, `</article>`},
	{"mdx-only-endpoint", "en/events/voucher.html", `<article class="page`, `</article>`},
	{"hidden", "en/internal.html", `<article class="page">`, `</article>`},
	{"schema-in-file", "en/schemas/pet.html", `<article class="page">`, `</article>`},
	{"schema-by-name", "en/schemas/item.html", `<article class="page">`, `</article>`},
	{"x-mint", "en/guides/order-status.html", `<article class="page`, `</article>`},
	{"callbacks", "en/api-reference/orders/follow-an-order.html", `<h2 id="callbacks"`, `<h2 id="responses"`},
}

// TestGolden_docsRepo pins the page list of the air-gapped export of the
// docs repository fixture and key fragments of its pages. Regenerate
// with `go test ./internal/export -run TestGolden_docsRepo -args -update`
// and review the diff of testdata/golden/docsrepo like any code change.
func TestGolden_docsRepo(t *testing.T) {
	dir, m := exportTo(t, Request{Source: docsRepo(), Kind: KindAirGapped, Label: "golden"})
	var list []string
	for _, f := range m.Files {
		list = append(list, f.Path)
	}
	slices.Sort(list)
	checkGolden(t, "pages.txt", strings.Join(list, "\n")+"\n")
	for _, fr := range docsRepoFragments {
		t.Run(fr.name, func(t *testing.T) {
			page := readOut(t, dir, fr.page)
			i := strings.Index(page, fr.start)
			if i < 0 {
				t.Fatalf("%s has no %s", fr.page, fr.start)
			}
			j := strings.Index(page[i:], fr.end)
			if j < 0 {
				t.Fatalf("%s: %s is not closed by %s", fr.page, fr.start, fr.end)
			}
			got := "<!-- " + fr.page + " -->\n" + strings.ReplaceAll(page[i:i+j+len(fr.end)], "><", ">\n<") + "\n"
			checkGolden(t, fr.name+".html", got)
		})
	}
}

// checkGolden compares got with testdata/golden/docsrepo/name, or writes
// it there under -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	compareGolden(t, filepath.Join("testdata", "golden", "docsrepo", name), got)
}

// TestExport_docsRepo asserts what a reader of the fixture sees, beyond
// the goldens: the navigation the split docs.json describes, both
// languages, hidden pages kept out of the sidebar and the sitemap, and
// the endpoint pages with their reference.
func TestExport_docsRepo(t *testing.T) {
	var warns []string
	dir, m := exportTo(t, Request{Source: docsRepo(), Kind: KindAirGapped, Warn: func(wrn Warning) { s := wrn.Message; warns = append(warns, s) }})
	if m.PageCount != 23 {
		t.Errorf("pageCount = %d, want the 23 pages of the fixture", m.PageCount)
	}
	index := readOut(t, dir, "en/index.html")
	wantAll(t, "en/index.html", index,
		`<a href="../en/index.html" class="current" aria-current="true">Guides</a>`, // sibling key over tabs/en-guides.json
		`<a href="../fr/index.html">Français</a>`,                                   // sibling key over languages/fr.json
		`<p class="nav-group-title">`+faIcon("video")+`Media</p>`,                   // group from a $ref two files deep
		`<a href="../en/quickstart.html">Status</a>`,                                // navbar primary from the sibling key
		`<a href="mailto:support@acme.test">Support</a>`,                            // navbar links from the referenced file
		`Questions? Write to`) // the snippet
	for _, absent := range []string{"Replaced by the sibling key", "remplacé", "en/internal.html"} {
		if strings.Contains(index, absent) {
			t.Errorf("en/index.html shows %q", absent)
		}
	}
	if sm := readOut(t, dir, "sitemap.xml"); strings.Contains(sm, "internal") || !strings.Contains(sm, "/fr/quickstart<") {
		t.Errorf("sitemap lists hidden pages or misses French ones:\n%s", sm)
	}
	wantAll(t, "fr/api/get-pet.html", readOut(t, dir, "fr/api/get-pet.html"),
		"Renvoie un animal", "/pets/{petId}", "https://api.acme.test/v1", "petId")
	wantAll(t, "en/events/item-created.html", readOut(t, dir, "en/events/item-created.html"),
		"Answer with a 200", "itemCreated", "Acknowledge the event.")
	wantAll(t, "en/api-reference/pets/upload-a-photo.html", readOut(t, dir, "en/api-reference/pets/upload-a-photo.html"),
		"multipart/form-data", "photo", "binary")
	// x-hidden: a page reachable by its address, listed nowhere.
	wantAll(t, "reindex-orders.html", readOut(t, dir, "en/api-reference/orders/reindex-orders.html"),
		`<meta name="robots" content="noindex">`, `/internal/reindex`)
	for _, f := range []string{"en/api-reference/orders/place-an-order.html", "sitemap.xml", "_static/search-index.js"} {
		if got := readOut(t, dir, f); strings.Contains(got, "reindex") || strings.Contains(got, "Reindex") {
			t.Errorf("%s lists the x-hidden operation", f)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "en/api-reference/orders/purge-everything.html")); err == nil {
		t.Error("an x-excluded operation got a page")
	}
	if got := readOut(t, dir, "getting-started.html"); !strings.Contains(got, `url=en/quickstart.html`) {
		t.Errorf("redirect from the referenced redirects file missing:\n%s", got)
	}
	slices.Sort(warns)
	// The platform's own green reads at 3.6:1 on the light background.
	if len(warns) != 6 || !strings.HasPrefix(warns[3], "en/media/images.mdx: remote content replaced") ||
		!strings.Contains(warns[0], `"swift" has no generated sample`) || !strings.Contains(warns[2], `"api.playground.proxy" is ignored`) ||
		!strings.Contains(warns[1], "colors.primary #0D9373 reads at 3.6:1 on the light background") {
		t.Errorf("warnings = %q, want the api settings left out and the three pages with remote content", warns)
	}
}

// loading lists, per element, the attributes whose URL a browser fetches
// by itself when the page loads (links a reader clicks are not here).
var loading = map[string][]string{
	"img": {"src", "srcset"}, "source": {"src", "srcset"}, "video": {"src", "poster"}, "audio": {"src"},
	"track": {"src"}, "iframe": {"src"}, "frame": {"src"}, "embed": {"src"}, "object": {"data"},
	"script": {"src"}, "input": {"src"}, "image": {"href", "xlink:href"}, "use": {"href", "xlink:href"},
}

// loadingLinkRels are the <link> relations whose href a browser fetches.
var loadingLinkRels = []string{"stylesheet", "icon", "preload", "prefetch", "preconnect", "dns-prefetch", "modulepreload", "manifest", "apple-touch-icon"}

var cssURL = regexp.MustCompile(`(?i)url\(\s*['"]?([^'")\s]+)|@import\s+['"]([^'"]+)`)

// remote reports whether a reference names something outside the bundle.
func remote(ref string) bool {
	ref = strings.TrimSpace(ref)
	if strings.HasPrefix(ref, "//") {
		return true
	}
	u, err := url.Parse(ref)
	return err != nil || (u.Scheme != "" && u.Scheme != "data")
}

// remoteLoads walks every file of a bundle and returns each reference a
// browser would load from outside it: the load attributes of HTML and
// SVG elements, <link> hrefs of loading relations, and CSS url() and
// @import in stylesheets and style attributes.
func remoteLoads(t *testing.T, dir string) (found []string, seen int) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		check := func(what, ref string) {
			seen++
			for _, r := range strings.Split(ref, ",") { // srcset lists candidates
				if f := strings.Fields(r); len(f) > 0 && remote(f[0]) {
					found = append(found, rel+": "+what+" "+f[0])
				}
			}
		}
		css := func(what, text string) {
			for _, m := range cssURL.FindAllStringSubmatch(text, -1) {
				check(what, m[1]+m[2])
			}
		}
		switch filepath.Ext(p) {
		case ".css":
			css("css", string(b))
		case ".html", ".svg":
			z := html.NewTokenizer(strings.NewReader(string(b)))
			for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
				if tt == html.TextToken {
					continue
				}
				tok := z.Token()
				if tok.Data == "style" && tt == html.StartTagToken && z.Next() == html.TextToken {
					css("<style>", z.Token().Data)
				}
				attrs := map[string]string{}
				for _, a := range tok.Attr {
					attrs[strings.ToLower(a.Key)] = a.Val
				}
				if s, ok := attrs["style"]; ok {
					css("style=", s)
				}
				for _, a := range loading[tok.Data] {
					if v, ok := attrs[a]; ok {
						check("<"+tok.Data+" "+a+">", v)
					}
				}
				if tok.Data == "link" && slices.ContainsFunc(strings.Fields(strings.ToLower(attrs["rel"])), func(r string) bool { return slices.Contains(loadingLinkRels, r) }) {
					check("<link "+attrs["rel"]+">", attrs["href"])
				}
				if tok.Data == "meta" && strings.EqualFold(attrs["http-equiv"], "refresh") {
					if _, target, ok := strings.Cut(attrs["content"], "url="); ok {
						check("<meta refresh>", target)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found, seen
}

// TestBundle_docsRepoAirGapped walks every file of the air-gapped export
// of the docs repository and finds no reference a browser would load
// from outside the bundle; the cloud export of the same source does have
// some, which shows the walk can see them. The link walk runs on both.
func TestBundle_docsRepoAirGapped(t *testing.T) {
	dir, _ := exportTo(t, Request{Source: docsRepo(), Kind: KindAirGapped})
	found, seen := remoteLoads(t, dir)
	if len(found) > 0 {
		t.Errorf("air-gapped bundle loads from outside:\n%s", strings.Join(found, "\n"))
	}
	if seen < 100 {
		t.Errorf("only %d loading references seen; the walk is not reading the pages", seen)
	}
	// Without the playground the bundle holds no code that sends
	// requests at all (playground.js is left out).
	if refs := outboundRefs(t, dir); len(refs) > 0 {
		t.Errorf("air-gapped bundle reaches out:\n%s", strings.Join(refs, "\n"))
	}
	cloud, _ := exportTo(t, Request{Source: docsRepo(), Kind: KindCloud})
	found, _ = remoteLoads(t, cloud)
	for _, want := range []string{"en/media/videos.html: <iframe src> https://www.youtube.com/embed/dQw4w9WgXcQ",
		"en/media/images.html: <img src> https://img.shields.test/badge/build-passing-green.svg"} {
		if !slices.Contains(found, want) {
			t.Errorf("cloud bundle: the walk did not see %q (saw %q)", want, found)
		}
	}
}
