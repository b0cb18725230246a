package frame

import (
	"path"
	"strconv"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/icons"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/site"
)

// iconLicenseDir holds the licences of the icon libraries a bundle draws
// from (CC BY 4.0 asks for attribution; MIT and ISC for the notice).
const iconLicenseDir = "_static/licenses/"

// iconSet is the icon library of docs.json's icons.library; a value the
// platform does not document is warned about and Font Awesome, its
// default, drawn instead.
func iconSet(cfg *docsjson.Config, warn func(format string, args ...any)) *icons.Set {
	lib, err := icons.ParseLibrary(cfg.Icons.Library)
	if err != nil {
		warn("docs.json: %v; Font Awesome is used", err)
	}
	return icons.NewSet(lib)
}

// navIcon draws the icon of a navigation entry; where names the entry
// ("group \"Guides\"") for a warning.
func (dr *iconDrawer) navIcon(ic docsjson.Icon, where string, prefix markup.Prefix) markup.HTML {
	if ic.Name == "" {
		return markup.HTML{}
	}
	if icons.IsImage(ic.Name) {
		return dr.iconImage(ic.Name, "docs.json navigation "+where, prefix)
	}
	return dr.icons.Draw(icons.Ref{Name: ic.Name, Type: ic.Style, Library: ic.Library}, "docs.json navigation "+where)
}

// pageIcon draws the icon of a page's frontmatter in its sidebar link.
func (dr *iconDrawer) pageIcon(p *site.Page, prefix markup.Prefix) markup.HTML {
	if p.FM.Icon == "" {
		return markup.HTML{}
	}
	if icons.IsImage(p.FM.Icon) {
		return dr.iconImage(p.FM.Icon, p.File+" frontmatter", prefix)
	}
	return dr.icons.Draw(icons.Ref{Name: p.FM.Icon, Type: p.FM.IconType}, p.File+" frontmatter")
}

// iconImage draws an icon given as an image: a file of the source, or a
// remote URL, which an air-gapped bundle leaves out like any remote
// content.
func (dr *iconDrawer) iconImage(ref, where string, prefix markup.Prefix) markup.HTML {
	remote := markup.Scheme(ref) != ""
	if remote && dr.airGapped {
		dr.warn("%s: the icon %q is remote; an air-gapped bundle leaves it out", where, ref)
		return markup.HTML{}
	}
	u := dr.configLink(where+" icon", ref, prefix, remote)
	if u.Empty() {
		dr.warn("%s: the icon %q is neither an icon name nor a file of the source; left out", where, ref)
		return markup.HTML{}
	}
	return icons.Image(u)
}

// FillIcons draws the icon slots MDX left in a page of file: icons by
// name, and remote icon images (left out when air-gapped). Icons by name
// are masked spans whose drawings the stylesheet holds (IconCSS); Defs
// only has work for a Set that draws inline SVG.
func (dr *iconDrawer) FillIcons(page []byte, file string) []byte {
	return dr.FillIconsNoting(page, file, nil)
}

// IconUse is one icon slot FillIcons filled: the icon and where in the
// page it is ("Card").
type IconUse struct {
	Ref icons.Ref
	In  string
}

// FillIconsNoting is FillIcons calling note, when not nil, with each
// slot it fills, so that a page reused later without being drawn again
// can have its icons counted as drawn (ReplayIcon).
func (dr *iconDrawer) FillIconsNoting(page []byte, file string, note func(IconUse)) []byte {
	return dr.icons.Defs(icons.Fill(page, func(r icons.Ref, in string) markup.HTML {
		if note != nil {
			note(IconUse{Ref: r, In: in})
		}
		return dr.drawIcon(r, in, file)
	}))
}

// ReplayIcon draws u for a page of file as FillIcons did and drops the
// drawing: the site's stylesheet, licences and warnings then count it.
func (dr *iconDrawer) ReplayIcon(u IconUse, file string) { dr.drawIcon(u.Ref, u.In, file) }

func (dr *iconDrawer) drawIcon(r icons.Ref, in, file string) markup.HTML {
	if icons.IsImage(r.Name) {
		return dr.iconImage(r.Name, file+" ("+in+")", "")
	}
	return dr.icons.Draw(r, file+" ("+in+")")
}

// TouchNav draws the large sidebar of section s, if it has one, as
// PageChrome does for each of its pages: NavScripts then writes its
// script even when every page of s was reused rather than drawn.
func (nw *navWriter) TouchNav(s *site.Division) { nw.big(s) }

// IconCSS is the stylesheet of the icons by name the pages show: each
// drawing once, as the mask of its spans (icons.Set.CSS). It is called
// once every page, the 404 page included, has been drawn, and is
// appended to the site stylesheet.
func (dr *iconDrawer) IconCSS() []byte {
	return dr.icons.CSS()
}

// IconLicenses writes, through write, the licence of each icon library
// the pages drew from, and reports what the icons could not draw, once
// each. It runs after every page, the 404 page included, has been written.
func (dr *iconDrawer) IconLicenses(write func(rel string, data []byte) error, written map[string]bool) error {
	for _, w := range dr.icons.Warnings() {
		dr.warn("%s", w)
	}
	lics, err := dr.icons.Licenses()
	if err != nil {
		return err
	}
	for _, l := range lics {
		p := path.Join(iconLicenseDir, "icons-"+string(l.Library)+".txt")
		text := append([]byte("The icons of this site drawn from "+string(l.Library)+" come from "+l.Package+
			", under the licence below.\n\n"), l.Text...)
		if err := write(p, text); err != nil {
			return err
		}
		written[p] = true
	}
	return nil
}

// directoryIcon writes the icon of a card of a group's directory: the
// page's own, or a nested group's.
func (dr *iconDrawer) directoryIcon(b *markup.Builder, it *site.Item, q *site.Page, prefix markup.Prefix) {
	icon := dr.pageIcon(q, prefix)
	if it.Page == "" {
		icon = dr.navIcon(it.Icon, "group "+strconv.Quote(it.Group), prefix)
	}
	if !icon.Empty() {
		b.Markup(`<span class="card-icon">`)
		b.HTML(icon)
		b.Markup(`</span>`)
	}
}
