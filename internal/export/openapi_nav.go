package export

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/site"
)

// defaultAPIDir is where generated endpoint pages live unless the
// navigation names a directory.
const defaultAPIDir = "api-reference"

// apiGen makes the endpoint pages the navigation asks for. It runs while
// the plan is made, on one goroutine.
type apiGen struct {
	specs  *openapi.Specs
	onDisk func(key string) bool
	warn   func(msg string, kv ...any)
	pages  map[string]*page
	byOp   map[*openapi.Operation]string
	named  []*openapi.Spec // specs named by the navigation, in order, for openapi-schema lookups
	warned map[string]bool
}

func newAPIGen(ss *openapi.Specs, onDisk func(string) bool, warn func(string, ...any)) *apiGen {
	return &apiGen{specs: ss, onDisk: onDisk, warn: warn, pages: map[string]*page{}, byOp: map[*openapi.Operation]string{}, warned: map[string]bool{}}
}

// Load returns the specs of ref, warning about those that fail.
func (g *apiGen) Load(ref docsjson.OpenAPIRef) []*openapi.Spec {
	var out []*openapi.Spec
	for _, f := range ref.Files {
		s, err := g.specs.Load(f)
		if err != nil {
			if !g.warned[f] {
				g.warned[f] = true
				g.warn("OpenAPI spec skipped", "error", err.Error())
			}
			continue
		}
		if !slices.Contains(g.named, s) {
			g.named = append(g.named, s)
		}
		out = append(out, s)
	}
	return out
}

// All returns navigation items for every operation of ref: pages grouped
// by their first tag, untagged ones first.
func (g *apiGen) All(ref docsjson.OpenAPIRef) []*site.Item {
	var items []*site.Item
	for _, s := range g.Load(ref) {
		groups := map[string]*site.Item{}
		for _, o := range s.Ops {
			key := g.page(o, ref.Dir)
			if o.Hidden {
				continue // the page exists; the sidebar does not list it
			}
			tags := o.Tags()
			if len(tags) == 0 {
				items = append(items, &site.Item{Page: key})
				continue
			}
			grp, ok := groups[tags[0]]
			if !ok {
				grp = &site.Item{Group: tagLabel(s, tags[0])}
				groups[tags[0]] = grp
				items = append(items, grp)
			}
			grp.Children = append(grp.Children, &site.Item{Page: key})
		}
	}
	return items
}

// tagLabel is the group name of a tag: its x-group, else the name.
func tagLabel(s *openapi.Spec, tag string) string {
	for _, t := range s.Root.List("tags") {
		if to, ok := t.(*openapi.Obj); ok && to.Str("name") == tag && to.Str("x-group") != "" {
			return to.Str("x-group")
		}
	}
	return tag
}

// One returns the page of a navigation entry such as "POST /users" or
// "specs/a.json GET /users", looked up in the inherited spec unless the
// entry names its own file.
func (g *apiGen) One(ref docsjson.OpenAPIRef, entry string) (string, bool) {
	file, opRef, _ := site.SplitEndpointRef(entry)
	if file != "" {
		ref = docsjson.OpenAPIRef{Files: []string{file}, Dir: ref.Dir}
	}
	for _, s := range g.Load(ref) {
		if o := s.Find(opRef); o != nil {
			return g.page(o, ref.Dir), true
		}
	}
	g.warn("navigation names an operation that no spec has; skipped", "entry", entry)
	return "", false
}

// operation resolves the openapi frontmatter of a page.
func (g *apiGen) operation(fm string) (*openapi.Operation, error) {
	file, opRef, ok := site.SplitEndpointRef(fm)
	if !ok {
		return nil, fmt.Errorf("openapi %q: want \"METHOD /path\", \"file METHOD /path\" or \"webhook name\"", fm)
	}
	if file != "" {
		s, err := g.specs.Load(file)
		if err != nil {
			return nil, err
		}
		if o := s.Find(opRef); o != nil {
			return o, nil
		}
		return nil, fmt.Errorf("openapi %q: %s has no such operation", fm, s.File)
	}
	// Without a file the platform searches every spec of the repository
	// in file name order, whatever the navigation names; so do we, so that
	// a page documents the same operation here as on the hosted site.
	if o := g.specs.Search(opRef); o != nil {
		return o, nil
	}
	return nil, fmt.Errorf("openapi %q: no spec of the source has this operation", fm)
}

// page returns the key of the generated page of o, making it once. Keys
// follow the platform: directory, tag, then the summary, made unique
// against files on disk and other generated pages.
func (g *apiGen) page(o *openapi.Operation, dir string) string {
	if k, ok := g.byOp[o]; ok {
		return k
	}
	if dir == "" {
		dir = defaultAPIDir
	}
	base := ""
	if href := o.Op.Sub("x-mint").Str("href"); href != "" {
		if k, ok := docsjson.CleanPagePath(strings.TrimPrefix(href, "/")); ok {
			base = k
		}
	}
	if base == "" {
		name := markup.Slug(o.Summary())
		if name == "" {
			name = markup.Slug(o.Method + " " + o.Path)
		}
		if tags := o.Tags(); len(tags) > 0 && markup.Slug(tags[0]) != "" {
			name = markup.Slug(tags[0]) + "/" + name
		}
		base = path.Join(strings.Trim(dir, "/"), name)
	}
	key := base
	for n := 2; g.onDisk(key) || g.pages[key] != nil; n++ {
		key = fmt.Sprintf("%s-%d", base, n)
	}
	p := &page{Key: key, File: o.Spec.File, Out: key + ".html", API: o}
	p.FM.Title = o.Summary()
	applyMetadata(&p.FM, o.Op.Sub("x-mint").Sub("metadata"))
	p.Title = p.FM.Title
	p.FM.Noindex = p.FM.Noindex || o.Hidden // nor do search and the sitemap
	// x-mint content goes through the MDX pipeline like a page's own body.
	p.Body = []byte(o.Op.Sub("x-mint").Str("content"))
	g.pages[key], g.byOp[o] = p, key
	return key
}

// generated returns the generated pages in key order.
func (g *apiGen) generated() []*page {
	out := make([]*page, 0, len(g.pages))
	for _, k := range sortedKeys(g.pages) {
		out = append(out, g.pages[k])
	}
	return out
}

// addAPIPages resolves the openapi frontmatter of pages read from disk and
// adds the generated pages, keeping pages sorted by key. An export limited
// to some paths gets no generated pages: the request names files.
func (j *pipeline) addAPIPages(pages []*page, g *apiGen) []*page {
	for _, p := range pages {
		if p.FM.OpenAPI == "" {
			continue
		}
		o, err := g.operation(p.FM.OpenAPI)
		if err != nil {
			j.warnings.detail("endpoint page shows no reference", "page", p.File, "error", err.Error())
			continue
		}
		p.API = o
	}
	j.resolveSchemaPages(pages, g)
	if len(j.req.Paths) > 0 || len(g.pages) == 0 {
		return pages
	}
	out := append(pages, g.generated()...)
	slices.SortFunc(out, func(a, b *page) int { return strings.Compare(a.Key, b.Key) })
	return out
}

// applyMetadata sets the frontmatter fields an operation's x-mint
// metadata overrides; "openapi" is not among them, as on the platform.
func applyMetadata(fm *frontmatter, meta *openapi.Obj) {
	for _, f := range []struct {
		key string
		to  *string
	}{{"title", &fm.Title}, {"sidebarTitle", &fm.SidebarTitle}, {"description", &fm.Description},
		{"icon", &fm.Icon}, {"playground", &fm.Playground}} {
		if v := meta.Str(f.key); v != "" {
			*f.to = v
		}
	}
	for _, f := range []struct {
		key string
		to  *bool
	}{{"noindex", &fm.Noindex}, {"deprecated", &fm.Deprecated}, {"hidden", &fm.Hidden}} {
		if meta.Flag(f.key) {
			*f.to = true
		}
	}
	if meta == nil {
		return
	}
	for _, k := range meta.Keys {
		if s := meta.Str(k); s != "" && (strings.HasPrefix(k, "og:") || strings.HasPrefix(k, "twitter:")) {
			if fm.Extra == nil {
				fm.Extra = map[string]any{}
			}
			fm.Extra[k] = s
		}
	}
}

// schema resolves the openapi-schema frontmatter of a page: a named file's
// schema, else the first spec named by the navigation that has it, else
// any spec of the source.
func (g *apiGen) schema(fm string) (*openapi.SchemaRef, error) {
	f := strings.Fields(fm)
	if len(f) == 0 {
		return nil, fmt.Errorf("openapi-schema %q: want \"Name\" or \"file Name\"", fm)
	}
	name, file := f[len(f)-1], strings.Join(f[:len(f)-1], " ")
	if file != "" {
		s, err := g.specs.Load(file)
		if err != nil {
			return nil, err
		}
		if !s.HasSchema(name) {
			return nil, fmt.Errorf("openapi-schema %q: %s has no schema %s in components.schemas", fm, s.File, name)
		}
		return &openapi.SchemaRef{Spec: s, Name: name}, nil
	}
	for _, s := range g.named {
		if s.HasSchema(name) {
			return &openapi.SchemaRef{Spec: s, Name: name}, nil
		}
	}
	for _, file := range g.specs.Files() {
		if s, err := g.specs.Load(file); err == nil && s.HasSchema(name) {
			return &openapi.SchemaRef{Spec: s, Name: name}, nil
		}
	}
	return nil, fmt.Errorf("openapi-schema %q: no spec of the source has a schema %s in components.schemas", fm, name)
}

// resolveSchemaPages attaches their schema to the pages that name one.
func (j *pipeline) resolveSchemaPages(pages []*page, g *apiGen) {
	for _, p := range pages {
		if p.FM.OpenAPISchema == "" {
			continue
		}
		r, err := g.schema(p.FM.OpenAPISchema)
		if err != nil {
			j.warnings.detail("schema page shows no reference", "page", p.File, "error", err.Error())
			continue
		}
		p.Schema = r
		if p.FM.Title == "" {
			p.Title = r.Name
		}
	}
}
