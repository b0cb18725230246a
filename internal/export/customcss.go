package export

import (
	"io/fs"
	"path"
	"sort"
	"strings"
)

// maxCustomCSS bounds the stylesheets of a source linked on every page;
// past it the rest are reported and left out.
const maxCustomCSS = 64

// customCSS lists the .css files of the docs source, which the platform
// includes on every page (customize/custom-scripts.mdx): sorted, so every
// page links them in one order, and without hidden folders or
// node_modules, which hold no stylesheets of the site.
func (j *pipeline) customCSS() []string {
	var out []string
	_ = fs.WalkDir(j.src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable folder holds nothing to link
		}
		name := d.Name()
		if d.IsDir() {
			if p != "." && (strings.HasPrefix(name, ".") || name == "node_modules") {
				return fs.SkipDir
			}
			return nil
		}
		if strings.EqualFold(path.Ext(name), ".css") && d.Type().IsRegular() {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	if len(out) > maxCustomCSS {
		j.warnings.add(WarnLimit, "the source has %d .css files; the first %d (by path) are linked on every page, the rest are left out: %s",
			len(out), maxCustomCSS, listSome(out[maxCustomCSS:]))
		out = out[:maxCustomCSS]
	}
	return out
}
