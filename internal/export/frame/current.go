package frame

import (
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// MarkCurrent flags the page's own sidebar link, found by its exact href,
// and opens the collapsed groups around it so a reader sees where they
// are without script.
func MarkCurrent(chrome markup.HTML, prefix markup.Prefix, out string) markup.HTML {
	link := pageLinkTag(prefix, out)
	c := chrome.String()
	// Only the sidebar: a top bar link to the same page is not "current".
	side := strings.Index(c, `<nav class="sidebar"`)
	if side < 0 {
		return chrome
	}
	if marked, ok := markLink(c, side, link); ok {
		// Only attributes and open flags were added to markup that was safe.
		return markup.Rendered(marked)
	}
	return chrome
}

// pageLinkTag is the opening tag of the sidebar link, under prefix, to
// the page at out, as pageLink writes it.
func pageLinkTag(prefix markup.Prefix, out string) string {
	var lb markup.Builder
	lb.Markup(`<a href="`)
	lb.URL(markup.Path(prefix, out, ""))
	lb.Markup(`">`)
	return lb.String()
}

// markLink flags the first link of c after offset from whose opening tag
// is link, and opens the collapsed <details> around it; false when c has
// no such link.
func markLink(c string, from int, link string) (string, bool) {
	at := strings.Index(c[from:], link)
	if at < 0 {
		return c, false
	}
	at += from
	var b strings.Builder
	b.Grow(len(c) + 64)
	last := 0
	for _, i := range openDetails(c[:at]) {
		if strings.HasPrefix(c[i:], `<details>`) {
			b.WriteString(c[last:i])
			b.WriteString(`<details open>`)
			last = i + len(`<details>`)
		}
	}
	b.WriteString(c[last:at])
	b.WriteString(strings.TrimSuffix(link, `>`) + ` aria-current="page">`)
	b.WriteString(c[at+len(link):])
	return b.String(), true
}

// openDetails returns the offsets of the <details> elements still open at
// the end of s, outermost first.
func openDetails(s string) []int {
	var stack []int
	for i := 0; ; {
		o := strings.Index(s[i:], "<details")
		c := strings.Index(s[i:], "</details>")
		switch {
		case o < 0 && c < 0:
			return stack
		case c < 0 || o >= 0 && o < c:
			stack = append(stack, i+o)
			i += o + len("<details")
		default:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			i += c + len("</details>")
		}
	}
}
