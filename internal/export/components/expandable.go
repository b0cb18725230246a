package components

import (
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// expandable draws an <Expandable> as a <details> whose summary says
// what a click does, as the platform's does: "Show properties" while
// closed, "Hide properties" while open (CSS shows one of the two, so it
// works without script). The title defaults to l.Properties.
func expandable(t *tag, l *Labels) (markup.HTML, markup.HTML) {
	title := t.attr("title")
	if title == "" {
		title = l.Properties
	}
	var b markup.Builder
	b.Markup(`<details class="expandable"`)
	if t.flag("defaultOpen") {
		b.Markup(` open`)
	}
	b.Markup(`><summary>`)
	b.HTML(iconOf(t))
	b.Markup(`<span class="expand-show">`)
	b.Text(strings.ReplaceAll(l.ExpandShow, "{name}", title))
	b.Markup(`</span><span class="expand-hide">`)
	b.Text(strings.ReplaceAll(l.ExpandHide, "{name}", title))
	b.Markup(`</span></summary><div class="details-body">`)
	return b.Fragment(), markup.Const(`</div></details>`)
}
