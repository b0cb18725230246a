package machines

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	snowball "github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/english"
)

// The search's words. The index side (here) and the query side
// (assets/search.js) must cut text into the same words and reduce them
// to the same terms, or a query misses what the index holds; the JS side
// is checked against this one word for word (TestStem_jsAgreesWithGo).
//
// A word is a run of letters and digits, lower-cased. A run with CJK
// characters, which are written without spaces, is cut into overlapping
// pairs of characters instead, so that a query finds a word inside a
// sentence. English words are reduced to their Porter2 (Snowball
// English) stem, so "configuring" finds "configured"; pages in other
// languages keep their words as written.

// searchWords returns the runs of letters and digits of s, the words
// as search.js reads them (a loop, not a regexp: the index cuts every
// page's text, and the loop is several times faster).
func searchWords(s string) []string {
	var out []string
	start := -1
	for i, r := range s {
		in := unicode.IsLetter(r) || unicode.IsNumber(r)
		switch {
		case in && start < 0:
			start = i
		case !in && start >= 0:
			out = append(out, s[start:i])
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// isCJK reports whether r is written without spaces between words
// (kana, CJK ideographs, Hangul), as search.js's cjk test does.
func isCJK(r rune) bool {
	return r >= 0x3040 && r <= 0x30ff || r >= 0x3400 && r <= 0x9fff || r >= 0xf900 && r <= 0xfaff || r >= 0xac00 && r <= 0xd7af
}

// searchTerms calls add with each word of s (lower-cased) and the term
// it is indexed under: the word's stem when stem is set, else the word;
// a CJK run gives its character pairs (a lone character itself) as both.
func searchTerms(s string, stem bool, add func(word, term string)) {
	for _, w := range searchWords(strings.ToLower(s)) {
		if !strings.ContainsFunc(w, isCJK) {
			t := w
			if stem {
				t = Stem(w)
			}
			add(w, t)
			continue
		}
		rs := []rune(w)
		if len(rs) == 1 {
			add(w, w)
			continue
		}
		for i := 0; i+1 < len(rs); i++ {
			p := string(rs[i : i+2])
			add(p, p)
		}
	}
}

// Stem returns the Porter2 (Snowball English) stem of the lower-case
// word w. Only words of ASCII letters are stemmed; any other word (with
// digits, accents, another script) is its own stem, on both sides.
func Stem(w string) string {
	if len(w) < 3 || strings.IndexFunc(w, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
		return w
	}
	env := snowball.NewEnv(w)
	english.Stem(env)
	return env.Current()
}

// shardKey is the name of the term shard that holds term t: its first
// two characters when they are ASCII letters or digits, else its first
// one, else "u" and the first character's code point modulo 64 (the
// same in search.js).
func shardKey(t string) string {
	ascii := func(b byte) bool { return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' }
	switch {
	case len(t) >= 2 && ascii(t[0]) && ascii(t[1]):
		return t[:2]
	case len(t) >= 1 && ascii(t[0]):
		return t[:1]
	}
	r, _ := utf8.DecodeRuneInString(t)
	return "u" + strconv.Itoa(int(r)%64)
}
