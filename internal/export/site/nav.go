package site

import (
	"fmt"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/uitext"
)

// Division is one node of the navigation above the sidebar: the root, a
// language, a version, a product, a tab, a menu item, a dropdown or an
// anchor. Divisions that hold
// groups or pages are sections: a page's section decides its sidebar.
type Division struct {
	Kind     string // "root", "language", "version", "product", "tab", "menu", "dropdown", "anchor"
	Label    string // a language's name in that language (languageName)
	Lang     string // a language's code as docs.json writes it
	Icon     docsjson.Icon
	Tag      string
	Desc     string           // shown under the label in a product or menu switcher
	Href     string           // external or site link instead of content
	Default  bool             // the version the site opens on
	Navbar   *docsjson.Navbar // the language's own top bar links, nil for the site's
	Footer   *docsjson.Footer
	Banner   *docsjson.Banner
	Parent   *Division
	Children []*Division
	Items    []*Item
	Index    int    // position among the sections, -1 when not a section
	First    string // key of the first exported page below, "" when none
}

// Item is a page or a group inside a section's sidebar.
type Item struct {
	Page     string // page key; empty for a group
	Group    string
	Icon     docsjson.Icon
	Tag      string
	Root     string // page key a group's title links to
	Hidden   bool
	Expanded bool // a nested group shown open before the reader opens it
	// Directory ("accordion" or "card") lists the group's entries below
	// the content of its root page.
	Directory string
	Children  []*Item
}

// Tree is the navigation after docs.json has been resolved against the
// files of the source.
type Tree struct {
	Root      *Division
	Sections  []*Division
	Global    []*Division // anchors and tabs shown on every page
	Order     []string    // page keys in reading order, for previous/next
	SectionOf map[string]*Division
	Missing   []string            // navigation entries whose file does not exist
	BadIcons  []string            // entries whose icon or tag has no documented form
	DirOf     map[string]*Item    // root page key -> its group, when the group lists its entries
	Crumbs    map[string][]string // page key -> the division and group labels above it
	api       Endpoints           // makes the pages of openapi entries; nil disables them
}

// Build resolves the navigation of c. exists reports whether a page key
// names a file of the source; api, if not nil, makes the pages that
// "openapi" entries ask for.
func Build(c *docsjson.Config, exists func(string) bool, api Endpoints) *Tree {
	t := &Tree{SectionOf: map[string]*Division{}, api: api}
	t.Root = t.division(&c.Navigation, "root", nil, exists, inherited{})
	if g := c.Navigation.Global; g != nil {
		for i := range g.Anchors {
			t.Global = append(t.Global, t.division(&g.Anchors[i], "anchor", nil, exists, inherited{}))
		}
		for i := range g.Tabs {
			t.Global = append(t.Global, t.division(&g.Tabs[i], "tab", nil, exists, inherited{}))
		}
	}
	return t
}

// inherited are the settings a navigation element passes to the ones
// inside it unless they set their own: the OpenAPI spec and the
// directory listing of group root pages.
type inherited struct {
	spec docsjson.OpenAPIRef
	dir  string
}

// inherit is what a navigation element uses: its own settings, else its
// parent's.
func (t *Tree) inherit(n *docsjson.NavNode, parent inherited) inherited {
	in := parent
	if n.OpenAPI.Set() {
		if t.api != nil {
			t.api.Load(n.OpenAPI) // a spec that does not parse is reported even if unused
		}
		in.spec = n.OpenAPI
	}
	if n.Directory != "" {
		in.dir = n.Directory
	}
	return in
}

// generateAll reports whether n asks for a page per operation: it names
// a spec and picks none of its operations itself. A node listing only
// pages (an introduction next to the spec) gets them first and then every
// operation, as on the platform; one that lists operations ("GET /runs")
// or nested groups has chosen what it shows.
func (t *Tree) generateAll(n *docsjson.NavNode) bool {
	if t.api == nil || !n.OpenAPI.Set() || len(n.Groups) > 0 {
		return false
	}
	for _, e := range n.Pages {
		if e.Group != nil || IsEndpointEntry(e.Page) {
			return false
		}
	}
	return true
}

func (t *Tree) division(n *docsjson.NavNode, kind string, parent *Division, exists func(string) bool, in inherited) *Division {
	t.checkIcon(n)
	d := &Division{Kind: kind, Label: n.Label(), Icon: n.Icon, Tag: n.Tag.Text, Href: n.Href, Default: n.Default, Parent: parent, Index: -1,
		Navbar: n.Navbar, Footer: n.Footer, Banner: n.Banner, Desc: n.Description}
	if kind == "language" && n.Language != "" {
		d.Lang, d.Label = n.Language, uitext.LanguageName(n.Language)
	}
	in = t.inherit(n, in)
	for _, g := range n.Groups {
		if it := t.group(&g, exists, in); it != nil {
			d.Items = append(d.Items, it)
		}
	}
	t.pages(n.Pages, &d.Items, exists, in)
	if t.generateAll(n) && len(n.Languages)+len(n.Versions)+len(n.Products)+len(n.Tabs)+len(n.Menu)+len(n.Dropdowns)+len(n.Anchors) == 0 {
		d.Items = append(d.Items, t.api.All(in.spec)...)
	}
	if len(d.Items) > 0 {
		d.Index = len(t.Sections)
		t.Sections = append(t.Sections, d)
		t.walkOrder(d, d.Items)
	}
	levels := []struct {
		kind  string
		nodes []docsjson.NavNode
	}{{"language", n.Languages}, {"version", n.Versions}, {"product", n.Products}, {"tab", n.Tabs}, {"menu", n.Menu},
		{"dropdown", n.Dropdowns}, {"anchor", n.Anchors}}
	for _, l := range levels {
		for i := range l.nodes {
			d.Children = append(d.Children, t.division(&l.nodes[i], l.kind, d, exists, in))
		}
	}
	return d
}

// checkIcon notes an entry whose icon is neither a name nor the object
// form: it is shown without one, and the export says so.
func (t *Tree) checkIcon(n *docsjson.NavNode) {
	if n.Icon.Invalid != "" {
		t.BadIcons = append(t.BadIcons, fmt.Sprintf("%q (%s)", n.Label(), n.Icon.Invalid))
	}
	if n.Tag.Invalid != "" {
		t.BadIcons = append(t.BadIcons, fmt.Sprintf("%q tag (%s)", n.Label(), n.Tag.Invalid))
	}
}

func (t *Tree) group(n *docsjson.NavNode, exists func(string) bool, in inherited) *Item {
	in = t.inherit(n, in)
	t.checkIcon(n)
	it := &Item{Group: n.Group, Icon: n.Icon, Tag: n.Tag.Text, Hidden: n.Hidden, Expanded: n.Expanded}
	if in.dir == "accordion" || in.dir == "card" {
		it.Directory = in.dir
	}
	if n.Root != "" {
		if key, ok := t.resolve(n.Root, exists); ok {
			it.Root = key
		}
	}
	for _, g := range n.Groups {
		if c := t.group(&g, exists, in); c != nil {
			it.Children = append(it.Children, c)
		}
	}
	t.pages(n.Pages, &it.Children, exists, in)
	if t.generateAll(n) {
		it.Children = append(it.Children, t.api.All(in.spec)...)
	}
	if len(it.Children) == 0 && it.Root == "" {
		return nil
	}
	return it
}

func (t *Tree) pages(entries []docsjson.NavEntry, into *[]*Item, exists func(string) bool, in inherited) {
	for _, e := range entries {
		if e.Group != nil {
			if it := t.group(e.Group, exists, in); it != nil {
				*into = append(*into, it)
			}
			continue
		}
		if t.api != nil && IsEndpointEntry(e.Page) {
			if key, ok := t.api.One(in.spec, e.Page); ok {
				*into = append(*into, &Item{Page: key})
			}
			continue
		}
		if key, ok := t.resolve(e.Page, exists); ok {
			*into = append(*into, &Item{Page: key})
		}
	}
}

// resolve turns a navigation entry into a page key, recording entries that
// name no file so the caller can report them.
func (t *Tree) resolve(ref string, exists func(string) bool) (string, bool) {
	key, ok := docsjson.CleanPagePath(strings.TrimPrefix(ref, "/"))
	if ok && exists(key) {
		return key, true
	}
	t.Missing = append(t.Missing, ref)
	return "", false
}

// walkOrder records reading order and each page's section; the first
// occurrence of a page wins, as a page listed twice has one home.
func (t *Tree) walkOrder(d *Division, items []*Item) {
	for _, it := range items {
		for _, key := range []string{it.Root, it.Page} {
			if key == "" {
				continue
			}
			if _, seen := t.SectionOf[key]; !seen {
				t.SectionOf[key] = d
				if !it.Hidden {
					t.Order = append(t.Order, key)
				}
			}
		}
		t.walkOrder(d, it.Children)
	}
}

// Prune drops from the tree every page that is not exported, so that no
// sidebar links to a file missing from the bundle, and computes each
// division's first exported page.
func (t *Tree) Prune(exported func(string) bool) {
	var keep []string
	for _, k := range t.Order {
		if exported(k) {
			keep = append(keep, k)
		}
	}
	t.Order = keep
	var walk func(d *Division) string
	walk = func(d *Division) string {
		d.Items = pruneItems(d.Items, exported)
		d.First = FirstPage(d.Items)
		dflt := ""
		for _, c := range d.Children {
			f := walk(c)
			if d.First == "" {
				d.First = f
			}
			if c.Default && f != "" && dflt == "" {
				dflt = f
			}
		}
		if dflt != "" && len(d.Items) == 0 {
			d.First = dflt // the site opens on the default version
		}
		return d.First
	}
	walk(t.Root)
	for _, g := range t.Global {
		walk(g)
	}
	t.findDirectories()
	t.findCrumbs()
}

func pruneItems(items []*Item, exported func(string) bool) []*Item {
	var out []*Item
	for _, it := range items {
		if it.Page != "" {
			if exported(it.Page) {
				out = append(out, it)
			}
			continue
		}
		if it.Root != "" && !exported(it.Root) {
			it.Root = ""
		}
		it.Children = pruneItems(it.Children, exported)
		if len(it.Children) > 0 || it.Root != "" {
			out = append(out, it)
		}
	}
	return out
}

// FirstPage is the key of the first page a reader meets in items (a
// page, else a group's root, else its first page at any depth), skipping
// hidden entries; "" when there is none.
func FirstPage(items []*Item) string {
	for _, it := range items {
		if it.Hidden {
			continue
		}
		if it.Page != "" {
			return it.Page
		}
		if it.Root != "" {
			return it.Root
		}
		if f := FirstPage(it.Children); f != "" {
			return f
		}
	}
	return ""
}

// ListAll builds a single section listing every page, for sources whose
// docs.json has no navigation: readers still get a sidebar and an order.
// The start page, if any, comes first.
func (t *Tree) ListAll(keys []string) {
	d := &Division{Kind: "root", Index: 0}
	for _, k := range keys {
		if k == "index" {
			d.Items = append([]*Item{{Page: k}}, d.Items...)
			continue
		}
		d.Items = append(d.Items, &Item{Page: k})
	}
	if len(d.Items) == 0 {
		return
	}
	t.Root = d
	t.Sections = []*Division{d}
	t.walkOrder(d, d.Items)
}

// NavbarOf is the top bar of pages in s: that of its nearest enclosing
// division with one (a language), else def, the site's.
func NavbarOf(s *Division, def *docsjson.Navbar) *docsjson.Navbar {
	for d := s; d != nil; d = d.Parent {
		if d.Navbar != nil {
			return d.Navbar
		}
	}
	return def
}

// FooterOf is the footer of pages in s, found as navbarOf finds the top bar.
func FooterOf(s *Division, def *docsjson.Footer) *docsjson.Footer {
	for d := s; d != nil; d = d.Parent {
		if d.Footer != nil {
			return d.Footer
		}
	}
	return def
}

// BannerOf is the announcement of pages in s, found as navbarOf finds the
// top bar; nil when there is none.
func BannerOf(s *Division, def *docsjson.Banner) *docsjson.Banner {
	for d := s; d != nil; d = d.Parent {
		if d.Banner != nil {
			return d.Banner
		}
	}
	return def
}
