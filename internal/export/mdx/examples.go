package mdx

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
)

// Examples are the <RequestExample> and <ResponseExample> blocks of a
// rendered page, taken out of it: the platform pins them in the page's
// right-hand column on wide screens instead of showing them in the flow.
type Examples struct {
	// Rest is the rendered page without the blocks.
	Rest []byte
	// Request and Response are the blocks, each in page order, as
	// rendered (the example wrapper, its title and its code blocks).
	Request, Response []byte
}

// SplitExamples takes the RequestExample and ResponseExample blocks out of
// rendered, wherever they sit. A page without any returns rendered as
// Rest. A block whose end is missing (unbalanced raw HTML inside it)
// runs to the end of the page, as a browser would read it.
func SplitExamples(rendered []byte) Examples {
	if !bytes.Contains(rendered, []byte(`class="example example-re`)) {
		return Examples{Rest: rendered}
	}
	var (
		ex    Examples
		rest  bytes.Buffer
		into  *[]byte // the block being copied, or nil
		depth int     // open divs of that block
		pos   int
	)
	z := html.NewTokenizer(bytes.NewReader(rendered))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		raw := rendered[pos : pos+len(z.Raw())]
		pos += len(raw)
		if into == nil {
			if tt == html.StartTagToken {
				if name, hasAttr := z.TagName(); string(name) == "div" && hasAttr {
					switch exampleKind(z) {
					case "example-request":
						into, depth = &ex.Request, 1
					case "example-response":
						into, depth = &ex.Response, 1
					}
				}
			}
			if into == nil {
				rest.Write(raw)
			} else {
				*into = append(*into, raw...)
			}
			continue
		}
		*into = append(*into, raw...)
		if tt != html.StartTagToken && tt != html.EndTagToken {
			continue
		}
		if name, _ := z.TagName(); string(name) == "div" {
			if tt == html.StartTagToken {
				depth++
			} else if depth--; depth == 0 {
				into = nil
			}
		}
	}
	ex.Rest = rest.Bytes()
	return ex
}

// exampleKind is the example class of the div start tag z is at, if it
// is a RequestExample or ResponseExample wrapper.
func exampleKind(z *html.Tokenizer) string {
	for {
		key, val, more := z.TagAttr()
		if string(key) == "class" {
			f := strings.Fields(string(val))
			if len(f) >= 2 && f[0] == "example" {
				return f[1]
			}
			return ""
		}
		if !more {
			return ""
		}
	}
}
