package components

import "github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"

// tag is what a component is drawn from: its name and attributes, as
// written (an expression's value already taken out of its braces).
type tag struct {
	name  string
	attrs map[string]string
	// rich are attributes whose value is markup: JSX written as the
	// value (title={<span>Beta</span>}, icon={<svg …/>}), rendered by
	// the component evaluator. They take the place of a text attribute
	// of the same name.
	rich map[string]markup.HTML
}

// text returns attribute name as the component shows it: its markup when
// rich, else its text.
func (t *tag) text(name string) markup.HTML {
	if h, ok := t.rich[name]; ok {
		return h
	}
	return markup.Text(t.attrs[name])
}

// has reports whether attribute name has a value to show.
func (t *tag) has(name string) bool {
	if h, ok := t.rich[name]; ok {
		return !h.Empty()
	}
	return t.attrs[name] != ""
}

// attr returns the first non-empty attribute among names; components accept
// several spellings (ParamField takes its name from path, query, body...).
func (t *tag) attr(names ...string) string {
	for _, n := range names {
		if v := t.attrs[n]; v != "" {
			return v
		}
	}
	return ""
}

// flag reports a boolean attribute: bare (<Accordion defaultOpen>) or {true}.
func (t *tag) flag(name string) bool {
	v, ok := t.attrs[name]
	return ok && v != "false"
}

// Render returns the HTML that opens and closes the component name with
// attributes attrs (nil for none). A name that is not one of Names gets
// a plain wrapper that keeps its children. l holds the texts the
// components write, in the page's language; nil is English.
func Render(name string, attrs map[string]string, l *Labels) (openHTML, closeHTML markup.HTML) {
	return renderComponent(&tag{name: name, attrs: attrs}, l)
}

// RenderRich is Render with attributes whose values are markup (rich):
// JSX a page wrote as an attribute's value, already rendered and
// sanitized by the component evaluator. A rich title, label,
// description, caption or icon is drawn as that markup.
func RenderRich(name string, attrs map[string]string, rich map[string]markup.HTML, l *Labels) (openHTML, closeHTML markup.HTML) {
	return renderComponent(&tag{name: name, attrs: attrs, rich: rich}, l)
}

// Names are the platform's components Render draws; inside a custom
// component's JSX they render exactly as in MDX.
var Names = []string{
	"Note", "Info", "Tip", "Warning", "Check", "Danger", "Callout",
	"Steps", "Step", "Tabs", "Tab", "CodeGroup", "CardGroup", "Columns", "Card",
	"AccordionGroup", "Accordion", "Expandable", "Frame", "ParamField", "ResponseField",
	"Icon", "Badge", "Tooltip", "Update", "RequestExample", "ResponseExample",
	"Tree", "Tree.Folder", "Tree.File", "FileTree",
	"Visibility", "View", "Tile", "Prompt", "Color", "Color.Row", "Color.Item", "Panel", "GitHub.Repo", "Column",
}

var isName = func() map[string]bool {
	set := map[string]bool{}
	for _, n := range Names {
		set[n] = true
	}
	return set
}()

// Has reports whether name is one of Names.
func Has(name string) bool { return isName[name] }
