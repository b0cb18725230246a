package export

import (
	"fmt"
	"io"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/airgap"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/source"
)

// offliner takes remote content out of what an air-gapped bundle holds:
// rendered markup, pages and the source's stylesheets, warning about
// what it replaced. Its receiver is named j, as these methods were the
// pipeline's, so their bodies stay as they were.
type offliner struct {
	base   string // the live site's base path (Request.BasePath), or ""
	warn   func(format string, args ...any)
	budget *source.Budget // the export's, charged for copied stylesheets
	out    *bundleOut
}

// offline applies offlineHTML to markup of the bundle file named file and
// reports what it replaced, once per file. Whatever renders HTML into an
// air-gapped page outside the page's Markdown content runs it through
// here too.
func (j *offliner) offline(file string, prefix markup.Prefix, h markup.HTML) markup.HTML {
	// airgap.HTML only takes elements and attributes out, puts
	// placeholders built through markup in their place, and makes
	// root-relative CSS url()s relative.
	return markup.Rendered(string(j.offlineBytes(file, prefix, []byte(h.String()))))
}

// offlineBytes is offline for rendered page content; prefix leads from
// the page to the bundle root.
func (j *offliner) offlineBytes(file string, prefix markup.Prefix, content []byte) []byte {
	out, urls := airgap.HTML(content, string(prefix), j.base)
	if len(urls) > 0 {
		j.warn("%s: remote content replaced (%d: %s); air-gapped pages load nothing from outside the bundle", file, len(urls), listSome(urls))
	}
	return out
}

// listSome joins up to five distinct items, enough to find the rest by,
// and says how many more there are.
func listSome(items []string) string {
	const n = 5
	seen := map[string]bool{}
	var some []string
	more := 0
	for _, it := range items {
		if seen[it] {
			continue
		}
		seen[it] = true
		if len(some) < n {
			some = append(some, it)
		} else {
			more++
		}
	}
	s := strings.Join(some, ", ")
	if more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s
}

// copyOfflineCSS copies a stylesheet of the source into an air-gapped
// bundle without its remote url()s and @imports.
func (j *offliner) copyOfflineCSS(rel string, in io.Reader, lim int64) error {
	data, err := io.ReadAll(io.LimitReader(in, lim+1))
	if err != nil {
		return fmt.Errorf("copy %s: %w", rel, err)
	}
	if int64(len(data)) > lim {
		return source.TooLarge(rel, "the file", int64(len(data)), lim)
	}
	if err := j.budget.Take(rel, int64(len(data))); err != nil {
		return err
	}
	css, urls := airgap.CSS(string(data), string(markup.RootPrefix(rel)), j.base)
	if len(urls) > 0 {
		j.warn("%s: remote content replaced (%d: %s); air-gapped pages load nothing from outside the bundle", rel, len(urls), listSome(urls))
	}
	return j.out.write(rel, []byte(css))
}
