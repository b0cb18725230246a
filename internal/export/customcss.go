package export

import (
	"io/fs"
	"path"
	"sort"
	"strings"
)

// maxCustomFiles bounds the stylesheets, and the scripts, of a source
// included on every page; past it the rest are reported and left out.
const maxCustomFiles = 64

// customCSS lists the .css files of the docs source, which the platform
// includes on every page (customize/custom-scripts.mdx).
func (j *pipeline) customCSS() []string {
	return j.customFiles(".css")
}

// customJS lists the .js files of the docs source, which the platform
// runs on every page of a site (customize/custom-scripts.mdx § Custom
// JavaScript); not in the snippets folder, whose .js files are
// components pages import. An air-gapped bundle runs no code of the
// source's own: there they are left out, with a warning.
func (j *pipeline) customJS() []string {
	out := j.customFiles(".js")
	if j.kind == KindAirGapped && len(out) > 0 {
		j.warnings.add(WarnContent, "the source's custom JavaScript (%s) is left out: an air-gapped bundle runs no script of its source", listSome(out))
		return nil
	}
	return out
}

// customFiles lists the files of the docs source with extension ext:
// sorted, so every page includes them in one order, and without hidden
// folders, node_modules or snippets, which hold none of the site's own.
func (j *pipeline) customFiles(ext string) []string {
	var out []string
	_ = fs.WalkDir(j.src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable folder holds nothing to include
		}
		name := d.Name()
		if d.IsDir() {
			if p != "." && (strings.HasPrefix(name, ".") || name == "node_modules" || (p == "snippets" && ext == ".js")) {
				return fs.SkipDir
			}
			return nil
		}
		if strings.EqualFold(path.Ext(name), ext) && d.Type().IsRegular() {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	if len(out) > maxCustomFiles {
		j.warnings.add(WarnLimit, "the source has %d %s files; the first %d (by path) are included on every page, the rest are left out: %s",
			len(out), ext, maxCustomFiles, listSome(out[maxCustomFiles:]))
		out = out[:maxCustomFiles]
	}
	return out
}
