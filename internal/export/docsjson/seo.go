package docsjson

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
)

// SEO is the "seo" setting of docs.json: which pages search engines may
// index and the meta tags every page carries.
type SEO struct {
	// Indexing is "navigable" (the default: only pages of the navigation
	// are indexed) or "all" (every page, hidden ones included).
	Indexing string `json:"indexing"`
	// Metatags are added to the head of every page; a page's frontmatter
	// overrides a tag of the same name. Values that are not strings are
	// left out with a warning (CheckSEO).
	Metatags map[string]string `json:"-"`
	// RawMetatags is the decoded object, checked into Metatags.
	RawMetatags map[string]any `json:"metatags"`
}

// IndexAll reports seo.indexing "all".
func (s *SEO) IndexAll() bool { return s.Indexing == "all" }

// checkSEO settles the seo setting: an unknown indexing value falls back
// to "navigable" and a meta tag whose value is not text is left out, each
// with a warning naming the field; settings of seo the export does not
// know are reported as any other.
func (c *Config) checkSEO(raw json.RawMessage, warn func(string, ...any)) {
	s := &c.SEO
	switch s.Indexing {
	case "", "navigable", "all":
	default:
		warn("docs.json: seo.indexing is %s; want \"navigable\" or \"all\"; using \"navigable\"", strconv.Quote(s.Indexing))
		s.Indexing = "navigable"
	}
	s.Metatags = map[string]string{}
	keys := make([]string, 0, len(s.RawMetatags))
	for k := range s.RawMetatags {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch v := s.RawMetatags[k].(type) {
		case string:
			if k == "" {
				warn("docs.json: seo.metatags has an empty name; left out")
				continue
			}
			s.Metatags[k] = v
		case float64, bool:
			s.Metatags[k] = fmt.Sprint(v)
		default:
			warn("docs.json: seo.metatags.%s is not text, a number or a boolean; left out", k)
		}
	}
	var sub map[string]json.RawMessage
	if json.Unmarshal(raw, &sub) == nil {
		for _, k := range sortedKeys(sub) {
			if k != "indexing" && k != "metatags" {
				warn("docs.json: the setting \"seo.%s\" is not supported by the static export yet; ignored", k)
			}
		}
	}
}

// MarkdownActions reports which of the page's Markdown actions to show:
// "copy" (copy the page as Markdown) and "view" (open its Markdown). The
// platform shows both when contextual.options is not set; a list shows
// those it names.
func (c *Config) MarkdownActions() (copyPage, viewPage bool) {
	if c.Contextual.Options == nil {
		return true, true
	}
	for _, o := range c.Contextual.Options {
		var name string
		if json.Unmarshal(o, &name) == nil {
			copyPage = copyPage || name == "copy"
			viewPage = viewPage || name == "view"
		}
	}
	return copyPage, viewPage
}
