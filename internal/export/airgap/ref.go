package airgap

import (
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// This file is the one reading of a reference as a browser reads it from
// a page of the bundle: every check of whether a meta refresh, a load
// or a path stays in the bundle goes through Outside (and RefreshTarget
// for a refresh), so that a spelling one of them misses cannot be the
// way out. Attribute values reach here with HTML entities already
// decoded by the tokeniser, as the browser decodes them.

// RefreshTarget reads the content of a <meta http-equiv="refresh"> as
// the HTML standard's shared declarative refresh steps do: a delay
// (digits, then digits and dots), then ';', ',' or white space, then an
// optional "url" (any case) with '=', then an optional quote. It returns
// the address the page moves to, "" when it reloads itself, and ok false
// when a browser ignores the content (no refresh happens at all).
func RefreshTarget(content string) (target string, ok bool) {
	s := skipSpace(content)
	digits := len(s) - len(strings.TrimLeft(s, "0123456789"))
	if digits == 0 && !strings.HasPrefix(s, ".") {
		return "", false
	}
	s = strings.TrimLeft(s, "0123456789.")
	if s == "" {
		return "", true
	}
	if c := s[0]; c != ';' && c != ',' && !isSpace(c) {
		return "", false
	}
	s = skipSpace(s)
	if s != "" && (s[0] == ';' || s[0] == ',') {
		s = s[1:]
	}
	s = skipSpace(s)
	if s == "" {
		return "", true
	}
	// "url" and "=" are optional; without the '=' the address is the whole
	// rest, "url" included ("urlmap.html" is a page).
	rest := s
	if len(s) >= 3 && strings.EqualFold(s[:3], "url") {
		if t := skipSpace(s[3:]); strings.HasPrefix(t, "=") {
			rest = skipSpace(t[1:])
		} else {
			return s, true
		}
	}
	if rest != "" && (rest[0] == '"' || rest[0] == '\'') {
		q := rest[0]
		rest = rest[1:]
		if end := strings.IndexByte(rest, q); end >= 0 {
			rest = rest[:end]
		}
	}
	return rest, true
}

// isSpace is ASCII white space as HTML defines it.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

func skipSpace(s string) string {
	for s != "" && isSpace(s[0]) {
		s = s[1:]
	}
	return s
}

// Outside reports whether ref, written in a page or stylesheet that
// prefix leads from to the bundle root ("", "../", ...), names anything
// outside the bundle's directory when the bundle is opened from file://:
// remote (any scheme but data:, or protocol-relative), root-relative
// (the root of the reader's disk), a Windows drive ("C|/x"), or a
// relative path that climbs above the bundle root. The path is read as a
// browser reads it for file: and http URLs: backslashes are slashes,
// "%2e" is a dot in any case, tabs and newlines vanish; a percent-encoded
// slash or backslash counts as one too, which may refuse a name a browser
// would keep but never keeps a way out.
func Outside(ref, prefix string) bool {
	ref = markup.BrowserRef(ref)
	if sch := markup.Scheme(ref); sch != "" {
		return sch != "data"
	}
	if i := strings.IndexAny(ref, "?#"); i >= 0 {
		ref = ref[:i]
	}
	ref = strings.ReplaceAll(ref, `\`, "/")
	if strings.Contains(ref, "%") {
		ref = encodedSeparators.Replace(ref)
	}
	if strings.HasPrefix(ref, "/") || driveLetter(ref) {
		return true // "//host", "/etc", "\\host", "%2fetc", "C|/Windows"
	}
	return climbs(ref, strings.Count(prefix, "../"))
}

// driveLetter reports a path that starts with a Windows drive letter in
// the form the URL standard turns into one ("C|"; "C:" is a scheme): a
// file: URL resolves it to the root of that drive.
func driveLetter(p string) bool {
	if len(p) < 2 || p[1] != '|' {
		return false
	}
	c := p[0] | 0x20
	return 'a' <= c && c <= 'z' && (len(p) == 2 || strings.ContainsRune("/?#", rune(p[2])))
}

// climbs reports whether the relative path p (slash-separated, without
// query or fragment), resolved from a directory
// depth levels below the bundle root, leaves it at any point: a later
// descent back in ("../bundle/x") is not trusted, since the name of the
// bundle's directory is the reader's.
func climbs(p string, depth int) bool {
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		switch dots(seg) {
		case 2:
			if depth--; depth < 0 {
				return true
			}
		case 1:
		default:
			if i < len(segs)-1 { // the last segment names a file, not a directory
				depth++
			}
		}
	}
	return false
}

// encodedSeparators are a slash or backslash percent-encoded; a path
// is read as if they were slashes.
var encodedSeparators = strings.NewReplacer("%2f", "/", "%2F", "/", "%5c", "/", "%5C", "/")

// dots is 1 for a single-dot path segment, 2 for a double-dot one, as
// the URL standard reads them ("%2e" in any case is a dot), else 0.
func dots(seg string) int {
	if len(seg) > 6 || !strings.ContainsAny(seg, ".%") {
		return 0
	}
	switch strings.ToLower(seg) {
	case ".", "%2e":
		return 1
	case "..", ".%2e", "%2e.", "%2e%2e":
		return 2
	}
	return 0
}
