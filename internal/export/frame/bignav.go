package frame

import (
	"bytes"
	"crypto/sha256"
	_ "embed" // the loader of large sidebars (bignav.js)
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"sync"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/site"
)

// Large sidebars. A section's sidebar is copied into each of its pages,
// so a section of n pages costs n² bytes: a tab of 1,000 endpoints made
// each page 143 KB, 117 KB of it sidebar. A section whose sidebar
// markup passes bigNavBytes is therefore drawn once, into a script of
// the bundle (_static/nav/<hash>.js), and each page carries a
// synchronous <script src> in its sidebar that inserts it where it
// stands while the page is parsed (no layout shift), marks the page's
// link and opens the groups around it, as MarkCurrent does in HTML.
// Without script a <noscript> holds the page's own top-level group and
// the title of every other one, linking to its first page: a page's bytes
// grow with its group and the number of groups, not with the section, and
// a run of pages in the group longer than fallbackRun is cut to the part
// around the page, so one group of thousands of pages does not bring the
// n² back. Smaller sidebars stay plain HTML, unchanged.

// bigNavBytes is the sidebar markup (written from the bundle root) past
// which a section's sidebar moves to a script. Hand-written docs stay
// far below it (a sidebar of 300 pages in 30 groups is about 30 KiB);
// generated API references pass it from about 500 endpoints, where the
// sidebar starts to outweigh the page it surrounds.
const bigNavBytes = 64 << 10

// fallbackRun bounds a run of pages in the fallback of a large sidebar,
// at its top level (a spec's untagged endpoints are such a run) or in a
// group (a tag of a thousand endpoints, a changelog): past it the fallback
// lists the pages around the page's own, and the pager leads on, so a
// page never carries a section's worth of links.
const fallbackRun = 100

// navDir is the bundle directory of the sidebar scripts.
const navDir = "_static/nav/"

// bignavJS is the loader each sidebar script starts with; it is called
// with the sidebar's markup.
//
//go:embed bignav.js
var bignavJS string

// bigNav is the sidebar of one large section, drawn once.
type bigNav struct {
	path string // the script's bundle path, navDir + content hash
	js   []byte // the script
	// group maps a page key to the index in the section's items of the
	// top-level group that lists it (-1: listed at the top level).
	group map[string]int
	// titles holds, per prefix, the fallback's title of each top-level
	// group by its index in the section's items: the same in every page
	// of a directory depth, so drawn once for it.
	titles sync.Map // markup.Prefix -> []markup.HTML
}

// navEntry caches a section's bigNav; nil when its sidebar is small.
type navEntry struct {
	once sync.Once
	big  *bigNav
}

// big returns the drawn sidebar of section s when it is large, else nil.
func (nw *navWriter) big(s *site.Division) *bigNav {
	if s == nil {
		return nil
	}
	v, ok := nw.bigs.Load(s.Index)
	if !ok {
		// Every page asks: only the first of a section makes an entry.
		v, _ = nw.bigs.LoadOrStore(s.Index, &navEntry{})
	}
	e := v.(*navEntry)
	e.once.Do(func() { e.big = nw.drawBig(s) })
	return e.big
}

// drawBig draws the items of s from the bundle root and, when they pass
// bigNavBytes, makes them the script of a bigNav.
func (nw *navWriter) drawBig(s *site.Division) *bigNav {
	var b markup.Builder
	nw.items(&b, s.Items, "", true)
	if b.Len() <= bigNavBytes {
		return nil
	}
	// Icons drawn as <use> of shapes get their shapes inside the
	// inserted markup, as a page gets them (Frame.FillIcons).
	html := nw.icon.icons.Defs([]byte(b.String()))
	var js bytes.Buffer
	js.WriteString("// The sidebar of section " + strconv.Quote(s.Label) + ", inserted by each of its pages.\n(")
	js.WriteString(strings.TrimSpace(bignavJS))
	js.WriteString(")(")
	enc := json.NewEncoder(&js)
	enc.SetEscapeHTML(false) // a file of its own: "</script>" in it ends nothing
	if err := enc.Encode(string(html)); err != nil {
		return nil // a string always encodes
	}
	js.Truncate(js.Len() - 1) // Encode's newline
	js.WriteString(");\n")
	sum := sha256.Sum256(js.Bytes())
	n := &bigNav{path: navDir + hex.EncodeToString(sum[:8]) + ".js", js: js.Bytes(), group: map[string]int{}}
	for i, it := range s.Items {
		if it.Page != "" {
			n.group[it.Page] = -1
			continue
		}
		walkPages(it, func(key string) {
			if _, ok := n.group[key]; !ok {
				n.group[key] = i
			}
		})
	}
	return n
}

// walkPages calls fn with each page key group it lists, at any depth.
func walkPages(it *site.Item, fn func(key string)) {
	if it.Root != "" {
		fn(it.Root)
	}
	for _, c := range it.Children {
		if c.Page != "" {
			fn(c.Page)
			continue
		}
		walkPages(c, fn)
	}
}

// bigSidebar writes the loader and the fallback of a large sidebar for
// the page whose bundle path is out ("" for a page of no group, as the
// 404 page).
func (nw *navWriter) bigSidebar(b *markup.Builder, s *site.Division, n *bigNav, prefix markup.Prefix, out, key string) {
	b.Markup(`<script src="`)
	b.URL(markup.Path(prefix, n.path, ""))
	b.Markup(`"`)
	if out != "" {
		// Compared with the hrefs the script holds, written from the root.
		b.Attr("data-current", markup.Path("", out, "").String())
	}
	b.Markup(`></script><noscript>`)
	g := -1 // the index of the page's top-level group; -1: none
	if i, ok := n.group[key]; ok {
		g = i
	}
	// Top-level pages are drawn in runs as items lays them out (a long
	// run cut to the part around the page), the page's group with its
	// long runs cut alike, other groups by title.
	var run []*site.Item
	flush := func() {
		if len(run) > 0 {
			var cur markup.Builder
			nw.items(&cur, around(run, key, fallbackRun), prefix, true)
			writeMarked(b, cur.String(), prefix, out)
			run = run[:0]
		}
	}
	for i, it := range s.Items {
		if it.Page != "" {
			run = append(run, it)
			continue
		}
		flush()
		switch {
		case it.Hidden:
		case i == g:
			var cur markup.Builder
			nw.items(&cur, []*site.Item{trimRuns(it, key)}, prefix, true)
			writeMarked(b, cur.String(), prefix, out)
		default:
			b.HTML(nw.groupTitles(s, n, prefix)[i])
		}
	}
	flush()
	b.Markup(`</noscript>`)
}

// around returns the n items of run around the page key (its first n when
// key is not among them), or run when it is no longer.
func around(run []*site.Item, key string, n int) []*site.Item {
	if len(run) <= n {
		return run
	}
	at := 0
	for i, it := range run {
		if it.Page == key {
			at = i
			break
		}
	}
	lo := max(0, at-n/2)
	hi := min(len(run), lo+n)
	return run[max(0, hi-n):hi]
}

// trimRuns returns group it with every run of pages it lists longer than
// fallbackRun, at any depth, cut to the part around the page key (its
// start where key is not in it). A group without such a run is returned
// as it is; otherwise the copy shares all but the cut lists.
func trimRuns(it *site.Item, key string) *site.Item {
	if !hasLongRun(it) {
		return it
	}
	c := *it
	c.Children = make([]*site.Item, 0, min(len(it.Children), 2*fallbackRun))
	run := 0 // where the current run of pages starts in it.Children
	for i, ch := range it.Children {
		if ch.Page != "" {
			continue
		}
		c.Children = append(c.Children, around(it.Children[run:i], key, fallbackRun)...)
		c.Children = append(c.Children, trimRuns(ch, key))
		run = i + 1
	}
	c.Children = append(c.Children, around(it.Children[run:], key, fallbackRun)...)
	return &c
}

// hasLongRun reports whether group it lists, at any depth, a run of more
// than fallbackRun pages.
func hasLongRun(it *site.Item) bool {
	run := 0
	for _, ch := range it.Children {
		if ch.Page != "" {
			if run++; run > fallbackRun {
				return true
			}
			continue
		}
		run = 0
		if hasLongRun(ch) {
			return true
		}
	}
	return false
}

// writeMarked appends the sidebar markup c to b with the link of the page
// at out marked (MarkCurrent).
func writeMarked(b *markup.Builder, c string, prefix markup.Prefix, out string) {
	if out != "" {
		c, _ = markLink(c, 0, pageLinkTag(prefix, out))
	}
	b.HTML(markup.Rendered(c)) // attributes and open flags added to safe markup
}

// groupTitles returns the fallback titles of the top-level groups of s
// for pages under prefix, by item index (empty for a page).
func (nw *navWriter) groupTitles(s *site.Division, n *bigNav, prefix markup.Prefix) []markup.HTML {
	if v, ok := n.titles.Load(prefix); ok {
		return v.([]markup.HTML)
	}
	ts := make([]markup.HTML, len(s.Items))
	for i, it := range s.Items {
		if it.Page == "" {
			var b markup.Builder
			nw.groupTitle(&b, it, prefix)
			ts[i] = b.Fragment()
		}
	}
	v, _ := n.titles.LoadOrStore(prefix, ts)
	return v.([]markup.HTML)
}

// groupTitle writes a top-level group of the fallback as its title alone,
// linking to the group's first page. The titles stand one under the
// other without the spacing of a .nav-group, which a list of a hundred
// needs as little as the bytes.
func (nw *navWriter) groupTitle(b *markup.Builder, it *site.Item, prefix markup.Prefix) {
	b.Markup(`<p class="nav-group-title">`)
	nw.groupLabel(b, it, nw.firstPage(it), false, prefix)
	b.Markup(`</p>`)
}

// PageChrome is the frame of page p: Chrome with the page's sidebar link
// marked. A large sidebar (bigNavBytes) is the frame's loader of the
// section's sidebar script and a fallback drawn for the page.
func (f *Frame) PageChrome(s *site.Division, prefix markup.Prefix, m site.Mode, p *site.Page) markup.HTML {
	chrome := f.PageSwitchers(f.Chrome(s, prefix, m), s, prefix, p) // switchers.go
	n := f.big(s)
	if n == nil || !m.Sidebar() {
		return MarkCurrent(chrome, prefix, p.Out)
	}
	// Chrome ends with the large sidebar drawn for no page: its loader,
	// its fallback and </nav>.
	var lb markup.Builder
	lb.Markup(`<script src="`)
	lb.URL(markup.Path(prefix, n.path, ""))
	c := chrome.String()
	at := strings.LastIndex(c, lb.String())
	if at < 0 {
		return chrome
	}
	var b markup.Builder
	b.Grow(at + 8<<10)
	b.HTML(markup.Rendered(c[:at])) // a prefix of safe markup, cut before a tag
	f.bigSidebar(&b, s, n, prefix, p.Out, p.Key)
	b.Markup(`</nav>`)
	return b.Fragment()
}

// NavScripts writes, through write, the script of each large sidebar the
// pages drew (PageChrome). It runs after every page, the 404 page
// included, has been drawn.
func (nw *navWriter) NavScripts(write func(rel string, data []byte) error, written map[string]bool) error {
	var err error
	nw.bigs.Range(func(_, v any) bool {
		n := v.(*navEntry).big
		if n == nil || written[n.path] {
			return true
		}
		if err = write(n.path, n.js); err != nil {
			return false
		}
		written[n.path] = true
		return true
	})
	return err
}
