package export

import (
	"context"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/demosite"
	"golang.org/x/net/html"
)

// TestCorpus_linksAndAnchorsResolve exports every fixture source and
// follows every link and image of every page inside the bundle: the file
// it names exists, and a #fragment names an id of that page. Links out of
// the bundle (a scheme) are not followed. No endpoint page is an empty
// shell (a method badge with no reference under it). The basepath site
// writes its links with the base path of its deployment, and has one link
// to nothing on purpose: it must stay as written.
func TestCorpus_linksAndAnchorsResolve(t *testing.T) {
	cloud := func(src fs.FS) Request { return Request{Source: src, Kind: KindCloud} }
	for name, req := range map[string]Request{"fixture": cloud(fixture()), "apisite": cloud(apiSite()), "docsrepo": cloud(docsRepo()),
		"airgap": cloud(os.DirFS("testdata/airgap")), "basepath": basePathSite()} {
		t.Run(name, func(t *testing.T) {
			dir, m := exportTo(t, req)
			unresolved := map[string]bool{}
			if name == "basepath" {
				unresolved["reference/rules.html /docs/guides/sailing-notes"] = true
			}
			ids := map[string]map[string]bool{}
			idsOf := func(file string) map[string]bool {
				if got, ok := ids[file]; ok {
					return got
				}
				set := map[string]bool{}
				b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(file)))
				if err == nil {
					z := html.NewTokenizer(strings.NewReader(string(b)))
					for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
						if tt == html.StartTagToken || tt == html.SelfClosingTagToken {
							for _, a := range z.Token().Attr {
								if a.Key == "id" || a.Key == "name" {
									set[a.Val] = true
								}
							}
						}
					}
				}
				ids[file] = set
				return set
			}
			checked, fragments := 0, 0
			defer func() {
				t.Logf("%d links and images followed, %d with a fragment", checked, fragments)
				if checked < 20 {
					t.Errorf("only %d links followed: the check is not reading the pages", checked)
				}
			}()
			for _, f := range m.Files {
				if !strings.HasSuffix(f.Path, ".html") {
					continue
				}
				b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)))
				if err != nil {
					t.Fatal(err)
				}
				// An endpoint page shows its reference: a method badge
				// with nothing under it is an empty shell.
				if page := string(b); strings.Contains(page, `<div class="endpoint`) && !strings.Contains(page, `class="api-reference"`) &&
					!strings.Contains(page, `class="playground`) && !strings.Contains(page, `class="field"`) {
					t.Errorf("%s is an endpoint page with no reference", f.Path)
				}
				z := html.NewTokenizer(strings.NewReader(string(b)))
				for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
					if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
						continue
					}
					tok := z.Token()
					for _, a := range tok.Attr {
						if (a.Key != "href" || tok.Data != "a") && (a.Key != "src" || tok.Data != "img") {
							continue
						}
						u, err := url.Parse(a.Val)
						if err != nil || u.Scheme != "" || u.Host != "" || a.Val == "" {
							continue
						}
						checked++
						target := f.Path
						if u.Path != "" {
							target = path.Join(path.Dir(f.Path), u.Path)
						}
						if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(target))); err != nil {
							if unresolved[f.Path+" "+a.Val] {
								continue
							}
							t.Errorf("%s: %s %q names %s, which the bundle lacks", f.Path, a.Key, a.Val, target)
							continue
						}
						if u.Fragment != "" {
							fragments++
						}
						if u.Fragment != "" && strings.HasSuffix(target, ".html") && !idsOf(target)[u.Fragment] {
							t.Errorf("%s: %s %q: %s has no id %q", f.Path, a.Key, a.Val, target, u.Fragment)
						}
					}
				}
			}
		})
	}
}

// TestCorpus_customComponentsRenderOrWarn exports every fixture source and
// checks that no custom component vanishes silently: every component left
// as the generic wrapper (a component that could not be rendered, or one
// the export does not know) is named in a warning of its page, and no
// marker of the component pass is left in a page.
func TestCorpus_customComponentsRenderOrWarn(t *testing.T) {
	wrapper := regexp.MustCompile(`<div class="component" data-component="([^"]+)">`)
	sources := map[string]fs.FS{"fixture": fixture(), "apisite": apiSite(), "docsrepo": docsRepo(),
		"airgap": os.DirFS("testdata/airgap"), "components": os.DirFS(componentsSource()), "demosite": demosite.FS()}
	for name, src := range sources {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			var mu sync.Mutex
			var warns []string
			m, err := New(Options{Limits: Limits{ComponentTime: 300 * time.Millisecond}}).Export(context.Background(),
				Request{Source: src, Kind: KindCloud, Domain: "docs.example.com",
					Warn: func(wrn Warning) { w := wrn.Message; mu.Lock(); warns = append(warns, w); mu.Unlock() }}, dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range m.Files {
				if !strings.HasSuffix(f.Path, ".html") {
					continue
				}
				page := readOut(t, dir, f.Path)
				if strings.Contains(page, "<!--jsx ") || strings.Contains(page, "<!--/jsx ") {
					t.Errorf("%s: a component marker is left in the page", f.Path)
				}
				for _, c := range wrapper.FindAllStringSubmatch(page, -1) {
					named := false
					for _, w := range warns {
						named = named || strings.Contains(w, "<"+c[1]+">")
					}
					if !named {
						t.Errorf("%s: the component %s renders as an empty wrapper and no warning names it", f.Path, c[1])
					}
				}
			}
		})
	}
}
