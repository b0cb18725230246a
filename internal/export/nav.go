package export

import (
	"fmt"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/uitext"
)

// division is one node of the navigation above the sidebar: the root, a
// language, a version, a product, a tab, a menu item, a dropdown or an
// anchor. Divisions that hold
// groups or pages are sections: a page's section decides its sidebar.
type division struct {
	kind     string // "root", "language", "version", "product", "tab", "menu", "dropdown", "anchor"
	label    string // a language's name in that language (languageName)
	lang     string // a language's code as docs.json writes it
	icon     docsjson.Icon
	tag      string
	desc     string           // shown under the label in a product or menu switcher
	href     string           // external or site link instead of content
	dflt     bool             // the version the site opens on
	navbar   *docsjson.Navbar // the language's own top bar links, nil for the site's
	footer   *docsjson.Footer
	banner   *docsjson.Banner
	parent   *division
	children []*division
	items    []*navItem
	index    int    // position among the sections, -1 when not a section
	first    string // key of the first exported page below, "" when none
}

// navItem is a page or a group inside a section's sidebar.
type navItem struct {
	page     string // page key; empty for a group
	group    string
	icon     docsjson.Icon
	tag      string
	root     string // page key a group's title links to
	hidden   bool
	expanded bool // a nested group shown open before the reader opens it
	// directory ("accordion" or "card") lists the group's entries below
	// the content of its root page.
	directory string
	children  []*navItem
}

// navTree is the navigation after docs.json has been resolved against the
// files of the source.
type navTree struct {
	root     *division
	sections []*division
	global   []*division // anchors and tabs shown on every page
	order    []string    // page keys in reading order, for previous/next
	sectOf   map[string]*division
	missing  []string            // navigation entries whose file does not exist
	badIcons []string            // entries whose icon or tag has no documented form
	dirOf    map[string]*navItem // root page key -> its group, when the group lists its entries
	crumbs   map[string][]string // page key -> the division and group labels above it
	api      *apiGen             // makes the pages of openapi entries; nil disables them
}

// buildNav resolves the navigation of c. exists reports whether a page key
// names a file of the source; api, if not nil, makes the pages that
// "openapi" entries ask for.
func buildNav(c *docsjson.Config, exists func(string) bool, api *apiGen) *navTree {
	t := &navTree{sectOf: map[string]*division{}, api: api}
	t.root = t.division(&c.Navigation, "root", nil, exists, inherited{})
	if g := c.Navigation.Global; g != nil {
		for i := range g.Anchors {
			t.global = append(t.global, t.division(&g.Anchors[i], "anchor", nil, exists, inherited{}))
		}
		for i := range g.Tabs {
			t.global = append(t.global, t.division(&g.Tabs[i], "tab", nil, exists, inherited{}))
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
func (t *navTree) inherit(n *docsjson.NavNode, parent inherited) inherited {
	in := parent
	if n.OpenAPI.Set() {
		if t.api != nil {
			t.api.load(n.OpenAPI) // a spec that does not parse is reported even if unused
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
func (t *navTree) generateAll(n *docsjson.NavNode) bool {
	if t.api == nil || !n.OpenAPI.Set() || len(n.Groups) > 0 {
		return false
	}
	for _, e := range n.Pages {
		if e.Group != nil || isEndpointEntry(e.Page) {
			return false
		}
	}
	return true
}

func (t *navTree) division(n *docsjson.NavNode, kind string, parent *division, exists func(string) bool, in inherited) *division {
	t.checkIcon(n)
	d := &division{kind: kind, label: n.Label(), icon: n.Icon, tag: n.Tag.Text, href: n.Href, dflt: n.Default, parent: parent, index: -1,
		navbar: n.Navbar, footer: n.Footer, banner: n.Banner, desc: n.Description}
	if kind == "language" && n.Language != "" {
		d.lang, d.label = n.Language, uitext.LanguageName(n.Language)
	}
	in = t.inherit(n, in)
	for _, g := range n.Groups {
		if it := t.group(&g, exists, in); it != nil {
			d.items = append(d.items, it)
		}
	}
	t.pages(n.Pages, &d.items, exists, in)
	if t.generateAll(n) && len(n.Languages)+len(n.Versions)+len(n.Products)+len(n.Tabs)+len(n.Menu)+len(n.Dropdowns)+len(n.Anchors) == 0 {
		d.items = append(d.items, t.api.all(in.spec)...)
	}
	if len(d.items) > 0 {
		d.index = len(t.sections)
		t.sections = append(t.sections, d)
		t.walkOrder(d, d.items)
	}
	levels := []struct {
		kind  string
		nodes []docsjson.NavNode
	}{{"language", n.Languages}, {"version", n.Versions}, {"product", n.Products}, {"tab", n.Tabs}, {"menu", n.Menu},
		{"dropdown", n.Dropdowns}, {"anchor", n.Anchors}}
	for _, l := range levels {
		for i := range l.nodes {
			d.children = append(d.children, t.division(&l.nodes[i], l.kind, d, exists, in))
		}
	}
	return d
}

// checkIcon notes an entry whose icon is neither a name nor the object
// form: it is shown without one, and the export says so.
func (t *navTree) checkIcon(n *docsjson.NavNode) {
	if n.Icon.Invalid != "" {
		t.badIcons = append(t.badIcons, fmt.Sprintf("%q (%s)", n.Label(), n.Icon.Invalid))
	}
	if n.Tag.Invalid != "" {
		t.badIcons = append(t.badIcons, fmt.Sprintf("%q tag (%s)", n.Label(), n.Tag.Invalid))
	}
}

func (t *navTree) group(n *docsjson.NavNode, exists func(string) bool, in inherited) *navItem {
	in = t.inherit(n, in)
	t.checkIcon(n)
	it := &navItem{group: n.Group, icon: n.Icon, tag: n.Tag.Text, hidden: n.Hidden, expanded: n.Expanded}
	if in.dir == "accordion" || in.dir == "card" {
		it.directory = in.dir
	}
	if n.Root != "" {
		if key, ok := t.resolve(n.Root, exists); ok {
			it.root = key
		}
	}
	for _, g := range n.Groups {
		if c := t.group(&g, exists, in); c != nil {
			it.children = append(it.children, c)
		}
	}
	t.pages(n.Pages, &it.children, exists, in)
	if t.generateAll(n) {
		it.children = append(it.children, t.api.all(in.spec)...)
	}
	if len(it.children) == 0 && it.root == "" {
		return nil
	}
	return it
}

func (t *navTree) pages(entries []docsjson.NavEntry, into *[]*navItem, exists func(string) bool, in inherited) {
	for _, e := range entries {
		if e.Group != nil {
			if it := t.group(e.Group, exists, in); it != nil {
				*into = append(*into, it)
			}
			continue
		}
		if t.api != nil && isEndpointEntry(e.Page) {
			if key, ok := t.api.one(in.spec, e.Page); ok {
				*into = append(*into, &navItem{page: key})
			}
			continue
		}
		if key, ok := t.resolve(e.Page, exists); ok {
			*into = append(*into, &navItem{page: key})
		}
	}
}

// resolve turns a navigation entry into a page key, recording entries that
// name no file so the caller can report them.
func (t *navTree) resolve(ref string, exists func(string) bool) (string, bool) {
	key, ok := docsjson.CleanPagePath(strings.TrimPrefix(ref, "/"))
	if ok && exists(key) {
		return key, true
	}
	t.missing = append(t.missing, ref)
	return "", false
}

// walkOrder records reading order and each page's section; the first
// occurrence of a page wins, as a page listed twice has one home.
func (t *navTree) walkOrder(d *division, items []*navItem) {
	for _, it := range items {
		for _, key := range []string{it.root, it.page} {
			if key == "" {
				continue
			}
			if _, seen := t.sectOf[key]; !seen {
				t.sectOf[key] = d
				if !it.hidden {
					t.order = append(t.order, key)
				}
			}
		}
		t.walkOrder(d, it.children)
	}
}

// prune drops from the tree every page that is not exported, so that no
// sidebar links to a file missing from the bundle, and computes each
// division's first exported page.
func (t *navTree) prune(exported func(string) bool) {
	var keep []string
	for _, k := range t.order {
		if exported(k) {
			keep = append(keep, k)
		}
	}
	t.order = keep
	var walk func(d *division) string
	walk = func(d *division) string {
		d.items = pruneItems(d.items, exported)
		d.first = firstPage(d.items)
		dflt := ""
		for _, c := range d.children {
			f := walk(c)
			if d.first == "" {
				d.first = f
			}
			if c.dflt && f != "" && dflt == "" {
				dflt = f
			}
		}
		if dflt != "" && len(d.items) == 0 {
			d.first = dflt // the site opens on the default version
		}
		return d.first
	}
	walk(t.root)
	for _, g := range t.global {
		walk(g)
	}
	t.findDirectories()
	t.findCrumbs()
}

func pruneItems(items []*navItem, exported func(string) bool) []*navItem {
	var out []*navItem
	for _, it := range items {
		if it.page != "" {
			if exported(it.page) {
				out = append(out, it)
			}
			continue
		}
		if it.root != "" && !exported(it.root) {
			it.root = ""
		}
		it.children = pruneItems(it.children, exported)
		if len(it.children) > 0 || it.root != "" {
			out = append(out, it)
		}
	}
	return out
}

func firstPage(items []*navItem) string {
	for _, it := range items {
		if it.hidden {
			continue
		}
		if it.page != "" {
			return it.page
		}
		if it.root != "" {
			return it.root
		}
		if f := firstPage(it.children); f != "" {
			return f
		}
	}
	return ""
}

// listAll builds a single section listing every page, for sources whose
// docs.json has no navigation: readers still get a sidebar and an order.
// The start page, if any, comes first.
func (t *navTree) listAll(keys []string) {
	d := &division{kind: "root", index: 0}
	for _, k := range keys {
		if k == "index" {
			d.items = append([]*navItem{{page: k}}, d.items...)
			continue
		}
		d.items = append(d.items, &navItem{page: k})
	}
	if len(d.items) == 0 {
		return
	}
	t.root = d
	t.sections = []*division{d}
	t.walkOrder(d, d.items)
}

// navbarOf is the top bar of pages in s: that of its nearest enclosing
// division with one (a language), else def, the site's.
func navbarOf(s *division, def *docsjson.Navbar) *docsjson.Navbar {
	for d := s; d != nil; d = d.parent {
		if d.navbar != nil {
			return d.navbar
		}
	}
	return def
}

// footerOf is the footer of pages in s, found as navbarOf finds the top bar.
func footerOf(s *division, def *docsjson.Footer) *docsjson.Footer {
	for d := s; d != nil; d = d.parent {
		if d.footer != nil {
			return d.footer
		}
	}
	return def
}

// bannerOf is the announcement of pages in s, found as navbarOf finds the
// top bar; nil when there is none.
func bannerOf(s *division, def *docsjson.Banner) *docsjson.Banner {
	for d := s; d != nil; d = d.parent {
		if d.banner != nil {
			return d.banner
		}
	}
	return def
}
