package mdx

import (
	"strings"
)

// jsxTag is one parsed JSX tag such as <Card title="A" href="/a">.
type jsxTag struct {
	name        string
	attrs       map[string]string
	closing     bool   // </Name>
	selfClosing bool   // <Name />
	src         string // the tag as written, for the props of a custom component
	// exprs are the attributes written in braces, as written there.
	exprs map[string]string
	// changed: attrs were changed after parsing, so an HTML tag is
	// written from them, not as it was written (htmlTag).
	changed bool
}

// attr returns the first non-empty attribute among names; components accept
// several spellings (ParamField takes its name from path, query, body...).
func (t *jsxTag) attr(names ...string) string {
	for _, n := range names {
		if v := t.attrs[n]; v != "" {
			return v
		}
	}
	return ""
}

// flag reports a boolean attribute: bare (<Accordion defaultOpen>) or {true}.
func (t *jsxTag) flag(name string) bool {
	v, ok := t.attrs[name]
	return ok && v != "false"
}

// isComponentStart reports whether s begins a JSX component tag: MDX tells
// components from HTML by the capital first letter.
func isComponentStart(s string) bool {
	if len(s) < 2 || s[0] != '<' {
		return false
	}
	c := s[1]
	if c == '/' && len(s) > 2 {
		c = s[2]
	}
	return c >= 'A' && c <= 'Z'
}

// parseTag parses the tag at the start of s and returns it with the number
// of bytes it spans. When ok is false, n is -1 if s ends inside the tag
// (callers then join the next line: attributes often span lines) and 0 if
// s is not a tag at all.
func parseTag(s string) (t jsxTag, n int, ok bool) {
	t, n, ok, _ = scanTag(s)
	return t, n, ok
}

// scanTag is parseTag that also returns, on failure, how far it read: the
// bytes before stop belong to the failed tag and hold no other tag start
// worth trying, which keeps a line of many broken tags linear to scan.
func scanTag(s string) (t jsxTag, n int, ok bool, stop int) {
	t, n, ok, stop = scanTagBody(s)
	if ok {
		stop = n
		t.src = s[:n]
	}
	return t, n, ok, max(stop, 1)
}

func scanTagBody(s string) (t jsxTag, n int, ok bool, stop int) {
	i := 1
	if i < len(s) && s[i] == '/' {
		t.closing = true
		i++
	}
	start := i
	for i < len(s) && isNameByte(s[i]) {
		i++
	}
	t.name = s[start:i]
	if t.name == "" {
		return t, 0, false, i
	}
	for {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i >= len(s) {
			return t, -1, false, len(s)
		}
		switch {
		case s[i] == '>':
			return t, i + 1, true, 0
		case s[i] == '/' && i+1 < len(s) && s[i+1] == '>':
			t.selfClosing = true
			return t, i + 2, true, 0
		case s[i] == '{':
			// A spread such as {...props} carries nothing static.
			end := matchBrace(s, i)
			if end < 0 {
				return t, -1, false, len(s)
			}
			i = end + 1
			continue
		}
		ns := i
		for i < len(s) && (isNameByte(s[i]) || s[i] == ':') {
			i++
		}
		if ns == i {
			return t, 0, false, i // stray character: not a tag we understand
		}
		name := s[ns:i]
		if t.attrs == nil {
			t.attrs = map[string]string{}
		}
		if i >= len(s) || s[i] != '=' {
			t.attrs[name] = "true"
			continue
		}
		i++
		if i >= len(s) {
			return t, -1, false, len(s)
		}
		switch q := s[i]; q {
		case '"', '\'':
			end := strings.IndexByte(s[i+1:], q)
			if end < 0 {
				return t, -1, false, len(s)
			}
			t.attrs[name] = s[i+1 : i+1+end]
			i += end + 2
		case '{':
			end := matchBrace(s, i)
			if end < 0 {
				return t, -1, false, len(s)
			}
			t.attrs[name] = exprValue(s[i+1 : end])
			if t.exprs == nil {
				t.exprs = map[string]string{}
			}
			t.exprs[name] = strings.TrimSpace(s[i+1 : end])
			i = end + 1
		default:
			return t, 0, false, i
		}
	}
}

// matchBrace returns the index of the brace closing the one at s[i],
// skipping string literals, or -1 when the expression is unterminated.
func matchBrace(s string, i int) int {
	depth := 0
	for ; i < len(s); i++ {
		switch c := s[i]; c {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i
			}
		case '"', '\'', '`':
			end := strings.IndexByte(s[i+1:], c)
			if end < 0 {
				return -1
			}
			i += end + 1
		}
	}
	return -1
}

// exprValue reduces a JSX expression attribute to text: string literals
// lose their quotes, anything else (numbers, booleans, arrays) stays as
// written, since there is no JavaScript to evaluate it at export time.
func exprValue(e string) string {
	e = strings.TrimSpace(e)
	if len(e) >= 2 {
		if q := e[0]; (q == '"' || q == '\'' || q == '`') && e[len(e)-1] == q {
			return e[1 : len(e)-1]
		}
	}
	return e
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_'
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
