package frame

import (
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/site"
)

// Options are what a frame is built from: the plan of one export.
type Options struct {
	Config *docsjson.Config
	Tree   *site.Tree
	ByKey  map[string]*site.Page
	// Target resolves a reference written in page from to a bundle path
	// or an absolute URL, as the links of pages are (false: none).
	Target    func(from, ref string) (markup.URL, bool)
	Features  map[string]bool // the features the bundle may use
	AirGapped bool            // the bundle loads nothing from outside
	Domain    string          // the deployment's host, for the assistant link
	// Warn reports what the docs author should know; Markdown renders a
	// docs.json text (the banner) as if written in the page key; Offline
	// takes remote content out of markup of an air-gapped bundle.
	Warn     func(format string, args ...any)
	Markdown func(s, key string, prefix markup.Prefix) markup.HTML
	Offline  func(file string, prefix markup.Prefix, h markup.HTML) markup.HTML
}

// New builds the frame of an export, with its icon library (docs.json's
// icons.library) and navigation writer. The plan then settles Order, the
// logo and favicon, SpecDownload and CSPConnect before pages render.
func New(o Options) *Frame {
	f := &Frame{cfg: o.Config, tree: o.Tree, byKey: o.ByKey, target: o.Target, features: o.Features, airGapped: o.AirGapped,
		domain: o.Domain, warn: o.Warn, markdown: o.Markdown, offline: o.Offline}
	f.iconDrawer = &iconDrawer{icons: iconSet(o.Config, o.Warn), airGapped: o.AirGapped, warn: o.Warn, configLink: f.configLink}
	f.navWriter = &navWriter{cfg: o.Config, tree: o.Tree, byKey: o.ByKey, icon: f.iconDrawer, configLink: f.configLink, ui: f.PageUI}
	return f
}
