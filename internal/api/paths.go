package api

import (
	"net/url"
	"strings"
)

// FillPath renders a path pattern such as PathBundleDownload with the given
// parameters, each escaped with url.PathEscape, so that a value holding a
// slash cannot address another route. The result is an escaped path, as
// url.URL.JoinPath expects. Placeholders without a parameter stay as they
// are, which makes a forgotten one visible rather than silently empty.
func FillPath(pattern string, params map[string]string) string {
	for k, v := range params {
		pattern = strings.ReplaceAll(pattern, "{"+k+"}", url.PathEscape(v))
	}
	return pattern
}
