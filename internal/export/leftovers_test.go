package export

import (
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/demosite"
	"golang.org/x/net/html"
)

// Leftovers are MDX a reader would see unrendered in a page's text:
// Markdown heading marks, JSX (a component's tag, `} />`, `={<`) and
// display math. Text in code, scripts and the like is not the page's
// prose.
var (
	leftoverHeading = regexp.MustCompile(`(^|\n)[ \t]*#{1,6}[ \t]+\S`)
	leftoverJSX     = regexp.MustCompile(`\}\s*/>|=\{\s*<|<[A-Z][A-Za-z0-9]*(\s|/?>)|</[A-Z][A-Za-z0-9]*>`)
	leftoverMath    = regexp.MustCompile(`\$\$[^$]+\$\$`)
	notProse        = map[string]bool{"pre": true, "code": true, "textarea": true, "script": true, "style": true,
		"noscript": true, "template": true, "kbd": true, "samp": true}
)

// leftovers returns the leftovers of a page, each with some context.
func leftovers(page string) []string {
	z := html.NewTokenizer(strings.NewReader(page))
	var text strings.Builder
	skip := 0
	var open []bool // per open span: whether it is a field's type
	for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
		switch tt {
		case html.StartTagToken:
			tok := z.Token()
			if notProse[tok.Data] {
				skip++
			}
			if tok.Data == "span" {
				// A field's type is code the page names
				// (ReactElement<StepProps>[]), not prose.
				isType := false
				for _, a := range tok.Attr {
					isType = isType || (a.Key == "class" && a.Val == "field-type")
				}
				open = append(open, isType)
				if isType {
					skip++
				}
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			if notProse[string(name)] && skip > 0 {
				skip--
			}
			if string(name) == "span" && len(open) > 0 {
				if open[len(open)-1] && skip > 0 {
					skip--
				}
				open = open[:len(open)-1]
			}
		case html.TextToken:
			if skip == 0 {
				text.Write(z.Text())
			}
		}
	}
	t := text.String()
	var out []string
	for _, re := range []*regexp.Regexp{leftoverHeading, leftoverJSX, leftoverMath} {
		for _, loc := range re.FindAllStringIndex(t, -1) {
			out = append(out, strings.Join(strings.Fields(t[max(loc[0]-40, 0):min(loc[1]+40, len(t))]), " "))
		}
	}
	return out
}

// TestCorpus_noSilentLeftovers exports every fixture source, and the
// platform's own reference pages when they are beside the repository,
// and scans each page's prose for MDX left unrendered: a page that shows
// any names itself in a warning, so nothing is dropped silently.
func TestCorpus_noSilentLeftovers(t *testing.T) {
	sources := map[string]fs.FS{"fixture": fixture(), "apisite": apiSite(), "docsrepo": docsRepo(),
		"airgap": os.DirFS("testdata/airgap"), "components": os.DirFS(componentsSource()), "demosite": demosite.FS()}
	if ref, ok := referencePages(t); ok {
		sources["reference"] = ref
	}
	names := make([]string, 0, len(sources))
	for n := range sources {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			var mu sync.Mutex
			var warns []string
			m, err := New(Options{Limits: Limits{ComponentTime: 2 * time.Second}}).Export(context.Background(),
				Request{Source: sources[name], Kind: KindCloud, Domain: "docs.example.com",
					Warn: func(wrn Warning) { w := wrn.Message; mu.Lock(); warns = append(warns, w); mu.Unlock() }}, dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			pages, shown := 0, 0
			for _, f := range m.Files {
				if !strings.HasSuffix(f.Path, ".html") {
					continue
				}
				pages++
				found := leftovers(readOut(t, dir, f.Path))
				if len(found) == 0 {
					continue
				}
				shown++
				stem := strings.TrimSuffix(f.Path, ".html")
				warned := false
				for _, w := range warns {
					warned = warned || strings.Contains(w, stem+".mdx") || strings.Contains(w, stem+".md")
				}
				if !warned {
					t.Errorf("%s shows unrendered MDX and no warning names it: %q", f.Path, found)
				}
			}
			t.Logf("%d pages, %d with MDX left unrendered (each warned)", pages, shown)
		})
	}
}

// referencePages is the platform's own pages (../shared/reference/
// platform-format beside the repository) as a docs source whose
// navigation lists every page.
func referencePages(t *testing.T) (fs.FS, bool) {
	t.Helper()
	root := filepath.Join("..", "..", "..", "shared", "reference", "platform-format")
	if _, err := os.Stat(root); err != nil {
		t.Logf("no reference pages at %s", root)
		return nil, false
	}
	src := fstest.MapFS{}
	var pages []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		src[rel] = &fstest.MapFile{Data: b}
		if ext := path.Ext(rel); ext == ".mdx" || ext == ".md" {
			pages = append(pages, `"`+strings.TrimSuffix(rel, ext)+`"`)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(pages)
	src["docs.json"] = &fstest.MapFile{Data: []byte(`{"name": "Reference", "navigation": {"pages": [` + strings.Join(pages, ",") + `]}}`)}
	return src, true
}
