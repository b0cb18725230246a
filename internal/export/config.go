package export

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/apipages"
)

// config is the part of docs.json the exporter understands. Unknown keys
// are ignored on purpose: docs.json carries many settings that only the
// hosted platform uses, and an export must not fail on them.
type config struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Theme       string          `json:"theme"`
	Colors      colors          `json:"colors"`
	Logo        logoConfig      `json:"logo"`
	Favicon     favicon         `json:"favicon"`
	Navigation  navNode         `json:"navigation"`
	API         apiBlock        `json:"api"`
	Redirects   []redirect      `json:"redirects"`
	Navbar      navbarSettings  `json:"navbar"`
	Footer      footerSettings  `json:"footer"`
	Banner      *bannerSettings `json:"banner"`
	Styling     struct {
		Eyebrows string `json:"eyebrows"` // "section" or "breadcrumbs" above a page's title
	} `json:"styling"`
	Background struct {
		Color struct {
			Light string `json:"light"`
			Dark  string `json:"dark"`
		} `json:"color"`
	} `json:"background"`
}

// apiBlock is the "api" block of docs.json: the settings of the API pages,
// and the specs of the site. Frontmatter without a file searches every
// spec of the source anyway (in file name order, as the platform does);
// naming them here reports those that do not parse.
type apiBlock struct {
	apipages.Settings
	OpenAPI openapiRef `json:"openapi"`
}

// bannerSettings is the announcement above every page (Markdown); a
// language may have its own.
type bannerSettings struct {
	Content     string `json:"content"`
	Dismissible bool   `json:"dismissible"`
}

// navbarSettings are the links of the top bar; a language may have its own.
type navbarSettings struct {
	Links   []navbarLink `json:"links"`
	Primary *navbarLink  `json:"primary"`
}

// footerSettings are the social links and link columns of the footer; a
// language may have its own.
type footerSettings struct {
	Socials map[string]string `json:"socials"`
	Links   []struct {
		Header string       `json:"header"`
		Items  []navbarLink `json:"items"`
	} `json:"links"`
}

// navbarLink is a link of the top bar, such as "Support" or "Dashboard".
type navbarLink struct {
	Label string `json:"label"`
	Href  string `json:"href"`
	Type  string `json:"type"` // "github" and "discord" buttons name their site
}

// redirect moves readers from an old path to a new one.
type redirect struct {
	Source      string `json:"source"`
	Destination string `json:"destination"`
}

type colors struct {
	Primary string `json:"primary"`
	Light   string `json:"light"`
	Dark    string `json:"dark"`
}

// logoConfig accepts both forms docs.json allows: a single path or an
// object with light and dark variants.
type logoConfig struct {
	Light string `json:"light"`
	Dark  string `json:"dark"`
	Href  string `json:"href"`
}

func (l *logoConfig) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		l.Light, l.Dark = s, s
		return nil
	}
	type plain logoConfig
	return json.Unmarshal(b, (*plain)(l))
}

// favicon is a path, or an object with light and dark variants of which
// the light one is used.
type favicon string

func (f *favicon) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*f = favicon(s)
		return nil
	}
	var o struct{ Light, Dark string }
	if err := json.Unmarshal(b, &o); err != nil {
		return err
	}
	*f = favicon(o.Light)
	if o.Light == "" {
		*f = favicon(o.Dark)
	}
	return nil
}

// navNode is any level of the navigation tree. docs.json nests languages,
// versions, tabs, anchors, dropdowns and groups in any order, so one
// recursive type with a label field per level keeps the walk simple.
type navNode struct {
	Language string `json:"language"`
	Version  string `json:"version"`
	Product  string `json:"product"`
	Tab      string `json:"tab"`
	Item     string `json:"item"` // an entry of a tab's or product's menu
	Anchor   string `json:"anchor"`
	Dropdown string `json:"dropdown"`
	Group    string `json:"group"`
	Icon     string `json:"icon"`
	Href     string `json:"href"`
	Root     string `json:"root"`
	Hidden   bool   `json:"hidden"`
	Tag      string `json:"tag"` // a badge such as "NEW" or "Latest"
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

	Languages []navNode   `json:"languages"`
	Versions  []navNode   `json:"versions"`
	Products  []navNode   `json:"products"`
	Tabs      []navNode   `json:"tabs"`
	Menu      []navNode   `json:"menu"`
	Anchors   []navNode   `json:"anchors"`
	Dropdowns []navNode   `json:"dropdowns"`
	Groups    []navNode   `json:"groups"`
	Pages     []navEntry  `json:"pages"`
	Global    *globalNavs `json:"global"`
	OpenAPI   openapiRef  `json:"openapi"` // specs whose operations become pages (openapi_nav.go)
	// Navbar, Footer and Banner replace the site's for the pages of a language.
	Navbar *navbarSettings `json:"navbar"`
	Footer *footerSettings `json:"footer"`
	Banner *bannerSettings `json:"banner"`
}

// globalNavs are links shown everywhere, typically to external sites.
type globalNavs struct {
	Anchors []navNode `json:"anchors"`
	Tabs    []navNode `json:"tabs"`
}

// navEntry is one element of a "pages" array: a page path or a nested group.
type navEntry struct {
	Page  string
	Group *navNode
}

func (e *navEntry) UnmarshalJSON(b []byte) error {
	if json.Unmarshal(b, &e.Page) == nil {
		return nil
	}
	e.Group = new(navNode)
	return json.Unmarshal(b, e.Group)
}

// label names a division of the navigation, whatever its level.
func (n *navNode) label() string {
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
	"footer": true, "background": true, "api": true, "banner": true, "styling": true}

// loadConfig reads docs.json for a request-time check: confined to src and
// bounded, with $ref resolved, but without counting against an export.
func loadConfig(src fs.FS, lim Limits, warn func(string, ...any)) (*config, error) {
	return decodeConfig(func(name string) ([]byte, error) {
		return readLimited(src, name, "the configuration file", lim.MaxPageBytes)
	}, warn)
}

// decodeConfig reads and decodes docs.json, turning syntax errors into a
// message with a line number that a docs author can act on.
func decodeConfig(read func(string) ([]byte, error), warn func(string, ...any)) (*config, error) {
	if warn == nil {
		warn = func(string, ...any) {}
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
		case isOutside(err):
			return nil, &InputError{Msg: "docs.json: a link out of the docs source; refused"}
		}
		return nil, fmt.Errorf("docs.json: %w", err)
	}
	resolved := bytes.Contains(b, []byte(`"$ref"`))
	if resolved {
		r := &refResolver{read: read}
		v, err := r.file("docs.json", "docs.json", "")
		if err != nil {
			return nil, err
		}
		if b, err = json.Marshal(v); err != nil {
			return nil, fmt.Errorf("docs.json: %w", err)
		}
	}
	var c config
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
				te.Field, te.Value, te.Type, lineOf(b, te.Offset))}
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
		apipages.CheckKeys(top["api"], warn)
		checkStylingKeys(top["styling"], warn)
	}
	if c.Name == "" {
		c.Name = "Documentation"
	}
	return &c, nil
}

func lineOf(b []byte, off int64) int {
	if off > int64(len(b)) {
		off = int64(len(b))
	}
	return bytes.Count(b[:off], []byte("\n")) + 1
}

// cleanPagePath normalises a page reference from docs.json or a request to
// the extensionless, slash-separated form used as a page's key. It reports
// false for anything that could leave the source root or is not a path.
func cleanPagePath(p string) (string, bool) {
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
