package export

import (
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/site"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/source"
)

// The site model (the page list and the navigation tree) is package
// site's; the facade names its page types as it did before the cut.
type (
	page        = site.Page
	frontmatter = site.Frontmatter
)

// CheckPaths returns *InputError when a requested path is malformed or
// names no page of src. It looks up one file per path and reads none:
// its cost follows the request, never the source, so it may answer a
// start request. docs.json is the export's to load (in its worker,
// within its bounds), and one that does not load fails the job.
func (e *Engine) CheckPaths(src fs.FS, paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	src, closeSrc, err := source.Confine(src)
	if err != nil {
		return err
	}
	defer closeSrc()
	return e.checkPaths(source.WithIgnore(src), paths)
}

// checkPaths is CheckPaths on a source already confined and configured.
func (e *Engine) checkPaths(src fs.FS, paths []string) error {
	var bad, missing []string
	for _, p := range paths {
		key, ok := docsjson.CleanPagePath(p)
		if !ok {
			bad = append(bad, fmt.Sprintf("%q", p))
			continue
		}
		if _, ok := site.PageFile(src, key); !ok {
			missing = append(missing, fmt.Sprintf("%q", p))
		}
	}
	switch {
	case len(bad) > 0:
		return &docsjson.InputError{Msg: fmt.Sprintf("invalid paths %s: a path is relative to the docs root, without \"..\", a leading slash or a scheme", strings.Join(bad, ", "))}
	case len(missing) > 0:
		return &docsjson.InputError{Msg: fmt.Sprintf("paths name no page of the docs source: %s", strings.Join(missing, ", "))}
	}
	return nil
}

// sortedKeys returns the keys of m in order, for deterministic output.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
