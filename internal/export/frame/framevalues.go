package frame

import (
	"sync"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/icons"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/site"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/uitext"
)

// The frame leaves two of its concerns to values of their own, which it
// builds once per export and shares with the render workers (both are
// read-only once built). Their receivers are named f, as their methods
// were the frame's, so the bodies stay as they were.

// iconDrawer draws the icons of navigation entries, pages and directory
// cards, by name from docs.json's icons.library or as an image (icons.go).
type iconDrawer struct {
	icons     *icons.Set // the library of icons.library
	airGapped bool       // an air-gapped bundle leaves remote icon images out
	warn      func(format string, args ...any)
	// configLink resolves an icon given as a file or URL (Frame.configLink).
	configLink func(where, ref string, prefix markup.Prefix, keep bool) markup.URL
}

// navWriter writes the navigation of a section: the sidebar's anchors,
// groups and pages, and the switchers of the divisions above it
// (sidebar.go, switchers.go). The frame caches what it writes per
// section and depth.
type navWriter struct {
	cfg   *docsjson.Config // interaction.drilldown
	tree  *site.Tree
	byKey map[string]*site.Page
	icon  *iconDrawer
	// configLink resolves a division's href (Frame.configLink).
	configLink func(where, ref string, prefix markup.Prefix, keep bool) markup.URL
	ui         func(p *site.Page) uitext.Text // the interface language of p (Frame.PageUI)
	bigs       sync.Map                       // section index -> *navEntry: its large sidebar, if any (bignav.go)
	divPages   sync.Map                       // *site.Division -> *divisionPages (switchers.go)
}
