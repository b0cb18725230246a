package main

import (
	"fmt"
	"path/filepath"
	"strings"
)

// The rich corpus of issue 44: 2,000 plain Markdown pages (no components),
// each carrying a highlighted Go block, a table, a bulleted and a
// numbered list and a quote, written alike for the export and for Hugo.
// It stands beside the MDX corpus of gen.go, whose pages lean on
// components, because a different corpus moved the ratio to Hugo.
const (
	richTabs          = 8
	richGroupsPerTab  = 10
	richPagesPerGroup = 25
)

// richKinds are the deployment kinds the rich corpus is exported as, each
// against Hugo: the air-gapped kind rewrites every page for offline use,
// the cloud kind keeps remote content and scripts.
var richKinds = []string{"air-gapped", "cloud"}

// richTypes are the types of the options' table.
var richTypes = []string{"string", "int", "bool"}

// richBody is one page of the rich corpus; link points at another page.
func (g *gen) richBody(link string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s See [the %s guide](/%s).\n\n", g.paragraph(2), g.word(), link)
	fmt.Fprintf(&b, "## Set up the %s\n\n", g.word())
	for i := 0; i < 4; i++ {
		fmt.Fprintf(&b, "- **%s**: %s\n", g.word(), g.sentence(6))
	}
	b.WriteString("\n")
	for i := 1; i <= 3; i++ {
		fmt.Fprintf(&b, "%d. %s\n", i, g.sentence(8))
	}
	fmt.Fprintf(&b, "\n> %s\n\n", g.sentence(14))
	fmt.Fprintf(&b, "## Options of the %s\n\n| Option | Type | Default | Description |\n| --- | --- | --- | --- |\n", g.word())
	for i := 0; i < 5; i++ {
		fmt.Fprintf(&b, "| `%s` | %s | `%s` | %s |\n", g.word(), richTypes[i%len(richTypes)], g.word(), g.sentence(5))
	}
	name := strings.ToUpper(g.word()[:1]) + g.word()
	fmt.Fprintf(&b, "\n## Example\n\n```go\npackage main\n\nimport (\n\t\"context\"\n\t\"fmt\"\n)\n\n// %s reads the %s of id.\nfunc %s(ctx context.Context, id string, n int) (string, error) {\n\tif id == \"\" {\n\t\treturn \"\", fmt.Errorf(\"missing %s: %%d\", n)\n\t}\n\tfor i := 0; i < n; i++ {\n\t\tselect {\n\t\tcase <-ctx.Done():\n\t\t\treturn \"\", ctx.Err()\n\t\tdefault:\n\t\t}\n\t}\n\treturn id + \"-%s\", nil\n}\n```\n\n",
		name, g.word(), name, g.word(), g.word())
	fmt.Fprintf(&b, "### Notes\n\n%s\n", g.paragraph(3))
	return b.String()
}

// generateRich writes the rich corpus under root as an export source and
// as a Hugo site.
func generateRich(root string) (docs, hugo string, err error) {
	docs, hugo = filepath.Join(root, "rich-docs"), filepath.Join(root, "rich-hugo")
	g := newGen(7, 8)
	navTabs, err := layout{richTabs, richGroupsPerTab, richPagesPerGroup}.navTabs("", func(key string, gr, p int) error {
		title, desc := g.title(p), g.sentence(10)
		body := g.richBody(pageKey(g.rng.IntN(richTabs), g.rng.IntN(richGroupsPerTab), g.rng.IntN(richPagesPerGroup)))
		return writeBoth(docs, hugo, key+".md", key, title, desc, body, gr*richPagesPerGroup+p+1)
	})
	if err != nil {
		return "", "", err
	}
	return docs, hugo, writeConfig(docs, hugo, map[string]any{"tabs": navTabs})
}

// richCase times the export of the rich corpus through the API, once per
// kind of richKinds, against Hugo on the same pages; the sides alternate
// run by run and the median run of each counts. Issue 44's goal: at most
// half of Hugo's time for each kind.
func richCase(hugo, root string, runs int, keep bool) error {
	docs, hugoSite, err := generateRich(root)
	if err != nil {
		return fmt.Errorf("generate the rich corpus: %w", err)
	}
	deps := make([]deployment, len(richKinds))
	for i, k := range richKinds {
		deps[i] = deployment{domain: k + ".docs.example.com", docs: docs, kind: k}
	}
	srv, err := startAPIServer(root, "rich-apiserver", deps...)
	if err != nil {
		return err
	}
	defer srv.stop()
	viaAPI := make([]apiRuns, len(deps))
	var hug hugoRuns
	for r := 0; r < runs; r++ {
		for i, d := range deps {
			run, err := srv.export(d.domain)
			if err != nil {
				return fmt.Errorf("rich corpus, %s, through the API: %w", d.kind, err)
			}
			viaAPI[i].runs = append(viaAPI[i].runs, run)
		}
		if hugo == "" {
			continue
		}
		if err := hug.run(hugo, hugoSite, filepath.Join(root, fmt.Sprintf("rich-hugo-out-%d", r)), keep); err != nil {
			return fmt.Errorf("hugo on the rich corpus: %w", err)
		}
	}
	var hugoMed float64
	var hugoUse usage
	if hugo != "" {
		hugoMed, hugoUse = hug.median()
	}
	for i, d := range deps {
		med, cpu := viaAPI[i].median()
		line := fmt.Sprintf("rich corpus (%d Markdown pages, each a Go block, a table, lists and a quote), %s, through the API: median of %d runs %.2fs (%.0f pages/s; runs %s; server CPU %.2fs)",
			med.pages, d.kind, runs, med.wall, float64(med.pages)/med.wall, spread(viaAPI[i].walls()), cpu)
		if hugo == "" {
			line += ", hugo not measured (pass -hugo)"
		} else {
			line += fmt.Sprintf(", hugo median %.2fs (runs %s), ratio %.2f %s; cpu ratio %.2f; load %s",
				hugoMed, hug.spread(), med.wall/hugoMed, goalAtMost(med.wall/hugoMed, 0.5), cpu/hugoUse.cpu, loadAvg())
		}
		fmt.Println(line)
	}
	return nil
}
