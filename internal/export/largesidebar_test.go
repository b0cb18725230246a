package export

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
)

// largeAPISite is a source with a small guides tab and an API tab of
// tags x ops endpoint pages from one OpenAPI file, tags being the
// sidebar's top-level groups: the shape of the endpoint-heavy sites of
// issue 25.
func largeAPISite(t testing.TB, tags, ops int) fstest.MapFS {
	t.Helper()
	methods := []string{"get", "post", "put", "patch", "delete"}
	paths := map[string]map[string]any{}
	var tagList []map[string]string
	for g := 0; g < tags; g++ {
		tag := fmt.Sprintf("Resource %03d", g)
		tagList = append(tagList, map[string]string{"name": tag})
		for i := 0; i < ops; i++ {
			p := fmt.Sprintf("/projects/{project}/resources%03d/items%02d/{id}", g, i)
			m := methods[i%len(methods)]
			if paths[p] == nil {
				paths[p] = map[string]any{}
			}
			paths[p][m] = map[string]any{
				"tags": []string{tag}, "operationId": fmt.Sprintf("op%03d_%02d", g, i),
				"summary":   fmt.Sprintf("%s the item %d of resource family %03d", strings.ToUpper(m[:1])+m[1:], i, g),
				"responses": map[string]any{"200": map[string]any{"description": "OK"}},
			}
		}
	}
	spec, err := json.Marshal(map[string]any{"openapi": "3.0.3", "info": map[string]any{"title": "Big", "version": "1"},
		"servers": []any{map[string]any{"url": "https://api.example.com"}}, "tags": tagList, "paths": paths})
	if err != nil {
		t.Fatal(err)
	}
	return fstest.MapFS{
		"docs.json": {Data: []byte(`{"name": "Big API", "navigation": {"tabs": [
			{"tab": "Guides", "groups": [{"group": "Start", "pages": ["index", "guides/setup"]}]},
			{"tab": "API", "openapi": "openapi.json"}]}}`)},
		"index.mdx":        {Data: []byte("---\ntitle: Home\n---\nWelcome.\n")},
		"guides/setup.mdx": {Data: []byte("---\ntitle: Setup\n---\nSet it up.\n")},
		"openapi.json":     {Data: spec},
	}
}

// htmlSizes are the bytes of the HTML pages of a bundle: in all, and
// the largest page with its path.
func htmlSizes(t *testing.T, dir string, m *bundle.Manifest) (total, largest int, which string) {
	t.Helper()
	for _, f := range m.Files {
		if !strings.HasSuffix(f.Path, ".html") {
			continue
		}
		fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f.Path)))
		if err != nil {
			t.Fatal(err)
		}
		total += int(fi.Size())
		if int(fi.Size()) > largest {
			largest, which = int(fi.Size()), f.Path
		}
	}
	return total, largest, which
}

// endpointPages are the pages of the bundle under the API tab, found by
// their endpoint banner.
func endpointPages(t *testing.T, dir string, m *bundle.Manifest) []string {
	t.Helper()
	var out []string
	for _, f := range m.Files {
		if strings.HasSuffix(f.Path, ".html") && strings.Contains(readOut(t, dir, f.Path), `class="endpoint`) {
			out = append(out, f.Path)
		}
	}
	return out
}

var (
	navScriptTag = regexp.MustCompile(`<script src="([^"]*_static/nav/[0-9a-f]{16}\.js)"(?: data-current="([^"]*)")?></script>`)
	noscriptPart = regexp.MustCompile(`(?s)<noscript>(.*?)</noscript>`)
	hrefs        = regexp.MustCompile(`<a (?:class="[^"]*" )?href="([^"]*)"`)
)

// TestExport_largeSidebarBoundedPages exports an API tab of 600 and of
// 1,200 endpoints in 60 groups, and of 1,200 in 120 groups: each page's
// size stays bounded (the sidebar is one shared script, not a copy per
// page), so the site's HTML grows with its page count rather than its
// square.
func TestExport_largeSidebarBoundedPages(t *testing.T) {
	if testing.Short() {
		t.Skip("exports 3,000 endpoint pages")
	}
	const tags, ops = 60, 10
	dir1, m1 := exportTo(t, Request{Source: largeAPISite(t, tags, ops), Kind: KindCloud})
	dir2, m2 := exportTo(t, Request{Source: largeAPISite(t, tags, 2*ops), Kind: KindCloud})
	total1, largest1, which1 := htmlSizes(t, dir1, m1)
	total2, largest2, which2 := htmlSizes(t, dir2, m2)
	n1, n2 := len(endpointPages(t, dir1, m1)), len(endpointPages(t, dir2, m2))
	t.Logf("%d endpoints: %d B of HTML, largest page %d B (%s); %d endpoints: %d B, largest %d B (%s)",
		n1, total1, largest1, which1, n2, total2, largest2, which2)
	if n1 != tags*ops || n2 != 2*tags*ops {
		t.Fatalf("endpoint pages = %d and %d, want %d and %d", n1, n2, tags*ops, 2*tags*ops)
	}
	// A page holds its content, its own group and one title per group:
	// 32 KiB leaves room for all of that, where the full sidebar of 1,200
	// endpoints alone is about 180 KB.
	const pageBound = 32 << 10
	if largest1 > pageBound || largest2 > pageBound {
		t.Errorf("largest pages %d B and %d B; want both under %d B", largest1, largest2, pageBound)
	}
	// Twice the endpoints: about twice the bytes (with the whole sidebar
	// in every page it was about four times).
	if r := float64(total2) / float64(total1); r > 2.3 {
		t.Errorf("HTML of 2x the endpoints is %.2fx the bytes; want linear growth (<= 2.3x)", r)
	}
	// Twice the groups: each page names each group, about 160 B a title.
	dir3, m3 := exportTo(t, Request{Source: largeAPISite(t, 2*tags, ops), Kind: KindCloud})
	total3, largest3, which3 := htmlSizes(t, dir3, m3)
	t.Logf("%d groups of %d: %d B of HTML, largest page %d B (%s)", 2*tags, ops, total3, largest3, which3)
	if largest3 > pageBound {
		t.Errorf("with %d groups the largest page is %d B; want under %d B", 2*tags, largest3, pageBound)
	}
}

// TestExport_largeSidebarScriptAndFallback checks what an endpoint page
// of a large API tab carries: the loader of the one sidebar script of its
// tab, which holds every endpoint's link, and a fallback without script
// that lists the page's own group in full, marks the page, and names
// every other group, linking to its first page. The small guides tab of
// the same site keeps its sidebar in HTML.
func TestExport_largeSidebarScriptAndFallback(t *testing.T) {
	const tags, ops = 60, 10
	dir, m := exportTo(t, Request{Source: largeAPISite(t, tags, ops), Kind: KindAirGapped})
	pages := endpointPages(t, dir, m)
	if len(pages) != tags*ops {
		t.Fatalf("endpoint pages = %d, want %d", len(pages), tags*ops)
	}
	scripts := map[string]bool{}
	for _, p := range pages {
		html := readOut(t, dir, p)
		tag := navScriptTag.FindStringSubmatch(html)
		if tag == nil {
			t.Fatalf("%s: no sidebar script tag", p)
		}
		// The loader's src leads from the page to the one script.
		scripts[path.Join(path.Dir(p), tag[1])] = true
		if want := p; tag[2] != want {
			t.Errorf("%s: data-current = %q, want its own path", p, tag[2])
		}
	}
	if len(scripts) != 1 {
		t.Fatalf("endpoint pages load sidebar scripts %v; want one for the tab", scripts)
	}
	var script string
	for s := range scripts {
		script = s
	}
	inManifest := false
	for _, f := range m.Files {
		inManifest = inManifest || f.Path == script
	}
	if !inManifest {
		t.Errorf("sidebar script %s is not in the manifest", script)
	}
	js := readOut(t, dir, script)
	// The script calls its loader with the sidebar's markup, a JSON string.
	var markup string
	if at := strings.LastIndex(js, ")(\""); at < 0 || !strings.HasSuffix(js, ");\n") {
		t.Fatalf("sidebar script does not end in a call with the markup: %.200q", js[max(0, len(js)-200):])
	} else if err := json.Unmarshal([]byte(js[at+2:len(js)-3]), &markup); err != nil {
		t.Fatalf("sidebar script's markup: %v", err)
	}
	if os.Getenv("H1_PEEK") != "" {
		t.Logf("page:\n%s", readOut(t, dir, pages[3]))
	}
	// The script's links in sidebar order: group g is order[g*ops:(g+1)*ops].
	var order []string
	links := map[string]bool{}
	for _, h := range hrefs.FindAllStringSubmatch(markup, -1) {
		order = append(order, h[1])
		links[h[1]] = true
	}
	if len(order) != tags*ops {
		t.Fatalf("sidebar script holds %d links, want the %d endpoints'", len(order), tags*ops)
	}
	for _, p := range pages {
		if !links[p] {
			t.Fatalf("sidebar script lacks the link of %s (it holds %d links)", p, len(links))
		}
	}
	if strings.Contains(js, "://") {
		t.Errorf("sidebar script of an air-gapped bundle names a URL: %q", regexp.MustCompile(`\S*://\S*`).FindString(js))
	}

	// The fallback of a page of the 8th group.
	page := order[7*ops+3]
	html := readOut(t, dir, page)
	ns := noscriptPart.FindStringSubmatch(html)
	if ns == nil {
		t.Fatalf("%s: no <noscript> fallback", page)
	}
	var fallback []string
	for _, h := range hrefs.FindAllStringSubmatch(ns[1], -1) {
		fallback = append(fallback, path.Join(path.Dir(page), h[1]))
	}
	if want := ops + tags - 1; len(fallback) != want {
		t.Errorf("fallback of %s has %d links, want %d: its group's %d pages and %d other groups' titles", page, len(fallback), want, ops, tags-1)
	}
	has := map[string]bool{}
	for _, l := range fallback {
		has[l] = true
	}
	for _, p := range order[7*ops : 8*ops] {
		if !has[p] {
			t.Errorf("fallback of %s lacks %s of its own group", page, p)
		}
	}
	for g := 0; g < tags; g++ {
		if g != 7 && !has[order[g*ops]] {
			t.Errorf("fallback of %s lacks the title link of group %d (%s)", page, g, order[g*ops])
		}
	}
	if !strings.Contains(ns[1], `Resource 042</a>`) {
		t.Errorf("fallback group titles are not named by their tag")
	}
	marked := regexp.MustCompile(`<a href="([^"]*)" aria-current="page">`).FindAllStringSubmatch(ns[1], -1)
	if len(marked) != 1 || path.Join(path.Dir(page), marked[0][1]) != page {
		t.Errorf("fallback of %s marks %v as current, want the page alone", page, marked)
	}

	// The guides tab is small: its sidebar is HTML, without a script.
	guide := readOut(t, dir, "guides/setup.html")
	if navScriptTag.MatchString(guide) || !strings.Contains(guide, `<a href="../guides/setup.html" aria-current="page">`) {
		t.Errorf("the small guides tab's sidebar changed: %.3000s", guide[strings.Index(guide, `<nav class="sidebar"`):])
	}
}

// TestExport_largeSidebarUntaggedRun exports 700 untagged endpoints, which
// the sidebar lists at its top level: the fallback of a page lists the
// fallbackRun of them around its own, marked, not all 700.
func TestExport_largeSidebarUntaggedRun(t *testing.T) {
	src := largeAPISite(t, 700, 1)
	var spec map[string]any
	if err := json.Unmarshal(src["openapi.json"].Data, &spec); err != nil {
		t.Fatal(err)
	}
	delete(spec, "tags")
	for _, item := range spec["paths"].(map[string]any) {
		for _, op := range item.(map[string]any) {
			delete(op.(map[string]any), "tags")
		}
	}
	data, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	src["openapi.json"] = &fstest.MapFile{Data: data}
	dir, m := exportTo(t, Request{Source: src, Kind: KindCloud})
	pages := endpointPages(t, dir, m)
	if len(pages) != 700 {
		t.Fatalf("endpoint pages = %d, want 700", len(pages))
	}
	checkFallbackAround(t, dir, pages, 100)
}

// TestExport_largeSidebarLongGroup exports one tag of 700 endpoints, a
// single group of the sidebar: the fallback of a page lists the
// fallbackRun of the group's pages around its own, marked, not all 700
// (each page listing all of them made the export's work grow with the
// square of the group).
func TestExport_largeSidebarLongGroup(t *testing.T) {
	dir, m := exportTo(t, Request{Source: largeAPISite(t, 1, 700), Kind: KindCloud})
	pages := endpointPages(t, dir, m)
	if len(pages) != 700 {
		t.Fatalf("endpoint pages = %d, want 700", len(pages))
	}
	checkFallbackAround(t, dir, pages, 100)
}

// checkFallbackAround checks that the first, middle and last of pages
// load the sidebar script and carry a fallback of want links, their own
// marked.
func checkFallbackAround(t *testing.T, dir string, pages []string, want int) {
	t.Helper()
	for _, page := range []string{pages[0], pages[len(pages)/2], pages[len(pages)-1]} {
		html := readOut(t, dir, page)
		if !navScriptTag.MatchString(html) {
			t.Fatalf("%s: no sidebar script", page)
		}
		ns := noscriptPart.FindStringSubmatch(html)
		if ns == nil {
			t.Fatalf("%s: no fallback", page)
		}
		links := hrefs.FindAllStringSubmatch(ns[1], -1)
		marked := regexp.MustCompile(`<a href="([^"]*)" aria-current="page">`).FindStringSubmatch(ns[1])
		if len(links) != want || marked == nil || path.Join(path.Dir(page), marked[1]) != page {
			t.Errorf("fallback of %s: %d links, marked %q; want the %d around the page, the page marked", page, len(links), marked, want)
		}
	}
}
