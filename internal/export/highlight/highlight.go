// Package highlight turns code in a named language into highlighted HTML
// at export time, so pages need no client-side highlighter: chroma's
// lexers, found by name once and kept, with its regular-expression lexers
// run by firstCharLexer (the same tokens, faster), and chroma's HTML
// formatter writing class names only.
//
// It writes HTML through internal/export/markup only. It knows no MDX,
// Markdown, pages or interface texts: internal/export/mdx puts a fenced
// code block's title bar and copy button around what it returns, and
// internal/export/apipages its request samples. It picks no colours
// either: the classes are styled by internal/export/theme
// (assets/highlight.css), which also checks their contrast.
package highlight

import (
	"io"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
)

var (
	codeFormatter = chromahtml.New(chromahtml.WithClasses(true))
	// classStyle is what the formatter is given: with classes it writes
	// class names only, and the colours come from the theme's
	// highlight.css.
	classStyle = chroma.MustNewStyle("classes", chroma.StyleEntries{})
	lexerCache sync.Map // language name -> chroma.Lexer
)

// Code renders code in language lang as highlighted HTML (chroma's
// HTML formatter escapes the code).
func Code(lang, code string) (markup.HTML, error) {
	return (*Budget)(nil).Code(lang, code)
}

// Code is the package's Code charged to b (see Budget.Write).
func (b *Budget) Code(lang, code string) (markup.HTML, error) {
	if b != nil {
		h, err := b.html(lang, code)
		if err != nil {
			return markup.HTML{}, err
		}
		return markup.Rendered(h), nil
	}
	var sb strings.Builder
	if err := Write(&sb, lang, code); err != nil {
		return markup.HTML{}, err
	}
	return markup.Rendered(sb.String()), nil
}

// Write writes code in language lang to w as highlighted HTML, for a
// renderer that already holds a writer (goldmark's). An unknown language
// is highlighted by chroma's fallback lexer, as plain text. On an error
// (a block whose highlighting ran out of time, one too large or with a
// line too long, one that takes too much work: see maxBlockBytes) nothing
// is written and the caller shows Plain instead.
func Write(w io.Writer, lang, code string) error {
	return writeBy(w, lang, code, time.Now().Add(blockBudget))
}

// writeBy is Write with the block's deadline given.
func writeBy(w io.Writer, lang, code string, deadline time.Time) error {
	_, err := writeWithin(w, lang, code, deadline, math.MaxInt)
	return err
}

// writeWithin is writeBy with at most left work units (workUnit; a byte
// is one for a lexer that is not chroma's regular-expression kind), what
// an export's budget has left: past it nothing is written and the error
// is errWorkSpent. work is what the block cost, spent even when it fails.
func writeWithin(w io.Writer, lang, code string, deadline time.Time, left int) (work int, _ error) {
	var it chroma.Iterator
	switch l := lookupLexer(lang).(type) {
	case *firstCharLexer:
		tokens, spent, err := l.tokensWithin(code, deadline, left)
		if err != nil {
			return spent, err
		}
		work, it = spent, chroma.Literator(tokens...)
	default:
		if err := checkSize(code); err != nil {
			return 0, err
		}
		if work = len(code); work > left {
			return 0, errWorkSpent
		}
		var err error
		if it, err = chroma.Coalesce(l).Tokenise(nil, code); err != nil {
			return work, err
		}
	}
	return work, codeFormatter.Format(w, classStyle, it)
}

// Plain is code shown without highlighting, in the same <pre> as
// highlighted code.
func Plain(code string) markup.HTML {
	return markup.Concat(markup.Const(`<pre class="chroma"><code>`), markup.Text(code), markup.Const(`</code></pre>`))
}

func lookupLexer(lang string) chroma.Lexer {
	lang = strings.ToLower(lang)
	if l, ok := lexerCache.Load(lang); ok {
		return l.(chroma.Lexer)
	}
	l := lexers.Get(lang)
	if l == nil {
		l = lexers.Fallback
	}
	// Chroma's regular-expression lexers run through firstCharLexer, the
	// same tokens for a fraction of the time; one it cannot prepare stays
	// chroma's.
	if rl, ok := l.(*chroma.RegexLexer); ok {
		if f, err := newFirstCharLexer(rl); err == nil {
			l = f
		}
	}
	lexerCache.Store(lang, l)
	return l
}
