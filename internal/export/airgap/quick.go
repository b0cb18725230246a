package airgap

import "bytes"

// mayReachOut is HTML's quick test, one pass over content without
// tokenising it: false means the full pass would find nothing to take
// out or rewrite, and content can be returned as it is. The full pass
// acts only on a start tag that is an embed, a <style>, <base> or <meta>,
// or whose markup holds "url(", "ping" or "action"; every tag starts at
// a '<', so a content with no such name after any '<' and none of those
// words anywhere has nothing for it. The test errs towards the full
// pass: a '<' in text counts, and a word in text does too.
func mayReachOut(content []byte) bool {
	// The full pass lower-cases by Unicode: U+0130 (İ) lowers to "i",
	// which "ping" and "action" hold.
	if bytes.Contains(content, []byte("\u0130")) {
		return true
	}
	if hasActiveWord(content) || spellsURLOtherwise(content) {
		return true
	}
	for rest := content; ; {
		i := bytes.IndexByte(rest, '<')
		if i < 0 {
			return false
		}
		rest = rest[i+1:]
		if quickTagMatters(rest) {
			return true
		}
	}
}

// quickTagMatters reports whether the tag name at the start of b, cut
// where rawTagName cuts it, may be one the full pass acts on. A name
// with a byte outside ASCII may lower-case to one (the Kelvin sign
// lowers to "k"), so it counts.
func quickTagMatters(b []byte) bool {
	var name [len("feimage")]byte // the longest name that matters
	n := 0
	for _, c := range b {
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '/' || c == '>' {
			break
		}
		if c >= 0x80 {
			return true // before the length: "fe\u0130mage" is 8 bytes
		}
		if n == len(name) {
			return false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		name[n] = c //nolint:gosec // n < len(name), checked just above
		n++
	}
	s := string(name[:n]) // no allocation: a short string that does not escape
	return embedKinds[s] != "" || s == "style" || s == "base" || s == "meta"
}

// hasActiveWord reports whether b holds "url(", "ping" or "action" in
// any case of ASCII letters, in one pass.
func hasActiveWord(b []byte) bool {
	for i, c := range b {
		switch c | 0x20 { // ASCII letters to lower case; other bytes never match below
		case 'u':
			if foldAt(b, i, "url(") {
				return true
			}
		case 'p':
			if foldAt(b, i, "ping") {
				return true
			}
		case 'a':
			if foldAt(b, i, "action") {
				return true
			}
		}
	}
	return false
}

// foldAt reports whether b holds word at i, ASCII letters in any case;
// word is lower-case ASCII.
func foldAt(b []byte, i int, word string) bool {
	if len(b)-i < len(word) {
		return false
	}
	for k := 0; k < len(word); k++ {
		c := b[i+k]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != word[k] {
			return false
		}
	}
	return true
}

// spellsURLOtherwise reports content in which a style attribute may
// spell url( with a character reference (ur&#108;(, url&lpar;) or a CSS
// escape (u\72l(), which hasActiveWord cannot see: a reference or a
// backslash, and the word "style" in any case.
func spellsURLOtherwise(b []byte) bool {
	if !bytes.Contains(b, []byte("&#")) && !bytes.Contains(b, []byte("&lpar")) && bytes.IndexByte(b, '\\') < 0 {
		return false
	}
	for i, c := range b {
		if c|0x20 == 's' && foldAt(b, i, "style") {
			return true
		}
	}
	return false
}
