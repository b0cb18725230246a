package export

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestComponentHeadings_toc: the h2 and h3 elements with an id that a
// page's own component writes are in the table of contents with the
// Markdown headings, in document order; a component heading whose id a
// Markdown heading has is renumbered on the page and in the contents, and
// one without an id (or an h4) is not listed. Before, the contents held
// only the Markdown headings.
func TestComponentHeadings_toc(t *testing.T) {
	src := fstest.MapFS{
		"docs.json": {Data: []byte(`{"name": "Acme", "navigation": {"pages": ["p"]}}`)},
		"p.mdx": {Data: []byte(`---
title: P
---

export const Plans = ({ name }) => (
  <section>
    <h2 id="plans">Plans for {name}</h2>
    <h3 id="setup">Set up</h3>
    <h3>No id</h3>
    <h4 id="deep">Deep</h4>
    <h2 id="intro">Intro again</h2>
  </section>
);

## Intro

<Plans name="teams" />

## Setup

Text.
`)},
	}
	dir, _ := exportTo(t, Request{Source: src})
	page := readOut(t, dir, "p.html")
	want := `<aside class="toc" aria-label="On this page"><p class="toc-title">On this page</p><ul>` +
		`<li class="toc-2"><a href="#intro">Intro</a></li>` +
		`<li class="toc-2"><a href="#plans">Plans for teams</a></li>` +
		`<li class="toc-3"><a href="#setup-2">Set up</a></li>` +
		`<li class="toc-2"><a href="#intro-2">Intro again</a></li>` +
		`<li class="toc-2"><a href="#setup">Setup</a></li></ul></aside>`
	if !strings.Contains(page, want) {
		i := strings.Index(page, `<aside class="toc"`)
		t.Fatalf("table of contents:\n%s\nwant\n%s", page[max(i, 0):], want)
	}
	for _, s := range []string{`<h3 id="setup-2">Set up</h3>`, `<h2 id="setup">`, `<h2 id="intro-2">Intro again</h2>`, `<h2 id="intro">`} {
		if strings.Count(page, s) != 1 {
			t.Errorf("page has %d of %s, want 1", strings.Count(page, s), s)
		}
	}
}
