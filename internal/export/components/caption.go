package components

import (
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// inlineMarkdown writes s, a Frame's caption, with the inline Markdown
// the platform's page allows there: **strong**, *emphasis* (or _…_),
// `code` and [links](url). Anything else is text; a link to a scheme
// that is not allowed keeps its text only. depth bounds the nesting.
func inlineMarkdown(b *markup.Builder, s string, depth int) {
	text := 0 // s[text:i] is plain text not yet written
	for i := 0; i < len(s); {
		open, closing, inner, end := inlineSpan(s, i)
		if end < 0 || depth > 4 {
			i++
			continue
		}
		b.Text(s[text:i])
		switch open {
		case "`":
			b.Markup(`<code>`)
			b.Text(inner)
			b.Markup(`</code>`)
		case "[":
			if u, ok := componentURL(closing); ok {
				b.Markup(`<a href="`)
				b.URL(u)
				b.Markup(`">`)
				inlineMarkdown(b, inner, depth+1)
				b.Markup(`</a>`)
			} else {
				inlineMarkdown(b, inner, depth+1)
			}
		case "**", "__":
			b.Markup(`<strong>`)
			inlineMarkdown(b, inner, depth+1)
			b.Markup(`</strong>`)
		default:
			b.Markup(`<em>`)
			inlineMarkdown(b, inner, depth+1)
			b.Markup(`</em>`)
		}
		i, text = end, end
	}
	b.Text(s[text:])
}

// inlineSpan reads the span that starts at s[i], if one does: its
// opening mark, for a link its address (closing), its inner text and
// where it ends; end is -1 when no span starts there.
func inlineSpan(s string, i int) (open, closing, inner string, end int) {
	switch {
	case s[i] == '`':
		if j := strings.IndexByte(s[i+1:], '`'); j > 0 {
			return "`", "", s[i+1 : i+1+j], i + 2 + j
		}
	case s[i] == '[':
		j := strings.Index(s[i:], "](")
		if j < 0 {
			break
		}
		k := strings.IndexByte(s[i+j:], ')')
		if k < 0 {
			break
		}
		return "[", strings.TrimSpace(s[i+j+2 : i+j+k]), s[i+1 : i+j], i + j + k + 1
	case strings.HasPrefix(s[i:], "**") || strings.HasPrefix(s[i:], "__"):
		mark := s[i : i+2]
		if j := strings.Index(s[i+2:], mark); j > 0 {
			return mark, "", s[i+2 : i+2+j], i + 4 + j
		}
	case s[i] == '*' || s[i] == '_' && (i == 0 || s[i-1] == ' '):
		mark := s[i : i+1]
		if j := strings.Index(s[i+1:], mark); j > 0 && s[i+1] != ' ' {
			return mark, "", s[i+1 : i+1+j], i + 2 + j
		}
	}
	return "", "", "", -1
}
