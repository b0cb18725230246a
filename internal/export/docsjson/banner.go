package docsjson

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// BannerColor is a banner's own background, a hex colour for each mode.
// check fills a missing one with the other, as the platform does.
type BannerColor struct {
	Light string `json:"light"`
	Dark  string `json:"dark"`
}

// bannerTypes are the values of a banner's type.
var bannerTypes = []string{"info", "warning", "critical"}

// hexColor is a colour written as the platform documents a banner's:
// #rgb or #rrggbb, with an alpha digit or pair allowed.
var hexColor = regexp.MustCompile(`^#([0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$`)

// checkBanners settles the site's banner and each language's.
func (c *Config) checkBanners(warn func(string, ...any)) {
	c.Banner.check("banner", warn)
	for i := range c.Navigation.Languages {
		c.Navigation.Languages[i].Banner.check(fmt.Sprintf("navigation.languages[%d].banner", i), warn)
	}
}

// check settles Type to one of bannerTypes and keeps only the colours
// that are hex values, warning about the rest; where names the banner in
// the warnings.
func (bn *Banner) check(where string, warn func(string, ...any)) {
	if bn == nil {
		return
	}
	t := strings.ToLower(strings.TrimSpace(bn.Type))
	switch {
	case t == "":
		t = "info"
	case !slices.Contains(bannerTypes, t):
		warn("docs.json: %s.type %q is not \"info\", \"warning\" or \"critical\"; the banner has the brand colour", where, bn.Type)
		t = "info"
	}
	bn.Type = t
	col := bn.Color
	if col == nil {
		return
	}
	for _, v := range []struct {
		mode string
		c    *string
	}{{"light", &col.Light}, {"dark", &col.Dark}} {
		*v.c = strings.TrimSpace(*v.c)
		if *v.c != "" && !hexColor.MatchString(*v.c) {
			warn("docs.json: %s.color.%s %q is not a hex colour such as #7C3AED; ignored", where, v.mode, *v.c)
			*v.c = ""
		}
	}
	switch {
	case col.Light == "" && col.Dark == "":
		bn.Color = nil
	case col.Light == "":
		col.Light = col.Dark
	case col.Dark == "":
		col.Dark = col.Light
	}
}
