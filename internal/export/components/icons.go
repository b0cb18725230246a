package components

import (
	"strconv"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/icons"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// iconOf draws the icon a component names in its icon attribute (or, for
// <Icon>, its src): an image when the value is a path, the platform's
// other form; otherwise a slot, which the facade draws from the site's
// icon library (a page renders without knowing docs.json) or, for a
// remote URL, as an image unless the bundle is air-gapped. Nothing when
// the component names no icon.
func iconOf(t *tag) markup.HTML {
	if h, ok := t.rich["icon"]; ok {
		return h // icon={<svg …/>}: the page's own drawing
	}
	v := strings.TrimSpace(t.attr("icon"))
	if v == "" && t.name == "Icon" {
		v = strings.TrimSpace(t.attr("src"))
	}
	if v == "" {
		return markup.HTML{}
	}
	if !icons.IsImage(v) || markup.Scheme(v) != "" {
		return icons.Slot(icons.Ref{Name: v, Type: t.attr("iconType")}, t.name)
	}
	u, ok := componentURL(v)
	if !ok {
		return markup.HTML{}
	}
	return icons.Image(u)
}

// iconSize is <Icon size>: a number of pixels, as CSS, or "" when absent
// or not a sensible size.
func iconSize(t *tag) string {
	n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(t.attr("size")), "px"))
	if err != nil || n < 1 || n > 512 {
		return ""
	}
	return "--icon-size:" + strconv.Itoa(n) + "px"
}
