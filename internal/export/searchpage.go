package export

import (
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/machines"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
)

// searchEntry is one page in the offline search index (machines.SearchEntry).
type searchEntry = machines.SearchEntry

// newSearchEntry is page p's entry in the search index: readers search
// endpoints by path and parameter names too, and a page's description
// belongs to its lead.
func newSearchEntry(p *page, hs []mdx.Heading, content []byte) searchEntry {
	lead := []string{}
	if p.api != nil {
		lead = append(lead, p.api.SearchText())
	} else if p.schema != nil {
		lead = append(lead, p.schema.SearchText())
	}
	if p.fm.Description != "" {
		lead = append(lead, p.fm.Description)
	}
	return machines.NewSearchEntry(p.title, markup.Path("", p.out, "").String(), lead, hs, content)
}
