package site

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
	"golang.org/x/text/unicode/norm"
)

// Frontmatter holds the page settings the exporter honours.
type Frontmatter struct {
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
	// RSS shows a link to the page's feed (a changelog's) by its title.
	RSS bool `yaml:"rss"`
	// Extra holds the other keys; the og: and twitter: ones become meta
	// tags of the page (metaTags).
	Extra map[string]any `yaml:",inline"`
}

// Page is one exported page.
type Page struct {
	Key   string // "guides/intro"
	File  string // "guides/intro.mdx"
	Out   string // "guides/intro.html"
	FM    Frontmatter
	Title string
	Body  []byte // source after the Frontmatter
	// BodyLine is the line of the file Body starts on, for messages.
	BodyLine int
	Mode     Mode
	// unlisted pages exist on disk but not in the navigation.
	Unlisted bool
	API      *openapi.Operation // the endpoint the page documents (made by the facade), or nil
	Schema   *openapi.SchemaRef // the data model the page documents (named by openapi-schema), or nil
}

// APIName names what an API page documents, for warnings: the spec file
// with the operation ("openapi.json POST /runs") or the data model.
func (p *Page) APIName() string {
	switch {
	case p.API != nil:
		return p.API.Spec.File + " " + p.API.Method + " " + p.API.Path
	case p.Schema != nil:
		return p.Schema.Spec.File + " schema " + p.Schema.Name
	}
	return "api " + p.FM.API
}

// NavTitle is the label of the page in the sidebar.
func (p *Page) NavTitle() string {
	if p.FM.SidebarTitle != "" {
		return p.FM.SidebarTitle
	}
	return p.Title
}

// SkipDir reports directories that never hold pages: snippets are only
// inlined, and dot or underscore folders hold tooling, not content.
func SkipDir(name string) bool {
	return name == "snippets" || name == "node_modules" ||
		strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

// ListPages maps each page key of src to its file. A .mdx file wins over a
// .md file of the same name, as the platform does. A page that is a link
// counts when its target is a file inside the source; a link out of the
// source is refused with a warning. Linked folders are not walked (a link
// may loop), though pages and files reached through them by a reference
// resolve like any other. More than maxFiles pages is an error.
func ListPages(src fs.FS, maxFiles int, warn func(string, ...any)) (map[string]string, error) {
	files := map[string]string{}
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && SkipDir(d.Name()) {
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

// PageFile finds the file of a page key with stats only, for the cheap
// request-time check. Files in folders that never hold pages (snippets
// and tooling) are not pages.
func PageFile(src fs.FS, key string) (string, bool) {
	dirs := strings.Split(key, "/")
	for _, d := range dirs[:len(dirs)-1] {
		if SkipDir(d) {
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

// LeadingHeading takes a first "# Title" line as the page title, so that
// plain Markdown pages without Frontmatter do not show their title twice.
func LeadingHeading(body []byte) (string, []byte) {
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

// TitleFromKey is the title of a page that has none: the last part of its
// key (its folder's, for an index page), with dashes and underscores as
// spaces and the first letter capitalized.
func TitleFromKey(key string) string {
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
