package jsx

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// renderer writes the host nodes a component resolved to (JSON from
// prelude.js) as HTML. Everything in them came from the docs source's
// JavaScript, so text and attribute values are escaped, URLs go through
// markup.Parse, and what could run script is left out: script elements,
// event handler attributes (on*), srcdoc, and HTML set with
// dangerouslySetInnerHTML beyond what markup.Sanitized keeps. Only the
// MDX children (raw), rendered by us, are written as they are.
type renderer struct {
	builtin func(name string, attrs map[string]string, rich map[string]markup.HTML) (open, closing markup.HTML)
	raw     markup.HTML
	limit   int
	b       markup.Builder
	// classes receives the class names the component writes, for the
	// site's Tailwind CSS; nil keeps none.
	classes *classNames
	// drawn receives the platform components it draws, whose props the
	// caller checks as it does those a page writes; nil keeps none.
	drawn *[]Drawn
}

// Drawn is one of the platform's components a custom component drew,
// with the attributes it was given.
type Drawn struct {
	Name  string
	Attrs map[string]string
}

// maxDrawn bounds the components one page's record keeps.
const maxDrawn = 1024

// classNames are the class names a page's components wrote, at most
// maxClassNames of them.
type classNames []string

const maxClassNames = 4096

func (c *classNames) add(value string) {
	if c == nil {
		return
	}
	for _, name := range strings.Fields(value) {
		if len(*c) >= maxClassNames {
			return
		}
		*c = append(*c, name)
	}
}

var errOutput = errors.New("the component writes more HTML than a page may hold")

func (r *renderer) html(tree string) (markup.HTML, error) {
	if len(tree) > r.limit*2+1024 {
		return markup.HTML{}, errOutput
	}
	dec := json.NewDecoder(strings.NewReader(tree))
	dec.UseNumber()
	var nodes []any
	if err := dec.Decode(&nodes); err != nil {
		return markup.HTML{}, fmt.Errorf("component output: %w", err)
	}
	r.nodes(nodes)
	if r.b.Len() > r.limit {
		return markup.HTML{}, errOutput
	}
	return r.b.Fragment(), nil
}

func (r *renderer) nodes(ns []any) {
	for _, n := range ns {
		if r.b.Len() > r.limit {
			return
		}
		switch n := n.(type) {
		case string:
			r.b.Text(n)
		case map[string]any:
			r.node(n)
		}
	}
}

func (r *renderer) node(n map[string]any) {
	children, _ := n["c"].([]any)
	props, _ := n["p"].(map[string]any)
	if idx, ok := n["r"].(json.Number); ok {
		if idx.String() == "0" {
			// The MDX body of the tag: our own rendering, already HTML.
			r.b.HTML(r.raw)
		}
		return
	}
	if name, ok := n["b"].(string); ok {
		attrs := builtinAttrs(props)
		if r.drawn != nil && len(*r.drawn) < maxDrawn {
			*r.drawn = append(*r.drawn, Drawn{Name: name, Attrs: attrs})
		}
		open, closing := r.builtin(name, attrs, r.richAttrs(props))
		r.b.HTML(open)
		r.nodes(children)
		r.b.HTML(closing)
		return
	}
	tag, _ := n["e"].(string)
	lower := strings.ToLower(tag)
	if !tagName.MatchString(tag) || dropped[lower] {
		return // with its content: a script's text is no page text
	}
	if animations[lower] && !safeAnimation(props) {
		return // it would set a link to a script when the animation runs
	}
	if t, ok := parsingChanges[lower]; ok {
		// The browser would read what follows as text (to the end of the
		// page, for <plaintext>); as <pre> the content shows the same.
		tag, lower = t, t
	}
	r.b.HTML(markup.Rendered("<" + tag)) // a name of letters, digits and hyphens
	r.attrs(props)
	r.b.Markup(">")
	if void[lower] {
		return
	}
	switch {
	case lower == "style":
		r.styleText(children)
	case props["dangerouslySetInnerHTML"] != nil:
		if d, ok := props["dangerouslySetInnerHTML"].(map[string]any); ok {
			if s, ok := d["__html"].(string); ok {
				r.b.HTML(markup.Sanitized(s))
			}
		}
	default:
		r.nodes(children)
	}
	r.b.HTML(markup.Rendered("</" + tag + ">"))
}

// styleText writes the CSS of a <style> element; CSS that could close the
// element early is left out (a style element's text is not escaped).
func (r *renderer) styleText(children []any) {
	var css strings.Builder
	for _, c := range children {
		if s, ok := c.(string); ok {
			css.WriteString(s)
		}
	}
	if !strings.Contains(css.String(), "<") {
		r.b.HTML(markup.Rendered(css.String())) // checked above: no markup in it
	}
}

var (
	tagName  = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9-]{0,63}$`)
	attrName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_:.-]{0,63}$`)
)

// dropped elements run script, load other documents or code, or change
// how the page's links and policy are read.
var dropped = map[string]bool{
	"script": true, "noscript": true, "template": true, "object": true, "embed": true, "applet": true,
	"base": true, "meta": true, "link": true, "frame": true, "frameset": true, "portal": true,
	"html": true, "head": true, "body": true, "noembed": true, "noframes": true,
}

// parsingChanges are elements whose content a browser does not parse as
// markup, put in place of the elements that read alike and parse as
// everything else does.
var parsingChanges = map[string]string{"plaintext": "pre", "xmp": "pre", "listing": "pre"}

// animations are the SVG elements that set another element's attribute
// (attributeName) to the values of their to, from, by and values, when
// the animation runs: past every check of that element's attributes.
var animations = map[string]bool{"animate": true, "set": true, "animatetransform": true, "animatemotion": true}

// safeAnimation reports whether an animation with props sets no URL
// attribute (href, xlink:href, src, ...) or event handler, or sets a URL
// attribute only to references markup.Parse accepts. Attribute names of
// SVG are matched in any case: the HTML parser lower-cases them before
// it restores SVG's spelling.
func safeAnimation(props map[string]any) bool {
	target := ""
	for k, v := range props {
		if strings.EqualFold(k, "attributeName") {
			target, _ = v.(string)
		}
	}
	target = strings.ToLower(strings.TrimSpace(target))
	_, local, _ := strings.Cut(target, ":") // xlink:href is href too
	if strings.HasPrefix(target, "on") {
		return false
	}
	if !urlAttrs[target] && !urlAttrs[local] && !strings.Contains(target, "href") {
		return true
	}
	for k, v := range props {
		switch strings.ToLower(k) {
		case "to", "from", "by", "values":
			s, ok := v.(string)
			if !ok {
				return false
			}
			for _, ref := range strings.Split(s, ";") {
				if strings.TrimSpace(ref) == "" {
					continue
				}
				if _, err := markup.Parse(ref); err != nil {
					return false
				}
			}
		}
	}
	return true
}

var void = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true,
	"input": true, "link": true, "meta": true, "param": true, "source": true, "track": true, "wbr": true,
}

// urlAttrs hold a URL a browser follows or loads.
var urlAttrs = map[string]bool{
	"href": true, "src": true, "action": true, "formaction": true, "poster": true, "cite": true,
	"background": true, "data": true, "xlink:href": true, "manifest": true, "longdesc": true,
}

// boolAttrs are HTML's boolean attributes: present or absent.
var boolAttrs = map[string]bool{
	"allowfullscreen": true, "async": true, "autofocus": true, "autoplay": true, "checked": true,
	"controls": true, "default": true, "defer": true, "disabled": true, "formnovalidate": true,
	"hidden": true, "inert": true, "ismap": true, "itemscope": true, "loop": true, "multiple": true,
	"muted": true, "nomodule": true, "novalidate": true, "open": true, "playsinline": true,
	"readonly": true, "required": true, "reversed": true, "selected": true,
}

// IsBooleanAttr reports whether name (in any letter case) is one of
// HTML's boolean attributes, which are present or absent: autoPlay={false}
// is written as no attribute at all.
func IsBooleanAttr(name string) bool { return boolAttrs[strings.ToLower(name)] }

// booleanish attributes take "true" or "false" as text.
var booleanish = map[string]bool{"contenteditable": true, "draggable": true, "spellcheck": true, "value": true}

// reactNames are React prop names that differ from their HTML or SVG
// attribute by more than letter case.
var reactNames = map[string]string{
	"className": "class", "htmlFor": "for", "acceptCharset": "accept-charset", "httpEquiv": "http-equiv",
	"xlinkHref": "xlink:href", "xmlSpace": "xml:space", "xmlLang": "xml:lang", "xmlnsXlink": "xmlns:xlink",
	"strokeWidth": "stroke-width", "strokeLinecap": "stroke-linecap", "strokeLinejoin": "stroke-linejoin",
	"strokeDasharray": "stroke-dasharray", "strokeDashoffset": "stroke-dashoffset",
	"strokeMiterlimit": "stroke-miterlimit", "strokeOpacity": "stroke-opacity", "fillOpacity": "fill-opacity",
	"fillRule": "fill-rule", "clipRule": "clip-rule", "clipPath": "clip-path", "stopColor": "stop-color",
	"stopOpacity": "stop-opacity", "fontFamily": "font-family", "fontSize": "font-size",
	"fontWeight": "font-weight", "textAnchor": "text-anchor", "dominantBaseline": "dominant-baseline",
	"floodColor": "flood-color", "floodOpacity": "flood-opacity", "markerEnd": "marker-end",
	"markerMid": "marker-mid", "markerStart": "marker-start", "pointerEvents": "pointer-events",
	"shapeRendering": "shape-rendering", "textRendering": "text-rendering", "vectorEffect": "vector-effect",
	"colorInterpolationFilters": "color-interpolation-filters", "lightingColor": "lighting-color",
	"letterSpacing": "letter-spacing", "wordSpacing": "word-spacing", "paintOrder": "paint-order",
}

// skipped props are React's own, never attributes.
var skipped = map[string]bool{
	"children": true, "dangerouslySetInnerHTML": true, "key": true, "ref": true,
	"suppressHydrationWarning": true, "suppressContentEditableWarning": true,
	"defaultValue": true, "defaultChecked": true,
}

func (r *renderer) attrs(props map[string]any) {
	names := make([]string, 0, len(props))
	for k := range props {
		names = append(names, k)
	}
	sort.Strings(names) // JSON objects have no order; a fixed one keeps output stable
	for _, k := range names {
		if skipped[k] {
			continue
		}
		name := k
		if n, ok := reactNames[k]; ok {
			name = n
		}
		lower := strings.ToLower(name)
		if !attrName.MatchString(name) || strings.HasPrefix(lower, "on") || lower == "srcdoc" || lower == "is" {
			continue
		}
		v := props[k]
		if lower == "style" {
			if obj, ok := v.(map[string]any); ok {
				v = styleText(obj)
			}
		}
		var val string
		switch v := v.(type) {
		case string:
			val = v
		case json.Number:
			val = v.String()
		case bool:
			switch {
			case boolAttrs[lower]:
				if v {
					r.b.HTML(markup.Rendered(" " + name)) // checked by attrName
				}
				continue
			case booleanish[lower], strings.HasPrefix(lower, "data-"), strings.HasPrefix(lower, "aria-"):
				val = strconv.FormatBool(v)
			default:
				continue // React leaves out other attributes given a boolean
			}
		default:
			continue // null, arrays and objects are no attribute
		}
		if urlAttrs[lower] {
			u, err := markup.Parse(val)
			if err != nil {
				continue
			}
			r.b.HTML(markup.Rendered(" " + name + `="`))
			r.b.URL(u)
			r.b.Markup(`"`)
			continue
		}
		if lower == "srcset" && !safeSrcset(val) {
			continue
		}
		if lower == "class" {
			r.classes.add(val)
		}
		r.b.HTML(markup.Rendered(" " + name + `="`))
		r.b.Text(val)
		r.b.Markup(`"`)
	}
}

// safeSrcset reports whether every candidate of a srcset is a URL
// markup.Parse accepts.
func safeSrcset(s string) bool {
	for _, c := range strings.Split(s, ",") {
		f := strings.Fields(c)
		if len(f) == 0 {
			continue
		}
		if _, err := markup.Parse(f[0]); err != nil {
			return false
		}
	}
	return true
}

// unitless are the CSS properties React writes numbers into without "px".
var unitless = map[string]bool{
	"animationIterationCount": true, "aspectRatio": true, "borderImageOutset": true, "borderImageSlice": true,
	"borderImageWidth": true, "boxFlex": true, "boxFlexGroup": true, "boxOrdinalGroup": true, "columnCount": true,
	"columns": true, "flex": true, "flexGrow": true, "flexPositive": true, "flexShrink": true, "flexNegative": true,
	"flexOrder": true, "gridArea": true, "gridRow": true, "gridRowEnd": true, "gridRowSpan": true,
	"gridRowStart": true, "gridColumn": true, "gridColumnEnd": true, "gridColumnSpan": true,
	"gridColumnStart": true, "fontWeight": true, "lineClamp": true, "lineHeight": true, "opacity": true,
	"order": true, "orphans": true, "scale": true, "tabSize": true, "widows": true, "zIndex": true, "zoom": true,
	"fillOpacity": true, "floodOpacity": true, "stopOpacity": true, "strokeDasharray": true,
	"strokeDashoffset": true, "strokeMiterlimit": true, "strokeOpacity": true, "strokeWidth": true,
}

// styleText writes a React style object as CSS declarations, as React
// does: camelCase names in kebab case (vendor prefixes with a leading
// hyphen), custom properties as written, numbers in px unless unitless.
// A value that could end the declaration or open a block is left out.
func styleText(obj map[string]any) string {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var decls []string
	for _, k := range keys {
		var val string
		switch v := obj[k].(type) {
		case string:
			val = strings.TrimSpace(v)
		case json.Number:
			val = v.String()
			if !unitless[k] && val != "0" && !strings.HasPrefix(k, "--") {
				val += "px"
			}
		default:
			continue
		}
		if val == "" || strings.ContainsAny(val, ";{}<>") {
			continue
		}
		name := k
		if !strings.HasPrefix(k, "--") {
			name = cssName(k)
		}
		decls = append(decls, name+":"+val)
	}
	return strings.Join(decls, ";")
}

func cssName(k string) string {
	var b strings.Builder
	if strings.HasPrefix(k, "ms") && len(k) > 2 && k[2] >= 'A' && k[2] <= 'Z' {
		b.WriteByte('-') // msTransform is -ms-transform
	}
	for _, c := range k {
		if c >= 'A' && c <= 'Z' {
			b.WriteByte('-') // WebkitTransition is -webkit-transition
			c += 'a' - 'A'
		}
		b.WriteRune(c)
	}
	return b.String()
}

// richAttrs renders the props of a platform component that hold JSX
// (prelude.js sends them as {"$$nodes": [...]}), each with the same care
// as the component's other output.
func (r *renderer) richAttrs(props map[string]any) map[string]markup.HTML {
	var rich map[string]markup.HTML
	for k, v := range props {
		m, ok := v.(map[string]any)
		if !ok {
			continue
		}
		nodes, ok := m["$$nodes"].([]any)
		if !ok {
			continue
		}
		sub := renderer{builtin: r.builtin, limit: r.limit, drawn: r.drawn}
		sub.nodes(nodes)
		if rich == nil {
			rich = map[string]markup.HTML{}
		}
		rich[k] = sub.b.Fragment()
	}
	return rich
}

// builtinAttrs gives a platform component its props as the text MDX
// attributes would carry.
func builtinAttrs(props map[string]any) map[string]string {
	attrs := make(map[string]string, len(props))
	for k, v := range props {
		switch v := v.(type) {
		case string:
			attrs[k] = v
		case json.Number:
			attrs[k] = v.String()
		case bool:
			attrs[k] = strconv.FormatBool(v)
		case map[string]any:
			// An object (value={{ light: …, dark: … }}) as JSON, which
			// MDX would pass as is; JSX as a value is richAttrs'.
			if _, rich := v["$$nodes"]; !rich {
				if b, err := json.Marshal(v); err == nil {
					attrs[k] = string(b)
				}
			}
		case []any: // actions={["copy"]}
			if b, err := json.Marshal(v); err == nil {
				attrs[k] = string(b)
			}
		}
	}
	return attrs
}
