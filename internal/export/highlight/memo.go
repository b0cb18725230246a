package highlight

import (
	"strings"
	"sync"
)

// memo keeps the HTML of blocks an export has highlighted, so that a
// block met again is written without being tokenised again. A versioned,
// translated site holds each code block once per version and language
// (thirty versions of four languages: 120 copies), and its endpoint pages
// the same response examples; highlighting them was a fifth of such an
// export's time and a third of what it allocated.
//
// The key is the language as written (lower-cased) and the code: the
// HTML depends on nothing else, since the formatter writes class names
// only and the theme's stylesheet colours them. Only blocks highlighted
// in full are kept; a block cut short by its deadline or the budget is
// not, so a hit is always what highlighting it would write.
//
// Its size is bounded by two generations of at most memoBytes each: a
// full current generation becomes the old one, the old one is dropped,
// and a block found in the old one moves to the current one. What is
// met often stays; a site of only distinct blocks costs 2*memoBytes.
type memo struct {
	mu       sync.Mutex
	cur, old map[memoKey]string
	curBytes int
}

type memoKey struct{ lang, code string }

// memoBytes bounds one generation: its blocks' code and HTML.
const memoBytes = 4 << 20

// get returns the HTML of code in lang if it is kept.
func (m *memo) get(lang, code string) (string, bool) {
	k := memoKey{strings.ToLower(lang), code}
	m.mu.Lock()
	defer m.mu.Unlock()
	if h, ok := m.cur[k]; ok {
		return h, true
	}
	h, ok := m.old[k]
	if ok {
		delete(m.old, k)
		m.putLocked(k, h)
	}
	return h, ok
}

// put keeps html as the HTML of code in lang.
func (m *memo) put(lang, code, html string) {
	// Copies: the code is often a piece of its page's source, which the
	// memo would otherwise keep alive.
	k := memoKey{strings.Clone(strings.ToLower(lang)), strings.Clone(code)}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.cur[k]; !ok {
		m.putLocked(k, html)
	}
}

func (m *memo) putLocked(k memoKey, html string) {
	size := len(k.lang) + len(k.code) + len(html)
	if size > memoBytes/16 {
		return // a block this large is rarely repeated; it would push out many
	}
	if m.cur == nil || m.curBytes+size > memoBytes {
		m.old, m.cur, m.curBytes = m.cur, map[memoKey]string{}, 0
	}
	m.cur[k] = html
	m.curBytes += size
}
