package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// incrCase times a re-export after a one-page change to the 2,000-page
// site through the reference server, against a full export of the same
// source (issue 44: at most 10 %). Each round changes one page, then
// exports it on a deployment with no earlier export (full) and on one
// exported before (incremental, which may reuse its previous export);
// the two alternate so they meet the same load, and the medians of wall
// and server CPU time count.
func incrCase(root string, runs int) error {
	docs, _, err := generateTabs(filepath.Join(root, "incr-docs"), filepath.Join(root, "incr-hugo"), tabs)
	if err != nil {
		return fmt.Errorf("generate site: %w", err)
	}
	const incrDomain = "incr." + siteDomain
	deps := []deployment{{incrDomain, docs, "air-gapped"}}
	for r := range runs {
		deps = append(deps, deployment{runDomain(r), docs, "air-gapped"})
	}
	srv, err := startAPIServer(root, "incr-apiserver", deps...)
	if err != nil {
		return err
	}
	defer srv.stop()
	if _, err := srv.export(incrDomain); err != nil { // the previous export
		return fmt.Errorf("first export: %w", err)
	}
	page := filepath.Join(docs, "tab0", "group0", "page0.mdx")
	var full, incr apiRuns
	for r := range runs {
		if err := appendTo(page, fmt.Sprintf("\n\nChanged in round %d.\n", r)); err != nil {
			return err
		}
		f, err := srv.export(runDomain(r))
		if err != nil {
			return fmt.Errorf("full export: %w", err)
		}
		i, err := srv.export(incrDomain)
		if err != nil {
			return fmt.Errorf("re-export: %w", err)
		}
		full.runs, incr.runs = append(full.runs, f), append(incr.runs, i)
	}
	fm, fcpu := full.median()
	im, icpu := incr.median()
	wall, cpu := im.wall/fm.wall, icpu/fcpu
	fmt.Printf("Re-export after a one-page change (%d pages, through the API, median of %d): %.2fs wall, %.2fs server CPU; full export %.2fs wall, %.2fs CPU\n",
		im.pages, runs, im.wall, icpu, fm.wall, fcpu)
	fmt.Printf("  re-export / full export: wall %.2f %s, CPU %.2f %s\n", wall, goalAtMost(wall, 0.10), cpu, goalAtMost(cpu, 0.10))
	return nil
}

// appendTo appends text to the file at path.
func appendTo(path, text string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
