package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The real shape: a site like the 24,667-page one of issue 44, languages
// of which one is written right to left, each holding every version, each
// version its guide tabs of groups and an API reference tab generated from
// the version's own spec (translated, so one per language and version).
// A guide page's code block is shared by its translations, as on real
// sites; everything else differs per language and version.
// Pages per division stay the same as divisions are added, so the time per
// page may only grow with the navigation a page carries.
const (
	shapeGuideTabs     = 3
	shapeGroupsPerTab  = 4
	shapePagesPerGroup = 14
	shapeAPITags       = 4
	// shapeRedirects is how many old paths each division redirects, as
	// sites that renamed pages across versions do.
	shapeRedirects = 5
)

// shapeLanguages are the site's languages; "ar" is written right to left.
var shapeLanguages = []string{"en", "fr", "ar", "ja"}

// shapeVersion names version v of versions, the newest first.
func shapeVersion(v, versions int) string { return fmt.Sprintf("v%d.0", versions-v) }

// generateShape writes the docs source of the real shape with the first
// langs languages of shapeLanguages and versions versions into docs.
func generateShape(docs string, langs, versions int) error {
	if langs < 1 || langs > len(shapeLanguages) || versions < 1 {
		return fmt.Errorf("real shape: want 1 to %d languages and at least one version, not %d and %d", len(shapeLanguages), langs, versions)
	}
	g := newGen(5, 6)
	// A page's code block is the same in each language of a version:
	// translators translate prose, not code. Versions differ.
	codeGen := newGen(7, 8)
	codes := map[string]string{} // version/page -> its code block
	var navLangs []map[string]any
	var redirects []map[string]string
	for _, lang := range shapeLanguages[:langs] {
		var navVersions []map[string]any
		for v := 0; v < versions; v++ {
			ver := shapeVersion(v, versions)
			div := lang + "/" + ver
			navTabs, err := layout{shapeGuideTabs, shapeGroupsPerTab, shapePagesPerGroup}.navTabs(div+"/", func(key string, _, p int) error {
				link := fmt.Sprintf("%s/%s", div, pageKey(g.rng.IntN(shapeGuideTabs), g.rng.IntN(shapeGroupsPerTab), g.rng.IntN(shapePagesPerGroup)))
				code := func() string {
					k := ver + "/" + strings.TrimPrefix(key, div+"/")
					if _, ok := codes[k]; !ok {
						codes[k] = codeGen.goBlock()
					}
					return codes[k]
				}
				return writeBoth(docs, "", key+".mdx", key, g.title(p), g.sentence(10), g.bodyWith(link, code), 0)
			})
			if err != nil {
				return err
			}
			spec := filepath.ToSlash(filepath.Join("specs", lang, ver, apiSpecFile))
			if err := g.writeSpec(filepath.Join(docs, spec), shapeAPITags); err != nil {
				return err
			}
			navTabs = append(navTabs, map[string]any{"tab": "API reference", "openapi": map[string]string{"source": spec, "directory": div + "/api-reference"}})
			for r := 0; r < shapeRedirects; r++ {
				redirects = append(redirects, map[string]string{
					"source":      fmt.Sprintf("/%s/old/%d", div, r),
					"destination": "/" + fmt.Sprintf("%s/%s", div, pageKey(r%shapeGuideTabs, r%shapeGroupsPerTab, r)),
				})
			}
			nv := map[string]any{"version": ver, "tabs": navTabs}
			if v == 0 {
				nv["tag"] = "Latest"
			}
			navVersions = append(navVersions, nv)
		}
		navLangs = append(navLangs, map[string]any{"language": lang, "versions": navVersions})
	}
	cfg, err := json.MarshalIndent(map[string]any{
		"name": "Shape Docs", "colors": map[string]string{"primary": "#2563EB"},
		"navigation": map[string]any{"languages": navLangs},
		"redirects":  redirects,
	}, "", "  ")
	if err != nil {
		return err
	}
	return write(filepath.Join(docs, "docs.json"), string(cfg))
}

// title is the title of the p-th page of a group.
func (g *gen) title(p int) string {
	w := g.word()
	return fmt.Sprintf("%s %s %d", strings.ToUpper(w[:1])+w[1:], g.word(), p)
}

// shapeCase exports the real shape at each of its sizes once, each in its
// own child process: "LxV" is L languages of V versions. It prints the
// rate against issue 44's 500 pages a second, the peak RSS against
// 512 MiB and, against the first size, how the time per page grew: it
// may grow no faster than linearly with the versions and languages, and
// the goal is that it does not grow at all beyond noise.
func shapeCase(self, root, sizes string, keep bool) error {
	type size struct{ langs, versions int }
	var ss []size
	for _, f := range strings.Split(sizes, ",") {
		var s size
		if _, err := fmt.Sscanf(strings.TrimSpace(f), "%dx%d", &s.langs, &s.versions); err != nil || s.langs < 1 || s.langs > len(shapeLanguages) || s.versions < 1 {
			return fmt.Errorf("-shape: %q is not LANGUAGESxVERSIONS with 1 to %d languages", f, len(shapeLanguages))
		}
		ss = append(ss, s)
	}
	var firstPerPage float64
	var firstDivs int
	for i, s := range ss {
		dir := filepath.Join(root, fmt.Sprintf("shape-%dx%d", s.langs, s.versions))
		docs := filepath.Join(dir, "docs")
		if err := generateShape(docs, s.langs, s.versions); err != nil {
			return err
		}
		var res childResult
		// As the server exports: into a spool, archived from there.
		use, err := measure(&res, self, append(childArgs(docs, filepath.Join(dir, "export")), "-spool")...)
		if err != nil {
			return fmt.Errorf("export of the %dx%d shape: %w", s.langs, s.versions, err)
		}
		if !keep {
			_ = os.RemoveAll(dir)
		}
		total := res.Export + res.Archive
		rate := float64(res.Pages) / total
		rss := float64(use.rssKiB) / 1024
		// The CPU time is what the run costs whatever else the machine
		// runs; spread over the benchmark machine's two cores, it is the
		// rate a quiet machine reaches at best.
		cpuRate := float64(res.Pages) / (res.CPU / 2)
		line := fmt.Sprintf("real shape %d languages x %d versions: %d pages, render %.2fs + archive %.2fs, %.0f pages/s %s, peak RSS %.0f MiB %s, cpu %.2fs, load %s\n  cpu %.2f ms a page (user+sys, render and archive): %.0f pages/s on two quiet cores %s\n  %s; allocated %.1f KiB a page, %d collections, peak heap %d MiB (objects, garbage not yet swept included)",
			s.langs, s.versions, res.Pages, res.Export, res.Archive, rate, goalAtLeast(rate, 500), rss, goalNote(rss <= containerMiB, fmt.Sprintf("<= %d MiB", containerMiB)), use.cpu, loadAvg(),
			res.CPU*1000/float64(res.Pages), cpuRate, goalAtLeast(cpuRate, 500),
			res.Phases, float64(res.AllocMiB)*1024/float64(res.Pages), res.GCs, res.HeapPeakMiB)
		for _, l := range res.Limited {
			line += "\n  NOT COMPARABLE, the export reached a limit: " + l
		}
		perPage := use.cpu / float64(res.Pages) // CPU: the wall time follows the machine's load
		if i == 0 {
			firstPerPage, firstDivs = perPage, s.langs*s.versions
		} else {
			grow := float64(s.langs*s.versions) / float64(firstDivs)
			r := perPage / firstPerPage
			line += fmt.Sprintf("\n  cpu per page against %d language-versions (x%.0f of them): x%.2f %s", firstDivs, grow, r, goalNote(r <= grow, fmt.Sprintf("linear or better, <= x%.0f", grow)))
		}
		fmt.Println(line)
	}
	return nil
}
