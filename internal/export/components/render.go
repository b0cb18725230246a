package components

import "github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"

// tag is what a component is drawn from: its name and attributes, as
// written (an expression's value already taken out of its braces).
type tag struct {
	name  string
	attrs map[string]string
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

// Names are the platform's components Render draws; inside a custom
// component's JSX they render exactly as in MDX.
var Names = []string{
	"Note", "Info", "Tip", "Warning", "Check", "Danger", "Callout",
	"Steps", "Step", "Tabs", "Tab", "CodeGroup", "CardGroup", "Columns", "Card",
	"AccordionGroup", "Accordion", "Expandable", "Frame", "ParamField", "ResponseField",
	"Icon", "Badge", "Tooltip", "Update", "RequestExample", "ResponseExample",
	"Tree", "Tree.Folder", "Tree.File",
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
