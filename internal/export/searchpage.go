package export

import (
	"fmt"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/machines"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/uitext"
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

// englishUI reports whether pages in interface language u are English,
// whose words the search index stems (machines.Stem).
func englishUI(u uitext.Text) bool {
	c := strings.ToLower(u.Code())
	return c == "en" || strings.HasPrefix(c, "en-")
}

// writeSearch writes the search index's scripts (built page by page in
// pipeline.go), the manifest and its shards.
func (j *pipeline) writeSearch(written map[string]bool) error {
	var werr error // the output's error, told from the index's own
	err := j.search.Write(func(f machines.SearchFile) error {
		if werr = j.out.write(f.Path, f.Data); werr != nil {
			return werr
		}
		written[f.Path] = true
		return nil
	})
	switch {
	case werr != nil:
		return werr
	case err != nil:
		return fmt.Errorf("generate search index: %w", err)
	}
	return nil
}
