package export

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/source"
	"golang.org/x/text/unicode/norm"
)

// frontmatter holds the page settings the exporter honours.
type frontmatter struct {
	Title        string `yaml:"title"`
	Description  string `yaml:"description"`
	SidebarTitle string `yaml:"sidebarTitle"`
	Icon         string `yaml:"icon"`
	IconType     string `yaml:"iconType"` // the Font Awesome style of Icon
	Hidden       bool   `yaml:"hidden"`
	Noindex      bool   `yaml:"noindex"`
	API          string `yaml:"api"`
	OpenAPI      string `yaml:"openapi"`
	// OpenAPISchema names a component schema the page documents.
	OpenAPISchema string `yaml:"openapi-schema"`
	// Playground overrides api.playground.display for this page.
	Playground string `yaml:"playground"`
	// Deprecated labels an API page, as the operation's own flag does.
	Deprecated bool `yaml:"deprecated"`
	// AuthMethod overrides api.mdx.auth.method on an MDX API page.
	AuthMethod string `yaml:"authMethod"`
	// Mode is the page's layout (mode.go).
	Mode string `yaml:"mode"`
	// Extra holds the other keys; the og: and twitter: ones become meta
	// tags of the page (metaTags).
	Extra map[string]any `yaml:",inline"`
}

// page is one exported page.
type page struct {
	key   string // "guides/intro"
	file  string // "guides/intro.mdx"
	out   string // "guides/intro.html"
	fm    frontmatter
	title string
	body  []byte // source after the frontmatter
	mode  pageMode
	// unlisted pages exist on disk but not in the navigation.
	unlisted bool
	api      *openapi.Operation // the endpoint the page documents (openapi_nav.go), or nil
	schema   *openapi.SchemaRef // the data model the page documents (openapi_schema_page.go), or nil
}

// apiName names what an API page documents, for warnings: the spec file
// with the operation ("openapi.json POST /runs") or the data model.
func (p *page) apiName() string {
	switch {
	case p.api != nil:
		return p.api.Spec.File + " " + p.api.Method + " " + p.api.Path
	case p.schema != nil:
		return p.schema.Spec.File + " schema " + p.schema.Name
	}
	return "api " + p.fm.API
}

// navTitle is the label of the page in the sidebar.
func (p *page) navTitle() string {
	if p.fm.SidebarTitle != "" {
		return p.fm.SidebarTitle
	}
	return p.title
}

// skipDir reports directories that never hold pages: snippets are only
// inlined, and dot or underscore folders hold tooling, not content.
func skipDir(name string) bool {
	return name == "snippets" || name == "node_modules" ||
		strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

// listPages maps each page key of src to its file. A .mdx file wins over a
// .md file of the same name, as the platform does. A page that is a link
// counts when its target is a file inside the source; a link out of the
// source is refused with a warning. Linked folders are not walked (a link
// may loop), though pages and files reached through them by a reference
// resolve like any other. More than maxFiles pages is an error.
func listPages(src fs.FS, maxFiles int, warn func(string, ...any)) (map[string]string, error) {
	files := map[string]string{}
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && skipDir(d.Name()) {
				return fs.SkipDir
			}
			return nil
		}
		ext := path.Ext(p)
		if ext != ".mdx" && ext != ".md" {
			return nil // other files are reported when a page refers to them
		}
		if d.Type()&fs.ModeSymlink != 0 {
			st, err := fs.Stat(src, p)
			switch {
			case docsjson.IsOutside(err):
				warn("%s: a link out of the docs source; refused", p)
				return nil
			case err != nil || !st.Mode().IsRegular():
				return nil
			}
		} else if !d.Type().IsRegular() {
			return nil
		}
		if len(files) >= maxFiles {
			return &docsjson.InputError{Msg: fmt.Sprintf("the source has more than the limit of %d pages", maxFiles)}
		}
		key := strings.TrimSuffix(p, ext)
		if old, ok := files[key]; !ok || strings.HasSuffix(old, ".md") {
			files[key] = p
		}
		return nil
	})
	var ie *docsjson.InputError
	if errors.As(err, &ie) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("list pages: %w", err)
	}
	dropFoldedTwins(files, warn)
	return files, nil
}

// dropFoldedTwins keeps one page of each set whose keys differ only by
// case or Unicode normalization (Guide and guide, café written composed
// and decomposed): unpacked on macOS or Windows, one file of the set
// would silently replace the other. The one kept is the same on every
// export: the composed (NFC) spelling first, then the first in byte
// order. The others are dropped with a warning naming both.
func dropFoldedTwins(files map[string]string, warn func(string, ...any)) {
	groups := map[string][]string{}
	for key := range files {
		fold := strings.ToLower(norm.NFC.String(key))
		groups[fold] = append(groups[fold], key)
	}
	for _, keys := range groups {
		if len(keys) < 2 {
			continue
		}
		slices.SortFunc(keys, func(a, b string) int {
			if na, nb := norm.NFC.IsNormalString(a), norm.NFC.IsNormalString(b); na != nb {
				if na {
					return -1
				}
				return 1
			}
			return strings.Compare(a, b)
		})
		for _, k := range keys[1:] {
			warn("%s and %s differ only by case or Unicode normalization, and one would replace the other on macOS and Windows; kept %s", files[keys[0]], files[k], files[keys[0]])
			delete(files, k)
		}
	}
}

// pageFile finds the file of a page key with stats only, for the cheap
// request-time check. Files in folders that never hold pages (snippets
// and tooling) are not pages.
func pageFile(src fs.FS, key string) (string, bool) {
	dirs := strings.Split(key, "/")
	for _, d := range dirs[:len(dirs)-1] {
		if skipDir(d) {
			return "", false
		}
	}
	for _, ext := range []string{".mdx", ".md"} {
		if st, err := fs.Stat(src, key+ext); err == nil && st.Mode().IsRegular() {
			return key + ext, true
		}
	}
	return "", false
}

// leadingHeading takes a first "# Title" line as the page title, so that
// plain Markdown pages without frontmatter do not show their title twice.
func leadingHeading(body []byte) (string, []byte) {
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if !bytes.HasPrefix(trimmed, []byte("# ")) {
		return "", body
	}
	end := bytes.IndexByte(trimmed, '\n')
	if end < 0 {
		end = len(trimmed)
	}
	title := strings.TrimSpace(string(trimmed[2:end]))
	return title, trimmed[end:]
}

func titleFromKey(key string) string {
	base := path.Base(key)
	if base == "index" && key != "index" {
		base = path.Base(path.Dir(key))
	}
	base = strings.NewReplacer("-", " ", "_", " ").Replace(base)
	if base == "" {
		return key
	}
	return strings.ToUpper(base[:1]) + base[1:]
}

// CheckPaths returns *InputError when a requested path is malformed or
// names no page of src. It reads docs.json and stats files only, so it is
// cheap enough to call while answering the start request.
func (e *Engine) CheckPaths(src fs.FS, paths []string) error {
	src, closeSrc, err := source.Confine(src)
	if err != nil {
		return err
	}
	defer closeSrc()
	src = source.WithIgnore(src)
	if _, err := loadConfig(src, e.limits, nil); err != nil {
		return err
	}
	return e.checkPaths(src, paths)
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
		if _, ok := pageFile(src, key); !ok {
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
