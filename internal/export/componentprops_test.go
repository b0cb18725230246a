package export

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestExport_componentPropsDrawnOrWarned exports a page whose platform
// components use the props their pages document, and some the export
// does not draw: the documented ones are in the HTML, and each of the
// others is a warning naming the page and the line of its tag (counted
// from the top of the file, frontmatter included), in a block or inline.
func TestExport_componentPropsDrawnOrWarned(t *testing.T) {
	// The Badge is on line 5, the Card on 7, the Update on 11 (its rss
	// prop is its entry of the page's feed).
	page := `---
title: Props
---

Status: <Badge color="purple" shape="pill" className="beta" tone="loud">New</Badge> today.

<Card title="Typed" type="warning" cta="Go" href="/index">
  Body.
</Card>

<Update label="v2" tags={["API"]} rss={{"title": "x"}}>
  Changes.
</Update>

<Tooltip tip="Application Programming Interface" headline="API">API</Tooltip> docs.
`
	src := mapFS(map[string]string{
		"docs.json": `{"name": "C", "navigation": {"pages": ["index"]}}`,
		"index.mdx": page,
	})
	var warnings []string
	dir, _ := exportTo(t, Request{Source: src, Kind: KindCloud, Warn: func(wrn Warning) {
		if wrn.Kind == "content" {
			warnings = append(warnings, wrn.Message)
		}
	}})
	want := []string{
		`index.mdx: <Badge> on line 5 of index.mdx: "tone" is not a prop the platform documents for it; the export ignores it`,
	}
	if strings.Join(warnings, "\n") != strings.Join(want, "\n") {
		t.Errorf("content warnings:\n%s\nwant:\n%s", strings.Join(warnings, "\n"), strings.Join(want, "\n"))
	}
	if feed := readFile(t, filepath.Join(dir, "rss.xml")); !strings.Contains(feed, "<title><![CDATA[x]]></title>") {
		t.Errorf("the update's rss prop is not its feed entry:\n%s", feed)
	}
	got := readFile(t, filepath.Join(dir, "index.html"))
	for _, w := range []string{
		`<span class="badge badge-purple badge-pill beta">New</span>`,
		`<div class="card card-typed callout-warning">`, `<span class="card-cta">Go</span>`,
		`<span class="update-tag">API</span>`,
		`<span class="tooltip-tip" role="tooltip" data-headline="API" data-tip="Application Programming Interface">`,
	} {
		if !strings.Contains(got, w) {
			t.Errorf("index.html lacks %s", w)
		}
	}
}

// TestExport_componentPropsDrawnByCustomComponents: the platform's
// components that a custom component draws, and one whose attributes are
// expressions, have their props checked too: each prop not drawn is one
// warning naming the use's line (and the custom component), however
// often the component is used.
func TestExport_componentPropsDrawnByCustomComponents(t *testing.T) {
	page := `---
title: Props
---

export const Pair = ({ title }) => <Card title={title} glow="soft">Inside.</Card>;

<Pair title="One" />

<Pair title="Two" />

<Badge color={"pur" + "ple"} tone={"lo" + "ud"}>Evaluated</Badge>
`
	src := mapFS(map[string]string{
		"docs.json": `{"name": "C", "navigation": {"pages": ["index"]}}`,
		"index.mdx": page,
	})
	var mu sync.Mutex
	var warnings []string
	dir, _ := exportTo(t, Request{Source: src, Kind: KindCloud, Warn: func(wrn Warning) {
		if wrn.Kind == "content" {
			mu.Lock()
			warnings = append(warnings, wrn.Message)
			mu.Unlock()
		}
	}})
	want := []string{
		`index.mdx: <Card> on line 7 of index.mdx: "glow" is not a prop the platform documents for it; the export ignores it (drawn by <Pair>)`,
		`index.mdx: <Card> on line 9 of index.mdx: "glow" is not a prop the platform documents for it; the export ignores it (drawn by <Pair>)`,
		`index.mdx: <Badge> on line 11 of index.mdx: "tone" is not a prop the platform documents for it; the export ignores it`,
	}
	if strings.Join(warnings, "\n") != strings.Join(want, "\n") {
		t.Errorf("content warnings:\n%s\nwant:\n%s", strings.Join(warnings, "\n"), strings.Join(want, "\n"))
	}
	got := readFile(t, filepath.Join(dir, "index.html"))
	for _, w := range []string{`<span class="badge badge-purple">Evaluated</span>`, "Inside."} {
		if !strings.Contains(got, w) {
			t.Errorf("index.html lacks %s", w)
		}
	}
}
