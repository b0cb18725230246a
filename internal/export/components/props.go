package components

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The props the platform's component pages document, and what a static
// page does with each. An attribute a page gives a component is either
// drawn, or named in a warning by Unrendered: never dropped silently.

// documented lists the props each component's page documents (and those
// the export draws beyond them, such as an icon on an Expandable).
// children is never an attribute; key is React's, never drawn.
var documented = map[string][]string{
	"Callout": {"icon", "iconType", "color"},
	"Steps":   {"titleSize"},
	"Step":    {"title", "icon", "iconType", "stepNumber", "titleSize", "id", "noAnchor"},
	"Tabs":    {"defaultTabIndex", "sync", "borderBottom"},
	"Tab":     {"title", "id", "icon", "iconType"},

	"CodeGroup": {"dropdown"}, "RequestExample": {"dropdown"}, "ResponseExample": {"dropdown"},
	"Columns": {"cols"}, "CardGroup": {"cols"}, "Column": nil,
	"Card": {"title", "icon", "iconType", "color", "href", "horizontal", "img", "cta", "arrow", "type"},

	"AccordionGroup": nil,
	"Accordion":      {"title", "description", "defaultOpen", "id", "icon", "iconType"},
	"Expandable":     {"title", "defaultOpen", "icon", "iconType"},
	"Frame":          {"caption", "hint"},
	"ParamField":     {"query", "path", "body", "header", "cookie", "name", "type", "required", "deprecated", "default", "placeholder"},
	"ResponseField":  {"name", "type", "default", "required", "deprecated", "pre", "post"},
	"Icon":           {"icon", "iconType", "src", "color", "size", "className"},
	"Badge":          {"color", "size", "shape", "icon", "iconType", "stroke", "disabled", "className"},
	"Tooltip":        {"tip", "headline", "cta", "href"},
	"Update":         {"label", "tags", "description", "rss"},

	"Tree": {"style"}, "FileTree": {"style"}, "Tree.Folder": {"name", "defaultOpen", "openable", "highlight"},
	"Tree.File": {"name", "highlight"},

	"Visibility": {"for"}, "View": {"title", "icon", "iconType"}, "Tile": {"href", "title", "description"},
	"Prompt": {"description", "actions", "icon", "iconType"}, "Color": {"variant"}, "Color.Row": {"title"},
	"Color.Item": {"name", "value"}, "Panel": nil, "GitHub.Repo": {"repo", "variant", "className"},
}

func init() {
	for _, kind := range []string{"Note", "Info", "Tip", "Warning", "Check", "Danger"} {
		// The platform's typed callouts take children only; the icon
		// the export also draws on them.
		documented[kind] = []string{"icon", "iconType"}
	}
}

// Props returns the props the platform documents for component name, in
// the order of its page; nil for a name that is not one of Names.
func Props(name string) []string { return documented[name] }

// Unrendered returns a warning for each attribute of component name
// (one of Names) that the export does not draw as written: a value the
// component does not take (or one that needs the platform's service, as
// a Prompt's cursor action), or an attribute the platform does not
// document; every documented prop is drawn. Each names file and
// line. Nothing for a component that is not one of Names (the caller
// warns about those) or whose attributes are all drawn.
func Unrendered(name string, attrs map[string]string, file string, line int) []string {
	props, ok := documented[name]
	if !ok {
		return nil
	}
	keys := make([]string, 0, len(attrs))
	for k := range attrs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var out []string
	say := func(format string, args ...any) {
		out = append(out, fmt.Sprintf("<%s> on line %d of %s: ", name, line, file)+fmt.Sprintf(format, args...))
	}
	for _, k := range keys {
		v := attrs[k]
		switch {
		case k == "key" || k == "children":
		case !slices.Contains(props, k):
			say("%q is not a prop the platform documents for it; the export ignores it", k)
		default:
			if why := badValue(name, k, v); why != "" {
				say("%s=%q is not drawn: %s", k, clip(v), why)
			}
		}
	}
	return out
}

// badValue says why value v of documented prop k of component name is
// not drawn, or "" when it is.
func badValue(name, k, v string) string {
	if v == "" {
		return ""
	}
	switch {
	case k == "color" && name != "Badge":
		if !isCSSColor(v) {
			return "not a CSS colour"
		}
	case name == "Badge" && k == "color":
		return oneOf(v, badgeColors)
	case name == "Badge" && k == "size":
		return oneOf(v, []string{"xs", "sm", "md", "lg"})
	case name == "Badge" && k == "shape":
		return oneOf(v, []string{"rounded", "pill"})
	case name == "Card" && k == "type":
		return oneOf(v, []string{"info", "warning", "note", "tip", "check", "danger"})
	case k == "titleSize":
		return oneOf(v, []string{"p", "h2", "h3", "h4"})
	case k == "cols":
		if n, err := strconv.Atoi(v); err != nil || n < 1 || n > 4 {
			return "the platform takes 1 to 4 columns; 2 are drawn"
		}
	case k == "stepNumber" || k == "defaultTabIndex":
		if n, err := strconv.Atoi(v); err != nil || n < 0 {
			return "not a whole number"
		}
	case name == "Icon" && k == "size":
		if iconSize(&tag{attrs: map[string]string{"size": v}}) == "" {
			return "not a size in pixels from 1 to 512"
		}
	case name == "Prompt" && k == "actions":
		var actions []string
		if json.Unmarshal([]byte(v), &actions) != nil {
			return `not a list of actions; "copy" is offered`
		}
		if slices.Contains(actions, "cursor") {
			return `"cursor" opens the platform's service, which a bundle cannot`
		}
	case name == "Update" && k == "rss" && rssEntry(v) == "":
		return "not an object with a title or a description"
	case (k == "tags" || k == "pre" || k == "post") && labelList(v) == nil:
		return "not a list of strings"
	case k == "style":
		if _, other := treeStyle(v); other {
			return "only a --tree-highlight colour is drawn"
		}
	}
	return ""
}

func oneOf(v string, options []string) string {
	if slices.Contains(options, v) {
		return ""
	}
	return "the platform takes " + strings.Join(options, ", ")
}

// labelList reads a string[] prop (tags, pre, post): a JSON array of
// strings, as the expression was written, or one bare string.
func labelList(v string) []string {
	v = strings.TrimSpace(v)
	if !strings.HasPrefix(v, "[") {
		if v == "" {
			return nil
		}
		return []string{v}
	}
	var list []string
	if json.Unmarshal([]byte(v), &list) == nil {
		return list
	}
	if json.Unmarshal([]byte(strings.ReplaceAll(v, "'", `"`)), &list) == nil {
		return list // ['a', 'b'], JavaScript's other quotes
	}
	return nil
}

func clip(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:57]) + "..."
	}
	return s
}
