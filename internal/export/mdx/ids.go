package mdx

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
)

// headingIDs makes the ids of a page's headings as the platform does:
// letters and digits of any script are kept (lower-cased), every run of
// anything else becomes one hyphen, hyphens at the ends are dropped, and
// a repeated id is numbered (-1, -2, …). Markup written inside a heading
// is not part of its id. One is made per page: ids are unique within it.
type headingIDs struct {
	used map[string]bool
}

var _ parser.IDs = (*headingIDs)(nil)

func newHeadingIDs() *headingIDs { return &headingIDs{used: map[string]bool{}} }

// Generate implements parser.IDs.
func (h *headingIDs) Generate(value []byte, _ ast.NodeKind) []byte {
	id := HeadingSlug(string(value))
	if id == "" {
		id = "heading"
	}
	base := id
	for i := 1; h.used[id]; i++ {
		id = base + "-" + strconv.Itoa(i)
	}
	h.used[id] = true
	return []byte(id)
}

// Put implements parser.IDs: an id written by the author ({#id}) is
// taken, so a generated one never repeats it.
func (h *headingIDs) Put(value []byte) { h.used[string(value)] = true }

// HeadingSlug is the id of a heading whose text is s (see headingIDs).
func HeadingSlug(s string) string { return markup.TextSlug(stripTags(s)) }

// stripTags drops <…> tags from heading text, keeping what they enclose.
func stripTags(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	var b bytes.Buffer
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], '>')
		if j < 0 {
			break
		}
		b.WriteString(s[:i])
		s = s[i+j+1:]
	}
	b.WriteString(s)
	return b.String()
}
