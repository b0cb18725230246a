package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// The synthetic site: tabs of groups of pages, like a large product's docs
// split by area, 1,800 pages, and an API reference tab of 200 endpoint
// pages generated from a spec (apigen.go): 2,000 pages. Each tab's sidebar
// lists its own pages only, as on the platform, so a page carries a
// realistic amount of navigation.
const (
	tabs          = 8
	groupsPerTab  = 9
	pagesPerGroup = 25
)

var words = strings.Fields(`account agent alert api archive audit backup batch bucket cache
	certificate channel client cluster config connector container credential dashboard database
	deploy domain endpoint environment event export feature field filter gateway group header
	index instance integration job key label limit log metric migration model namespace node
	notification operator package pipeline plan policy project provider queue quota record
	region release replica request resource response role route rule schedule schema secret
	service session setting snapshot source storage stream subscription tag task template tenant
	token topic trigger user version volume webhook workflow workspace zone`)

type gen struct {
	rng *rand.Rand
}

// newGen is a generator seeded with a and b: the same corpus every run,
// so that figures of different runs compare.
func newGen(a, b uint64) *gen { return &gen{rng: rand.New(rand.NewPCG(a, b))} }

// layout is a tab bar: tabs of groups of pages.
type layout struct{ tabs, groups, pages int }

// navTabs calls page for every page of l in order, with its key (prefix,
// then pageKey) and its group and place in the group, and returns the
// tabs of the navigation that lists them.
func (l layout) navTabs(prefix string, page func(key string, gr, p int) error) ([]map[string]any, error) {
	var navTabs []map[string]any
	for t := 0; t < l.tabs; t++ {
		var groups []map[string]any
		for gr := 0; gr < l.groups; gr++ {
			var pages []string
			for p := 0; p < l.pages; p++ {
				key := prefix + pageKey(t, gr, p)
				if err := page(key, gr, p); err != nil {
					return nil, err
				}
				pages = append(pages, key)
			}
			groups = append(groups, map[string]any{"group": fmt.Sprintf("Group %d", gr), "pages": pages})
		}
		navTabs = append(navTabs, map[string]any{"tab": fmt.Sprintf("Area %d", t), "groups": groups})
	}
	return navTabs, nil
}

// writeBoth writes a page for the export (docs/file) and the same page
// for Hugo (content/key.md, ordered by weight); hugo "" writes the first
// alone.
func writeBoth(docs, hugo, file, key, title, desc, body string, weight int) error {
	if err := write(filepath.Join(docs, file), fmt.Sprintf("---\ntitle: %q\ndescription: %q\n---\n\n", title, desc)+body); err != nil {
		return err
	}
	if hugo == "" {
		return nil
	}
	return write(filepath.Join(hugo, "content", key+".md"), fmt.Sprintf("---\ntitle: %q\ndescription: %q\nweight: %d\n---\n\n", title, desc, weight)+body)
}

func (g *gen) word() string { return words[g.rng.IntN(len(words))] }

func (g *gen) sentence(n int) string {
	ws := make([]string, n)
	for i := range ws {
		ws[i] = g.word()
	}
	s := strings.Join(ws, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

func (g *gen) paragraph(sentences int) string {
	ss := make([]string, sentences)
	for i := range ss {
		ss[i] = g.sentence(8 + g.rng.IntN(8))
	}
	return strings.Join(ss, " ")
}

// pageKey names page p of group gr of tab t.
func pageKey(t, gr, p int) string { return fmt.Sprintf("tab%d/group%d/page%d", t, gr, p) }

// body writes a page of about 2 KB with headings, lists, a table, code and
// components; link points at another page of the site.
func (g *gen) body(link string) string { return g.bodyWith(link, g.goBlock) }

// bodyWith is body with its code block from code, called where body
// draws its own.
func (g *gen) bodyWith(link string, code func() string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s See [the related %s guide](/%s) and `%s_%s`.\n\n", g.paragraph(2), g.word(), link, g.word(), g.word())
	fmt.Fprintf(&b, "## Overview of the %s\n\n%s\n\n", g.word(), g.paragraph(2))
	for i := 0; i < 4; i++ {
		fmt.Fprintf(&b, "- **%s**: %s\n", g.word(), g.sentence(6))
	}
	fmt.Fprintf(&b, "\n<Note>\n  %s\n</Note>\n\n", g.sentence(12))
	fmt.Fprintf(&b, "## Configure the %s\n\n| Option | Type | Default |\n| --- | --- | --- |\n", g.word())
	for i := 0; i < 4; i++ {
		fmt.Fprintf(&b, "| `%s` | string | `%s` |\n", g.word(), g.word())
	}
	b.WriteString("\n" + code())
	b.WriteString("<Steps>\n")
	for i := 0; i < 2; i++ {
		fmt.Fprintf(&b, "  <Step title=\"%s the %s\">\n    %s\n  </Step>\n", strings.ToUpper(g.word()[:1])+"et", g.word(), g.sentence(10))
	}
	b.WriteString("</Steps>\n\n")
	fmt.Fprintf(&b, "### Details\n\n%s\n\n<Accordion title=\"Why %s?\">\n  %s\n</Accordion>\n", g.paragraph(2), g.word(), g.sentence(10))
	return b.String()
}

// goBlock is a fenced Go block of a few random names.
func (g *gen) goBlock() string {
	return fmt.Sprintf("```go\nfunc %s(ctx context.Context, id string) error {\n\tif id == \"\" {\n\t\treturn errors.New(\"missing %s\")\n\t}\n\treturn client.%s(ctx, id)\n}\n```\n\n",
		g.word(), g.word(), strings.ToUpper(g.word()[:1]))
}

// generate writes the same pages twice: as an MDX docs source with docs.json
// and as a Hugo site of Markdown pages with an equivalent layout.
func generate(root string) (docs, hugo string, err error) {
	return generateTabs(filepath.Join(root, "docs"), filepath.Join(root, "hugo"), tabs)
}

// generateTabs writes the site with n tabs of guide pages (225 each)
// besides the API reference. Larger sites grow by tabs, grouped into
// products (productNav), as large products' docs do, so that a page's
// sidebar stays the size of a tab and its tab bar the size of a product.
func generateTabs(docs, hugo string, n int) (_, _ string, err error) {
	g := newGen(1, 2)
	navTabs, err := layout{n, groupsPerTab, pagesPerGroup}.navTabs("", func(key string, gr, p int) error {
		title := fmt.Sprintf("%s %s %d", strings.ToUpper(g.word()[:1])+g.word()[1:], g.word(), p)
		desc := g.sentence(10)
		body := g.body(pageKey(g.rng.IntN(n), g.rng.IntN(groupsPerTab), g.rng.IntN(pagesPerGroup)))
		return writeBoth(docs, hugo, key+".mdx", key, title, desc, body, gr*pagesPerGroup+p+1)
	})
	if err != nil {
		return "", "", err
	}
	apiTab, err := g.writeAPI(docs, hugo, apiTags)
	if err != nil {
		return "", "", err
	}
	if err := writeConfig(docs, hugo, productNav(navTabs, apiTab)); err != nil {
		return "", "", err
	}
	return docs, hugo, nil
}

// productNav is the navigation of these guide tabs and the API tab. Up to
// tabs guide tabs sit in one tab bar, as on the 2,000-page site. A larger
// site splits them into products of tabs guide tabs each, the API
// reference in the first, as products with tens of thousands of pages do:
// a page then carries its own product's tabs and sidebar, and the product
// switcher, so its navigation stays the same size as the site grows.
func productNav(guide []map[string]any, api map[string]any) map[string]any {
	if len(guide) <= tabs {
		return map[string]any{"tabs": append(guide, api)}
	}
	var products []map[string]any
	for i := 0; i < len(guide); i += tabs {
		ts := guide[i:min(i+tabs, len(guide))]
		if i == 0 {
			ts = append(ts[:len(ts):len(ts)], api)
		}
		products = append(products, map[string]any{"product": fmt.Sprintf("Product %d", i/tabs), "tabs": ts})
	}
	return map[string]any{"products": products}
}

// generateAPI writes the API reference alone under root/name: a spec of
// tags tags whose endpoint pages stand against Hugo's Markdown pages of
// the same content.
func generateAPI(root, name string, tags int) (docs, hugo string, err error) {
	docs, hugo = filepath.Join(root, name+"-docs"), filepath.Join(root, name+"-hugo")
	g := newGen(3, 4)
	apiTab, err := g.writeAPI(docs, hugo, tags)
	if err != nil {
		return "", "", err
	}
	return docs, hugo, writeConfig(docs, hugo, map[string]any{"tabs": []map[string]any{apiTab}})
}

// writeConfig writes docs.json with this navigation, and Hugo's
// configuration and layouts.
func writeConfig(docs, hugo string, nav map[string]any) error {
	cfg, err := json.MarshalIndent(map[string]any{
		"name": "Bench Docs", "colors": map[string]string{"primary": "#2563EB"},
		"navigation": nav,
	}, "", "  ")
	if err != nil {
		return err
	}
	if err := write(filepath.Join(docs, "docs.json"), string(cfg)); err != nil {
		return err
	}
	for name, text := range hugoFiles {
		if err := write(filepath.Join(hugo, name), text); err != nil {
			return err
		}
	}
	return nil
}

func write(p, text string) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(text), 0o644)
}
