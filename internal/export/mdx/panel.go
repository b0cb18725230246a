package mdx

import (
	"bytes"
	"slices"

	"golang.org/x/net/html"
)

// SplitPanel takes the <Panel> blocks (components render them as
// <aside class="side-panel">) out of a rendered page: the platform shows
// their content in place of the page's table of contents. It returns the
// panels' content, in page order, and the page without them; a page
// without a panel returns rendered as it is. A block whose end is
// missing runs to the end of the page, as a browser would read it.
func SplitPanel(rendered []byte) (panel, rest []byte) {
	if !bytes.Contains(rendered, []byte(`class="side-panel"`)) {
		return nil, rendered
	}
	var (
		out   bytes.Buffer
		depth int // open asides of the panel being copied; 0 outside
	)
	rawTokens(rendered, func(z *html.Tokenizer, tt html.TokenType, raw []byte) {
		name, hasAttr := z.TagName()
		aside := string(name) == "aside" && (tt == html.StartTagToken || tt == html.EndTagToken)
		switch {
		case depth == 0 && aside && tt == html.StartTagToken && hasAttr && slices.Contains(classes(z), "side-panel"):
			depth = 1 // the wrapper itself is left behind
		case depth == 0:
			out.Write(raw)
		case aside && tt == html.StartTagToken:
			depth++
			panel = append(panel, raw...)
		case aside && tt == html.EndTagToken:
			if depth--; depth > 0 {
				panel = append(panel, raw...)
			}
		default:
			panel = append(panel, raw...)
		}
	})
	return panel, out.Bytes()
}
