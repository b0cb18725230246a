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
	if p.API != nil {
		lead = append(lead, p.API.SearchText())
	} else if p.Schema != nil {
		lead = append(lead, p.Schema.SearchText())
	}
	if p.FM.Description != "" {
		lead = append(lead, p.FM.Description)
	}
	return machines.NewSearchEntry(p.Title, markup.Path("", p.Out, "").String(), lead, hs, content)
}
