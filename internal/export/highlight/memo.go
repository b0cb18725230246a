package highlight

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"io"
	"strings"
	"sync"
)

// memo keeps the HTML of blocks an export has highlighted, so that a
// block met again is written without being tokenised again. A versioned,
// translated site holds each code block once per version and language
// (thirty versions of four languages: 120 copies), and its endpoint pages
// the same response and request examples; highlighting them was a fifth
// of such an export's time and a third of what it allocated.
//
// The key is a hash of the language as written (lower-cased) and the
// code: the HTML depends on nothing else, since the formatter writes
// class names only and the theme's stylesheet colours them. Only blocks
// highlighted in full are kept; a block cut short by its deadline or the
// budget is not, so a hit is always what highlighting it would write.
//
// The HTML is kept deflated: chroma's spans repeat, so a block's HTML
// shrinks about six times, and inflating it costs a few per cent of
// highlighting it again. Within the same bytes the memo holds every
// block of a language's pass through a 25,000-page site, whose pages
// come language by language, so the other languages' copies are hits.
//
// Its size is bounded by two generations of at most memoBytes each: a
// full current generation becomes the old one, the old one is dropped,
// and a block found in the old one moves to the current one. What is
// met often stays; a site of only distinct blocks costs 2*memoBytes.
type memo struct {
	mu       sync.Mutex
	cur, old map[memoKey][]byte // the HTML's length as a varint, then the HTML deflated
	curBytes int
}

// memoKey is the SHA-256 of a block's language and code: its code would
// take as much room as its deflated HTML.
type memoKey [sha256.Size]byte

func keyOf(lang, code string) memoKey {
	h := sha256.New()
	h.Write([]byte(strings.ToLower(lang)))
	h.Write([]byte{0})
	h.Write([]byte(code))
	var k memoKey
	h.Sum(k[:0])
	return k
}

// memoBytes bounds one generation: its keys and deflated HTML.
const memoBytes = 4 << 20

// deflaters and inflaters are reused: a flate writer holds about 1 MB
// of tables, too much to make per block.
var (
	deflaters = sync.Pool{New: func() any {
		w, _ := flate.NewWriter(nil, flate.BestSpeed) // the level is valid: no error
		return w
	}}
	inflaters sync.Pool // of io.ReadCloser that are flate.Resetter
)

// get returns the HTML of code in lang if it is kept.
func (m *memo) get(lang, code string) (string, bool) {
	k := keyOf(lang, code)
	m.mu.Lock()
	z, ok := m.cur[k]
	if !ok {
		if z, ok = m.old[k]; ok {
			delete(m.old, k)
			m.putLocked(k, z)
		}
	}
	m.mu.Unlock()
	if !ok {
		return "", false
	}
	h, err := inflate(z)
	return h, err == nil // an error is a memo bug; the block is highlighted again
}

// put keeps html as the HTML of code in lang.
func (m *memo) put(lang, code, html string) {
	if len(html) > 4*memoBytes {
		return // even deflated, far past what putLocked keeps
	}
	k := keyOf(lang, code)
	z := deflate(html)
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.cur[k]; !ok {
		m.putLocked(k, z)
	}
}

func (m *memo) putLocked(k memoKey, z []byte) {
	size := len(k) + len(z)
	if size > memoBytes/16 {
		return // a block this large is rarely repeated; it would push out many
	}
	if m.cur == nil || m.curBytes+size > memoBytes {
		m.old, m.cur, m.curBytes = m.cur, map[memoKey][]byte{}, 0
	}
	m.cur[k] = z
	m.curBytes += size
}

func deflate(html string) []byte {
	var b bytes.Buffer
	b.Write(binary.AppendUvarint(nil, uint64(len(html))))
	w := deflaters.Get().(*flate.Writer)
	w.Reset(&b)
	// Writes to a bytes.Buffer do not fail.
	_, _ = io.WriteString(w, html)
	_ = w.Close()
	deflaters.Put(w)
	return b.Bytes()
}

func inflate(z []byte) (string, error) {
	size, n := binary.Uvarint(z)
	if n <= 0 || size > 4*memoBytes {
		return "", errors.New("highlight memo: a bad length") // never: deflate wrote it
	}
	src := bytes.NewReader(z[n:])
	r, _ := inflaters.Get().(io.ReadCloser)
	if r == nil {
		r = flate.NewReader(src)
	} else if err := r.(flate.Resetter).Reset(src, nil); err != nil {
		return "", err
	}
	var sb strings.Builder
	sb.Grow(int(size))
	_, err := io.CopyN(&sb, r, int64(size))
	inflaters.Put(r)
	return sb.String(), err
}
