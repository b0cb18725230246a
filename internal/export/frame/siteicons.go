package frame

import (
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/icons"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// The icons of the top bar and the footer: a navbar link's or the
// primary button's own icon, the site's mark of a "github" or "discord"
// button, and the brand mark of each footer social link. Brand marks
// come from Font Awesome's brands whatever icons.library says: the other
// libraries hold few or none.

// linkIcon draws the icon of a top bar or footer link: its icon
// (a name, the object form or an image), else the mark of the site a
// button type names. where names the link for a warning.
func (dr *iconDrawer) linkIcon(l docsjson.Link, where string, prefix markup.Prefix) markup.HTML {
	if ic := l.Icon; ic.Name != "" {
		if icons.IsImage(ic.Name) {
			return dr.iconImage(ic.Name, "docs.json "+where, prefix)
		}
		return dr.icons.Draw(icons.Ref{Name: ic.Name, Type: ic.Style, Library: ic.Library}, "docs.json "+where)
	}
	if l.Icon.Invalid != "" {
		dr.warn("docs.json: %s: icon %s is neither a name nor {\"name\", \"style\", \"library\"}; left out", where, l.Icon.Invalid)
	}
	switch l.Type {
	case "github", "discord":
		return dr.icons.Draw(icons.Ref{Name: l.Type, Type: "brands", Library: string(icons.FontAwesome)}, "docs.json "+where)
	}
	return markup.HTML{}
}

// socialMarks are the Font Awesome names of footer.socials keys that
// differ from the key.
var socialMarks = map[string]string{"x": "x-twitter", "website": "earth-americas", "web": "earth-americas"}

// social writes the content of a footer social link: the site's mark,
// named for screen readers, or the site's name when the mark is not a
// Font Awesome icon (Draw warns once about the key).
func (dr *iconDrawer) social(b *markup.Builder, key string) {
	name := key
	if m, ok := socialMarks[key]; ok {
		name = m
	}
	icon := dr.icons.Draw(icons.Ref{Name: name, Library: string(icons.FontAwesome)}, "docs.json footer.socials")
	if icon.Empty() {
		b.Text(siteName(key))
		return
	}
	b.HTML(icon)
	b.Markup(`<span class="sr-only">`)
	b.Text(siteName(key))
	b.Markup(`</span>`)
}
