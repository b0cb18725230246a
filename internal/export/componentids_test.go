package export

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestExport_stepAndAccordionIDs: a step or an accordion written without
// an id gets one from its title, numbered apart from the page's headings
// and from each other, with the step's anchor link following its id; a
// step whose title is a heading (h2, h3) is in the table of contents,
// one whose title is a paragraph is not; an id the author wrote is kept.
// An update's label is its anchor, by the heading rules, and an entry of
// the contents list.
func TestExport_stepAndAccordionIDs(t *testing.T) {
	index := "---\ntitle: Setup\n---\n\n## Install\n\nText.\n\n" +
		"<Steps titleSize=\"h2\">\n  <Step title=\"Install\">\n    First.\n  </Step>\n  <Step title=\"Configure\">\n    Second.\n  </Step>\n</Steps>\n\n" +
		"<Steps>\n  <Step title=\"Install\">\n    Again.\n  </Step>\n</Steps>\n\n" +
		"<Accordion title=\"Install\">\n  Folded.\n</Accordion>\n\n" +
		"<Accordion title=\"Mine\" id=\"my-own\">\n  Folded too.\n</Accordion>\n\n" +
		"<Update label=\"What's new\">\n  One.\n</Update>\n\n<Update label=\"What's new\">\n  Two.\n</Update>\n"
	dir, _ := exportTo(t, Request{Kind: KindAirGapped, Source: mapFS(map[string]string{
		"docs.json": `{"name": "S", "navigation": {"pages": ["index"]}}`,
		"index.mdx": index,
	})})
	page := readFile(t, filepath.Join(dir, "index.html"))
	ids := regexp.MustCompile(` id="([^"]+)"`).FindAllStringSubmatch(page[strings.Index(page, `<div class="prose">`):], -1)
	var got []string
	for _, m := range ids {
		got = append(got, m[1])
	}
	want := []string{"install", "install-2", "configure", "install-3", "install-4", "my-own", "what’s-new", "what’s-new-2"}
	if !slices.Equal(got, want) {
		t.Errorf("ids in the content: %q, want %q", got, want)
	}
	for _, frag := range []string{
		`<h2 class="step-title" id="install-2">Install<a class="step-anchor" href="#install-2"`,
		`<h2 class="step-title" id="configure">Configure<a class="step-anchor" href="#configure"`,
		`<li class="step" id="install-3"><p class="step-title">Install<a class="step-anchor" href="#install-3"`,
		`<details class="accordion" id="install-4">`,
		`<details class="accordion" id="my-own">`,
	} {
		if !strings.Contains(page, frag) {
			t.Errorf("no %s in the page", frag)
		}
	}
	toc := page[strings.Index(page, `<aside class="toc"`):]
	toc = toc[:strings.Index(toc, "</aside>")]
	entries := regexp.MustCompile(`href="#([^"]+)">([^<]*)<`).FindAllStringSubmatch(toc, -1)
	var tocGot []string
	for _, e := range entries {
		tocGot = append(tocGot, e[1]+" "+e[2])
	}
	if want := []string{"install Install", "install-2 Install", "configure Configure", "what’s-new What&#39;s new", "what’s-new-2 What&#39;s new"}; !slices.Equal(tocGot, want) {
		t.Errorf("table of contents: %q, want %q", tocGot, want)
	}
}
