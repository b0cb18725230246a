package docsjson

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"
)

// Config is the part of docs.json the exporter understands. Unknown keys
// are ignored on purpose: docs.json carries many settings that only the
// hosted platform uses, and an export must not fail on them.
type Config struct {
	Name        string     `json:"name"`
	Description string     `json:"description"`
	Theme       string     `json:"theme"`
	Colors      Colors     `json:"colors"`
	Logo        Logo       `json:"logo"`
	Favicon     Favicon    `json:"favicon"`
	Navigation  NavNode    `json:"navigation"`
	API         APIBlock   `json:"api"`
	Redirects   []Redirect `json:"redirects"`
	Navbar      Navbar     `json:"navbar"`
	Footer      Footer     `json:"footer"`
	Banner      *Banner    `json:"banner"`
	Appearance  Appearance `json:"appearance"`
	Styling     struct {
		Eyebrows string `json:"eyebrows"` // "section" or "breadcrumbs" above a page's title
		// Latex overrides the detection of math: false leaves $ and $$
		// as text on every page; true or unset typesets what is found.
		Latex *bool `json:"latex"`
	} `json:"styling"`
	Contextual struct {
		// Options of the page context menu: names ("copy",
		// "download-spec") or custom entries (objects).
		Options []json.RawMessage `json:"options"`
	} `json:"contextual"`
	Interaction struct {
		// Drilldown true opens a group's first page when a reader
		// selects the group; false or unset only expands it (the
		// bundle's one layout does not navigate).
		Drilldown *bool `json:"drilldown"`
	} `json:"interaction"`
	// SEO holds indexing and meta tags (seo.go).
	SEO        SEO `json:"seo"`
	Background struct {
		Color struct {
			Light string `json:"light"`
			Dark  string `json:"dark"`
		} `json:"color"`
	} `json:"background"`
	// Icons.Library is the library icon names come from: "fontawesome"
	// (the default), "lucide" or "tabler" (internal/export/icons).
	Icons struct {
		Library string `json:"library"`
	} `json:"icons"`
}

// APIBlock is the "api" block of docs.json: the settings of the API pages,
// and the specs of the site. Frontmatter without a file searches every
// spec of the source anyway (in file name order, as the platform does);
// naming them here reports those that do not parse.
type APIBlock struct {
	Settings
	OpenAPI OpenAPIRef `json:"openapi"`
}

// Banner is the announcement above every page (Markdown); a
// language may have its own.
type Banner struct {
	Content     string `json:"content"`
	Dismissible bool   `json:"dismissible"`
	// Type is "info" (the brand colour), "warning" or "critical"; check
	// settles it to one of them.
	Type string `json:"type"`
	// Color overrides the background of Type (banner.go).
	Color *BannerColor `json:"color"`
}

// Navbar holds the links of the top bar; a language may have its own.
type Navbar struct {
	Links   []Link `json:"links"`
	Primary *Link  `json:"primary"`
}

// Footer holds the social links and link columns of the footer; a
// language may have its own.
type Footer struct {
	Socials map[string]string `json:"socials"`
	Links   []struct {
		Header string `json:"header"`
		Items  []Link `json:"items"`
	} `json:"links"`
}

// Link is a link of the top bar, such as "Support" or "Dashboard".
type Link struct {
	Label string `json:"label"`
	Href  string `json:"href"`
	Type  string `json:"type"` // "github" and "discord" buttons name their site
	Icon  Icon   `json:"icon"` // drawn before the label
}

// Redirect moves readers from an old path to a new one.
type Redirect struct {
	Source      string `json:"source"`
	Destination string `json:"destination"`
}

// Colors are the theme colours of docs.json.
type Colors struct {
	Primary string `json:"primary"`
	Light   string `json:"light"`
	Dark    string `json:"dark"`
}

// Logo accepts both forms docs.json allows: a single path or an
// object with light and dark variants.
type Logo struct {
	Light string `json:"light"`
	Dark  string `json:"dark"`
	Href  string `json:"href"`
}

// UnmarshalJSON takes one path for both modes or {light, dark}.
func (l *Logo) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		l.Light, l.Dark = s, s
		return nil
	}
	type plain Logo
	return json.Unmarshal(b, (*plain)(l))
}

// Favicon is a path, or an object with light and dark variants of which
// the light one is used.
type Favicon string

// UnmarshalJSON takes one path or {light, dark} (the light one is used).
func (f *Favicon) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*f = Favicon(s)
		return nil
	}
	var o struct{ Light, Dark string }
	if err := json.Unmarshal(b, &o); err != nil {
		return err
	}
	*f = Favicon(o.Light)
	if o.Light == "" {
		*f = Favicon(o.Dark)
	}
	return nil
}

// NavNode is any level of the navigation tree. docs.json nests languages,
// versions, tabs, anchors, dropdowns and groups in any order, so one
// recursive type with a label field per level keeps the walk simple.
type NavNode struct {
	Language string `json:"language"`
	Version  string `json:"version"`
	Product  string `json:"product"`
	Tab      string `json:"tab"`
	Item     string `json:"item"` // an entry of a tab's or product's menu
	Anchor   string `json:"anchor"`
	Dropdown string `json:"dropdown"`
	Group    string `json:"group"`
	Icon     Icon   `json:"icon"`
	Href     string `json:"href"`
	Root     string `json:"root"`
	Hidden   bool   `json:"hidden"`
	Tag      Badge  `json:"tag"` // a badge such as "NEW" or "Latest"
	// Description is the line under a product or menu entry in its switcher.
	Description string `json:"description"`
	// Expanded opens a nested group by default; the platform collapses
	// nested groups unless it is true.
	Expanded bool `json:"expanded"`
	// Default makes a version the one the site opens on instead of the first.
	Default bool `json:"default"`
	// Directory ("none", "accordion", "card") lists a group's pages on its
	// root page; it holds for everything below unless set again.
	Directory string `json:"directory"`

	Languages []NavNode   `json:"languages"`
	Versions  []NavNode   `json:"versions"`
	Products  []NavNode   `json:"products"`
	Tabs      []NavNode   `json:"tabs"`
	Menu      []NavNode   `json:"menu"`
	Anchors   []NavNode   `json:"anchors"`
	Dropdowns []NavNode   `json:"dropdowns"`
	Groups    []NavNode   `json:"groups"`
	Pages     []NavEntry  `json:"pages"`
	Global    *GlobalNavs `json:"global"`
	OpenAPI   OpenAPIRef  `json:"openapi"` // specs whose operations become pages (openapi_nav.go)
	// Navbar, Footer and Banner replace the site's for the pages of a language.
	Navbar *Navbar `json:"navbar"`
	Footer *Footer `json:"footer"`
	Banner *Banner `json:"banner"`
}

// GlobalNavs are links shown everywhere, typically to external sites.
type GlobalNavs struct {
	Anchors []NavNode `json:"anchors"`
	Tabs    []NavNode `json:"tabs"`
}

// Icon names the icon of a navigation entry: a name ("bolt"), or the
// object form the platform documents, {"name", "style", "library"}. An
// icon is decoration: a value of any other shape is kept in Invalid for a
// warning and never fails the export.
type Icon struct {
	Name, Style, Library string
	// Invalid is the start of a value that is neither form.
	Invalid string
}

// UnmarshalJSON takes a name or {name, style, library}; anything else is
// recorded, not refused.
func (i *Icon) UnmarshalJSON(b []byte) error {
	*i = Icon{}
	if json.Unmarshal(b, &i.Name) == nil {
		return nil
	}
	var o struct {
		Name    string `json:"name"`
		Style   string `json:"style"`
		Library string `json:"library"`
	}
	if json.Unmarshal(b, &o) == nil {
		*i = Icon{Name: o.Name, Style: o.Style, Library: o.Library}
		return nil
	}
	i.Invalid = string(b[:min(len(b), 60)])
	return nil
}

// Badge is the text of a navigation entry's tag. Like an icon it is
// decoration: a number or boolean is shown as written, and a value of
// another shape is kept in Invalid for a warning instead of failing.
type Badge struct {
	Text    string
	Invalid string
}

// UnmarshalJSON takes a string, a number or a boolean.
func (t *Badge) UnmarshalJSON(b []byte) error {
	*t = Badge{}
	var v any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if d.Decode(&v) != nil {
		return nil
	}
	switch x := v.(type) {
	case string:
		t.Text = x
	case json.Number:
		t.Text = x.String()
	case bool:
		t.Text = strconv.FormatBool(x)
	case nil:
	default:
		t.Invalid = string(b[:min(len(b), 60)])
	}
	return nil
}

// NavEntry is one element of a "pages" array: a page path or a nested group.
type NavEntry struct {
	Page  string
	Group *NavNode
}

// UnmarshalJSON takes a page path or a nested group.
func (e *NavEntry) UnmarshalJSON(b []byte) error {
	if json.Unmarshal(b, &e.Page) == nil {
		return nil
	}
	e.Group = new(NavNode)
	return json.Unmarshal(b, e.Group)
}

// Label names a division of the navigation, whatever its level.
func (n *NavNode) Label() string {
	for _, s := range []string{n.Language, n.Version, n.Product, n.Tab, n.Item, n.Dropdown, n.Anchor, n.Group} {
		if s != "" {
			return s
		}
	}
	return ""
}

// supportedKeys are the top-level docs.json settings the export uses or
// deliberately has no use for ($schema); any other is reported as a
// warning, since the hosted site would show something the bundle lacks.
var supportedKeys = map[string]bool{"$schema": true, "name": true, "description": true, "theme": true,
	"colors": true, "logo": true, "favicon": true, "navigation": true, "redirects": true, "navbar": true,
	"footer": true, "background": true, "api": true, "banner": true, "styling": true, "interaction": true, "contextual": true,
	"appearance": true, "seo": true, "icons": true}

// Decode is Load without a context, within DefaultBounds.
func Decode(read func(string) ([]byte, error), warn func(string, ...any)) (*Config, error) {
	return Load(context.Background(), read, DefaultBounds, warn)
}

// Load reads and decodes docs.json and the files its $ref name, within
// bounds (zero fields take DefaultBounds) and until ctx ends, turning
// syntax errors into a message with a line number that a docs author can
// act on. read is called once per file.
func Load(ctx context.Context, read func(string) ([]byte, error), bounds Bounds, warn func(string, ...any)) (*Config, error) {
	if warn == nil {
		warn = func(string, ...any) {}
	}
	if err := ctx.Err(); err != nil {
		return nil, errCancelled(ctx)
	}
	b, err := read("docs.json")
	if err != nil {
		var ie *InputError
		switch {
		case errors.As(err, &ie):
			return nil, err
		case errors.Is(err, fs.ErrNotExist):
			if _, merr := read("mint.json"); merr == nil {
				// The platform upgrades mint.json with its CLI; a silent
				// guess at the old format could export a different site.
				return nil, &InputError{Msg: "docs.json: not found at the root of the source, which has the deprecated mint.json; " +
					"upgrade it with the platform's CLI (`mint dev` writes docs.json) and commit docs.json"}
			}
			return nil, &InputError{Msg: "docs.json: not found at the root of the source"}
		case IsOutside(err):
			return nil, &InputError{Msg: "docs.json: a link out of the docs source; refused"}
		case errors.Is(err, ErrNotRegular):
			return nil, &InputError{Msg: "docs.json: not a regular file (a named pipe, a device or a socket); the export reads docs.json only from a file"}
		}
		return nil, fmt.Errorf("docs.json: %w", err)
	}
	bounds = bounds.WithDefaults()
	resolved := bytes.Contains(b, []byte(`"$ref"`))
	if !resolved {
		// Decoded straight into Config, so type errors keep their lines;
		// measured first, as a file named by $ref is.
		if over := bounds.over(measure(b)); over != "" {
			return nil, &InputError{Msg: fmt.Sprintf("docs.json: the file is %s; split it or simplify it", over)}
		}
	} else {
		r := &refResolver{ctx: ctx, read: read, bounds: bounds}
		f, err := r.decode("docs.json", b)
		if err != nil {
			return nil, err
		}
		// The tree shares the subtrees of files named more than once;
		// the bounds have held its written-out size. HTML is left
		// unescaped so the text is no larger than that.
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(f.v); err != nil {
			return nil, fmt.Errorf("docs.json: %w", err)
		}
		b = buf.Bytes()
	}
	var c Config
	if err := json.Unmarshal(b, &c); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, &InputError{Msg: fmt.Sprintf("docs.json: invalid JSON at line %d: %v", lineOf(b, se.Offset), se)}
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && resolved {
			// Lines of the merged document would point nowhere useful.
			return nil, &InputError{Msg: fmt.Sprintf("docs.json (with $ref resolved): %s has the wrong type (got %s, want %s)",
				te.Field, te.Value, te.Type)}
		}
		if errors.As(err, &te) {
			return nil, &InputError{Msg: fmt.Sprintf("docs.json: %s has the wrong type (got %s, want %s) at line %d",
				te.Field, te.Value, te.Type, typeErrorLine(b, te))}
		}
		return nil, &InputError{Msg: "docs.json: " + err.Error()}
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(b, &top) == nil {
		for _, k := range sortedKeys(top) {
			if !supportedKeys[k] {
				warn("docs.json: the setting %q is not supported by the static export yet; ignored", k)
			}
		}
		checkNavKeys(top["navigation"], warn)
		CheckKeys(top["api"], warn)
		checkSubKeys("styling", top["styling"], warn, "eyebrows", "latex")
		checkSubKeys("interaction", top["interaction"], warn, "drilldown")
		checkSubKeys("contextual", top["contextual"], warn, "options")
		c.Appearance.check(top["appearance"], warn)
		c.checkSEO(top["seo"], warn)
		c.checkBanners(warn)
		if left := c.contextualLeftOut(); len(left) > 0 {
			warn("docs.json: the contextual options %s are not supported by the static export yet; ignored", strings.Join(left, ", "))
		}
	}
	if c.Name == "" {
		c.Name = "Documentation"
	}
	return &c, nil
}

// typeErrorLine is the line of the value a type error is about. Inside a
// nested navigation entry (decoded on its own) the error's offset and
// field are relative to the entry, so the document is walked for the
// first value under that key with the wrong type; the error's own offset
// is the fallback.
func typeErrorLine(b []byte, te *json.UnmarshalTypeError) int {
	key := te.Field
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		key = key[i+1:]
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	type level struct{ object, wantKey bool }
	var stack []level
	// done marks a value finished: its object now expects a key.
	done := func() {
		if n := len(stack); n > 0 && stack[n-1].object {
			stack[n-1].wantKey = true
		}
	}
	found, at := false, int64(0)
	for key != "" {
		off := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			break
		}
		n := len(stack)
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:n-1]
			done()
			continue
		}
		if n > 0 && stack[n-1].object && stack[n-1].wantKey {
			stack[n-1].wantKey = false
			found, at = tok == any(key), off
			continue
		}
		if found && jsonKind(tok) == te.Value {
			for at < int64(len(b)) && strings.IndexByte(" \t\r\n,{", b[at]) >= 0 {
				at++
			}
			return lineOf(b, at)
		}
		found = false
		if d, ok := tok.(json.Delim); ok {
			stack = append(stack, level{object: d == '{', wantKey: d == '{'})
			continue
		}
		done()
	}
	return lineOf(b, te.Offset)
}

// jsonKind names a token's kind as json.UnmarshalTypeError.Value does.
func jsonKind(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			return "object"
		}
		return "array"
	case string:
		return "string"
	case json.Number:
		return "number"
	case bool:
		return "bool"
	}
	return "null"
}

func lineOf(b []byte, off int64) int {
	if off > int64(len(b)) {
		off = int64(len(b))
	}
	return bytes.Count(b[:off], []byte("\n")) + 1
}

// CleanPagePath normalises a page reference from docs.json or a request to
// the extensionless, slash-separated form used as a page's key. It reports
// false for anything that could leave the source root or is not a path.
func CleanPagePath(p string) (string, bool) {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") ||
		strings.Contains(p, "://") || strings.ContainsAny(p, "\x00?#") {
		return "", false
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." || seg == "." || seg == "" {
			return "", false
		}
	}
	p = strings.TrimSuffix(strings.TrimSuffix(p, ".mdx"), ".md")
	return path.Clean(p), true
}

// OpenAPIRef is the "openapi" key of a navigation element: a file, a list
// of files, or {"source": file, "directory": dir}.
type OpenAPIRef struct {
	Files []string
	Dir   string
}

// UnmarshalJSON takes a spec path, a list of them, or {source, directory}.
func (r *OpenAPIRef) UnmarshalJSON(b []byte) error {
	var one string
	if json.Unmarshal(b, &one) == nil {
		r.Files = []string{one}
		return nil
	}
	if json.Unmarshal(b, &r.Files) == nil {
		return nil
	}
	var o struct {
		Source    string `json:"source"`
		Directory string `json:"directory"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return fmt.Errorf("openapi: want a file, a list of files or {\"source\", \"directory\"}: %w", err)
	}
	r.Files, r.Dir = []string{o.Source}, o.Directory
	return nil
}

// Set reports whether any spec is named.
func (r OpenAPIRef) Set() bool { return len(r.Files) > 0 }

// DownloadSpec reports "download-spec" among the contextual options: the
// reader may download the site's OpenAPI spec.
func (c *Config) DownloadSpec() bool {
	for _, o := range c.Contextual.Options {
		var name string
		if json.Unmarshal(o, &name) == nil && name == "download-spec" {
			return true
		}
	}
	return false
}

// contextualLeftOut names the contextual options other than
// "download-spec" (a custom entry by its title), which the export leaves
// out.
func (c *Config) contextualLeftOut() []string {
	var out []string
	for _, o := range c.Contextual.Options {
		var name string
		var custom struct {
			Title string `json:"title"`
		}
		switch {
		case json.Unmarshal(o, &name) == nil:
			if name != "download-spec" && name != "copy" && name != "view" {
				out = append(out, strconv.Quote(name))
			}
		case json.Unmarshal(o, &custom) == nil && custom.Title != "":
			out = append(out, "custom "+strconv.Quote(custom.Title))
		default:
			out = append(out, "custom")
		}
	}
	return out
}
