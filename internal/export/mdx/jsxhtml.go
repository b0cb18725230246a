package mdx

import (
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/jsx"
	"sort"
	"strconv"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// isHTMLStart reports whether s begins a lower-case (HTML) tag. MDX lets
// authors write these with JSX syntax: className, style objects and
// attributes spread over lines, none of which a browser understands.
func isHTMLStart(s string) bool {
	if len(s) < 2 || s[0] != '<' {
		return false
	}
	c := s[1]
	if c == '/' && len(s) > 2 {
		c = s[2]
	}
	return c >= 'a' && c <= 'z'
}

// htmlTag rewrites a JSX-flavoured HTML tag (raw is its source) as plain
// HTML on one line. Tags without JSX syntax are returned unchanged.
func htmlTag(t jsxTag, raw string) string {
	// A non-void element written self-closing (<video src="v.mp4" />)
	// is empty in JSX but stays open in HTML, where it would take in
	// the rest of the page: it is closed here.
	closeNow := t.selfClosing && !void[t.name]
	if !closeNow && !t.changed && !strings.Contains(raw, "={") && !strings.Contains(raw, "className") && !strings.Contains(raw, "\n") {
		return raw
	}
	var b markup.Builder
	// The tag and attribute names are the page author's own markup (MDX
	// pages may hold raw HTML); parseTag admits name characters only.
	b.HTML(markup.Rendered("<" + t.name))
	names := make([]string, 0, len(t.attrs))
	for k := range t.attrs {
		names = append(names, k)
	}
	sort.Strings(names) // the source order is gone; a fixed one keeps output stable
	for _, k := range names {
		v := t.attrs[k]
		switch k {
		case "className":
			k = "class"
		case "style":
			if strings.HasPrefix(strings.TrimSpace(v), "{") {
				v = styleObject(v)
			}
		case "htmlFor":
			k = "for"
		}
		if jsx.IsBooleanAttr(k) {
			// autoPlay, autoPlay={true}: present; autoPlay={false}: absent.
			if v != "false" {
				b.HTML(markup.Rendered(" " + k))
			}
			continue
		}
		b.HTML(markup.Rendered(" " + k))
		b.Markup(`="`)
		b.Text(v)
		b.Markup(`"`)
	}
	switch {
	case closeNow:
		// On a line of its own, the closing tag keeps the element an
		// HTML block, not a paragraph of inline HTML.
		b.HTML(markup.Rendered(">\n</" + t.name + ">"))
	case t.selfClosing:
		b.Markup(" />")
	default:
		b.Markup(">")
	}
	return b.String()
}

// unitless are the React style properties whose numbers carry no unit.
var unitless = map[string]bool{"opacity": true, "zIndex": true, "flex": true, "flexGrow": true,
	"flexShrink": true, "fontWeight": true, "lineHeight": true, "order": true, "zoom": true}

// styleObject turns a JSX style object such as { width: '268px',
// marginTop: 8 } into CSS declarations ("margin-top:8px;width:268px"), as
// React would render it.
func styleObject(obj string) string {
	obj = strings.TrimSpace(obj)
	obj = strings.TrimSuffix(strings.TrimPrefix(obj, "{"), "}")
	var decls []string
	for _, part := range strings.Split(obj, ",") {
		key, val, ok := strings.Cut(part, ":")
		if !ok {
			continue
		}
		key = strings.Trim(strings.TrimSpace(key), `'"`)
		val = strings.TrimSpace(val)
		if unq, err := strconv.Unquote(strings.ReplaceAll(val, "'", `"`)); err == nil {
			val = unq
		} else if _, err := strconv.ParseFloat(val, 64); err == nil && !unitless[key] && val != "0" {
			val += "px"
		}
		if key == "" || val == "" || strings.ContainsAny(val, ";{}") {
			continue
		}
		decls = append(decls, kebab(key)+":"+val)
	}
	return strings.Join(decls, ";")
}

func kebab(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('-')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}
