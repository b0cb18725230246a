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
	// Panel is the content of the page's <Panel>, shown above the
	// examples (SplitPanel).
	Panel []byte
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
	)
	rawTokens(rendered, func(z *html.Tokenizer, tt html.TokenType, raw []byte) {
		name, hasAttr := z.TagName()
		div := string(name) == "div"
		if into == nil {
			if tt == html.StartTagToken && div && hasAttr {
				switch exampleKind(classes(z)) {
				case "example-request":
					into, depth = &ex.Request, 1
				case "example-response":
					into, depth = &ex.Response, 1
				}
			}
			if into == nil {
				rest.Write(raw)
			} else {
				*into = append(*into, raw...)
			}
			return
		}
		*into = append(*into, raw...)
		switch {
		case !div:
		case tt == html.StartTagToken:
			depth++
		case tt == html.EndTagToken:
			if depth--; depth == 0 {
				into = nil
			}
		}
	})
	ex.Rest = rest.Bytes()
	return ex
}

// rawTokens walks src's HTML tokens, calling f with each token's type and
// its bytes as written; f reads names and attributes from z.
func rawTokens(src []byte, f func(z *html.Tokenizer, tt html.TokenType, raw []byte)) {
	z := html.NewTokenizer(bytes.NewReader(src))
	for pos := 0; ; {
		tt := z.Next()
		if tt == html.ErrorToken {
			return
		}
		raw := src[pos : pos+len(z.Raw())]
		pos += len(raw)
		f(z, tt, raw)
	}
}

// classes are the class names of the start tag z is at.
func classes(z *html.Tokenizer) []string {
	for {
		key, val, more := z.TagAttr()
		if string(key) == "class" {
			return strings.Fields(string(val))
		}
		if !more {
			return nil
		}
	}
}

// exampleKind is the example class of a div's classes, if it is a
// RequestExample or ResponseExample wrapper.
func exampleKind(f []string) string {
	if len(f) >= 2 && f[0] == "example" {
		return f[1]
	}
	return ""
}
