package export

import (
	"bytes"
	_ "embed" // githubJS
	"sync/atomic"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/components"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// githubJS fills the platform's GitHub cards in from GitHub's API.
//
//go:embed assets/github.js
var githubJS []byte

// githubCards notes whether any page of a cloud or client-hosted export
// has a GitHub card naming a repository: such pages load github.js,
// which the bundle then carries. An air-gapped bundle has neither.
type githubCards struct{ any atomic.Bool }

const githubScript = "_static/github.js"

// hasCard reports whether a page's content has a card to fill in.
func hasCard(content []byte) bool { return bytes.Contains(content, []byte(components.GitHubRepoAttr)) }

// with adds the card script to a page's content. prefix leads from the
// page to the bundle's root.
func (g *githubCards) with(content []byte, prefix markup.Prefix) []byte {
	g.any.Store(true)
	var b markup.Builder
	b.Markup(`<script src="`)
	b.URL(markup.Path(prefix, githubScript, ""))
	b.Markup(`" defer></script>`)
	return append(content, b.String()...)
}

// assets is the script, when a page loads it.
func (g *githubCards) assets() []bundleAsset {
	if !g.any.Load() {
		return nil
	}
	return []bundleAsset{{githubScript, func() ([]byte, error) { return githubJS, nil }}}
}
