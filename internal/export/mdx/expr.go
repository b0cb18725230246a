package mdx

import (
	"encoding/json"
	"html"
	"strings"
)

// MDX evaluates every expression in a page's content: {1 + 1} shows 2,
// {plans.map(p => <Card title={p.name} />)} the cards. The export does
// the same, in the component evaluator with the page's module in scope
// (addExpression); an expression that fails shows as written, with a
// warning naming the page, the line and the expression.

// expression returns what stands for the expression src (the text
// between its braces) in the page's Markdown: nothing for a comment, a
// literal string or number as its text, else the markers of an
// evaluated use. ok is false when the expression is left as written.
func (m *mdx) expression(src string) (string, bool) {
	code := strings.TrimSpace(src)
	if code == "" {
		return "", true
	}
	if strings.HasPrefix(code, "/*") && strings.HasSuffix(code, "*/") && !strings.Contains(code[2:len(code)-2], "*/") {
		return "", true
	}
	var lit any
	if json.Unmarshal([]byte(code), &lit) == nil {
		switch v := lit.(type) {
		case string:
			return html.EscapeString(v), true
		case json.Number, float64:
			return code, true
		case nil, bool:
			return "", true // React shows neither
		}
	}
	return m.addExpression(code)
}

// isProp reports whether s, from an opening brace, is a snippet's prop
// ({name}), which the snippet's caller gave as text.
func (m *mdx) isProp(s string) bool {
	end := strings.IndexByte(s, '}')
	if end < 0 {
		return false
	}
	_, ok := m.props[strings.TrimSpace(s[1:end])]
	return ok
}
