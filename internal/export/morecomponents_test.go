package export

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestExport_moreComponents exports a page written with each component of
// the platform's pages that the export first lacked, in the forms those
// pages show: none is reported as unknown, and each draws its part.
func TestExport_moreComponents(t *testing.T) {
	page := "# Components\n\n" +
		"<Visibility for=\"humans\">\n  <Note>\n    For **people**.\n  </Note>\n</Visibility>\n\n" +
		"<Visibility for=\"agents\">\n  > For agents.\n</Visibility>\n\n" +
		"<View title=\"Python\" icon=\"python\">\n  Only Python.\n  ```python\n  print(1)\n  ```\n</View>\n\n" +
		"<Columns cols={2}>\n  <Tile href=\"/index\" title=\"Tile one\" description=\"Short\">\n    <img src=\"/a.png\" alt=\"Preview\" />\n  </Tile>\n" +
		"  <Column>\n\n  **Usage**\n\n  </Column>\n</Columns>\n\n" +
		"<Prompt description=\"Write docs.\" actions={[\"copy\", \"cursor\"]}>\nYou are a **writer**.\n- Be brief.\n</Prompt>\n\n" +
		"<Color variant=\"table\">\n  <Color.Row title=\"Primary\">\n    <Color.Item name=\"primary-500\" value=\"#3B82F6\" />\n  </Color.Row>\n</Color>\n\n" +
		"<Color variant=\"compact\">\n  <Color.Item name=\"bg\" value={{ light: \"#FFFFFF\", dark: \"#000000\" }} />\n</Color>\n\n" +
		"<Panel>\n  <Info>Pinned.</Info>\n</Panel>\n\n" +
		"<GitHub.Repo repo=\"mintlify/docs\" variant=\"flat\" />\n"
	src := mapFS(map[string]string{
		"docs.json": `{"name": "C", "navigation": {"pages": ["index"]}}`,
		"index.mdx": page,
		"a.png":     "png",
	})
	var warnings []string
	dir, _ := exportTo(t, Request{Source: src, Kind: KindCloud, Warn: func(wrn Warning) { m := wrn.Message; warnings = append(warnings, m) }})
	for _, w := range warnings {
		if strings.Contains(w, "neither a component") || strings.Contains(w, "could not") {
			t.Errorf("warning: %s", w)
		}
	}
	got := readFile(t, filepath.Join(dir, "index.html"))
	for _, want := range []string{
		`<div class="visibility-humans">`, "For <strong>people</strong>.",
		`<div class="visibility-agents" hidden>`,
		`<section class="view-panel" data-title="Python">`, "Only Python.",
		`<a class="tile" href="index.html"><div class="tile-preview">`, `<p class="tile-title">Tile one</p>`,
		`<div class="column">`, "<strong>Usage</strong>",
		`<div class="prompt">`, `<button class="copy prompt-copy"`, "You are a <strong>writer</strong>.", "<li>Be brief.</li>",
		`<p class="color-row-title">Primary</p>`, `style="--swatch:#3B82F6;--swatch-dark:#3B82F6"`,
		`style="--swatch:#FFFFFF;--swatch-dark:#000000"`,
		`<aside class="toc toc-panel"><div class="panel-content prose">`, "Pinned.",
		`<a class="github-repo-link" href="https://github.com/mintlify/docs">mintlify/docs</a>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("index.html lacks %s", want)
		}
	}
}
