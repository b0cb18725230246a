package markup

import (
	"strings"
	"unicode"
)

// Slug makes an ASCII id from a label (field and section ids): letters
// and digits kept, each run of anything else one hyphen.
func Slug(s string) string {
	return slug(s, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' })
}

// TextSlug is Slug that keeps the letters and digits of every script
// (with their combining marks), as the platform's heading ids do:
// "始める", "café-au-lait", "chat-agent" for "chat.agent()".
func TextSlug(s string) string {
	return slug(s, func(r rune) bool {
		return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r)
	})
}

// slug lower-cases s, keeps the runes keep accepts and turns every run of
// the others into one hyphen, with none at either end.
func slug(s string, keep func(rune) bool) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case keep(r):
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}
