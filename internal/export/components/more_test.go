package components

import "testing"

// TestMoreComponents: each component of the platform's pages that the
// first set lacked draws as its page describes it.
func TestMoreComponents(t *testing.T) {
	checkDrawn(t, []drawCase{
		{"Visibility", map[string]string{"for": "humans"}, []string{`<div class="visibility-humans">`, `</div>`}, []string{"hidden"}},
		{"Visibility", map[string]string{"for": "agents"}, []string{`<div class="visibility-agents" hidden>`}, nil},
		{"View", map[string]string{"title": "Python", "icon": "python"}, []string{`<section class="view-panel" data-title="Python">`, `<p class="view-title">`, "Python</p>", "</section>"}, nil},
		{"Tile", map[string]string{"href": "/a", "title": "One", "description": "Short"},
			[]string{`<a class="tile" href="/a"><div class="tile-preview">`, `</div><p class="tile-title">One</p><p class="tile-desc">Short</p></a>`}, nil},
		{"Tile", map[string]string{"href": "javascript:alert(1)", "title": "Bad"}, []string{`<div class="tile">`}, []string{"javascript"}},
		{"Prompt", map[string]string{"description": "Write docs."}, []string{`<div class="prompt"><div class="prompt-head">`, `<span class="prompt-desc">Write docs.</span>`, `<button class="copy prompt-copy" type="button">Copy</button>`, `<div class="prompt-body">`}, nil},
		{"Prompt", map[string]string{"description": "D", "actions": `["cursor"]`}, []string{`<div class="prompt-body">`}, []string{"<button", warns}},
		{"Color", map[string]string{"variant": "table"}, []string{`<div class="color-palette color-table">`}, nil},
		{"Color.Row", map[string]string{"title": "Primary"}, []string{`<p class="color-row-title">Primary</p>`}, nil},
		{"Color.Item", map[string]string{"name": "blue-500", "value": "#3B82F6"},
			[]string{`<span class="color-swatch" style="--swatch:#3B82F6;--swatch-dark:#3B82F6">`, `<span class="color-name">blue-500</span>`, `<code class="color-value">#3B82F6</code>`}, nil},
		{"Color.Item", map[string]string{"name": "bg", "value": `{"light":"#FFFFFF","dark":"#000000"}`},
			[]string{`style="--swatch:#FFFFFF;--swatch-dark:#000000"`, `#FFFFFF / #000000`}, nil},
		{"Color.Item", map[string]string{"name": "x", "value": `red;background:url(https://x.example/)`}, []string{`<span class="color-swatch">`}, []string{"style="}},
		{"Panel", nil, []string{`<aside class="side-panel">`, `</aside>`}, nil},
		{"GitHub.Repo", map[string]string{"repo": "https://github.com/mintlify/docs", "variant": "flat"},
			[]string{`<div class="github-repo github-flat" data-github-repo="mintlify/docs">`, `<a class="github-repo-link" href="https://github.com/mintlify/docs">mintlify/docs</a>`, `<p class="github-repo-counts" hidden>`}, nil},
		{"GitHub.Repo", map[string]string{"repo": `a"/b`}, []string{`<div class="github-repo github-inset">`}, []string{"<a", "data-github-repo"}},
		{"Column", nil, []string{`<div class="column">`}, nil},
		{"FileTree", nil, []string{`<ul class="tree">`}, nil},
	})
}
