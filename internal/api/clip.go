package api

import "unicode/utf8"

// MaxEcho is the most of a client's input, in bytes, that an error message
// repeats.
const MaxEcho = 200

// Clip returns s, or when it is longer than MaxEcho bytes its first
// MaxEcho bytes (cut at a character boundary) followed by "…". Every error
// that repeats what a client sent goes through it, so a megabyte of bad
// input is answered with a short message, not echoed back whole.
func Clip(s string) string {
	if len(s) <= MaxEcho {
		return s
	}
	cut := MaxEcho
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
