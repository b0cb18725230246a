// Package redact masks credentials in URLs before they reach a log line, an
// error message or a Terraform diagnostic. Presigned bundle links carry
// their signature in the query, and any URL a server or a library quotes
// might be such a link or hold a user:password, so every URL the project
// logs goes through this package. It uses only the standard library.
//
// A redacted URL keeps what is needed to tell links apart when debugging
// (scheme, host and path) and replaces every part that can hold a secret
// with Marker:
//
//	https://u:p@host/path?X-Amz-Signature=abc#frag
//	https://REDACTED@host/path?REDACTED#REDACTED
//
// The result is itself a valid URL, and redacting it again changes nothing.
// Text that looks like a URL but does not parse, or has no host, keeps only
// its scheme: "https://REDACTED". Only URLs written with "scheme://" are
// recognised in free text.
package redact

import (
	"net/url"
	"regexp"
	"strings"
)

// Marker replaces user info, a query, a fragment, an unparsable URL and any
// extra secret given to Text. It is a bare word so that a redacted URL is
// still a valid URL.
const Marker = "REDACTED"

// urlPattern finds URLs in free text such as log lines and error messages.
// A URL ends at whitespace, a quote, an angle bracket or a backtick: the
// characters that delimit URLs in Go's %q, JSON, HTML and Markdown.
// Anything else up to there counts as part of the URL, so that trailing
// punctuation errs on the side of being masked with the query.
var urlPattern = regexp.MustCompile(`[a-zA-Z][a-zA-Z0-9+.-]*://[^\s"'<>` + "`" + `]+`)

// URL returns a form of raw that is safe to log: scheme, host and path,
// with user info, query and fragment replaced by Marker. A value that is
// not an absolute URL with a host is masked entirely (keeping a scheme if
// it has one), since it cannot be told apart from a secret.
func URL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" || u.Opaque != "" {
		if scheme, _, ok := strings.Cut(raw, "://"); ok && validScheme(scheme) {
			// Lower case, as url.Parse gives it, so that redacting
			// twice changes nothing.
			return strings.ToLower(scheme) + "://" + Marker
		}
		return Marker
	}
	hasQuery := u.RawQuery != "" || u.ForceQuery
	hasFragment := u.Fragment != "" || u.RawFragment != ""
	if u.User != nil {
		u.User = url.User(Marker)
	}
	u.RawQuery, u.ForceQuery = "", false
	u.Fragment, u.RawFragment = "", ""
	s := u.String()
	if hasQuery {
		s += "?" + Marker
	}
	if hasFragment {
		s += "#" + Marker
	}
	return s
}

// Text redacts every URL in s as URL does, then replaces each non-empty
// secret (an API key, say) with Marker. URLs go first, so a secret that
// also appears inside a query is gone either way.
func Text(s string, secrets ...string) string {
	s = urlPattern.ReplaceAllStringFunc(s, URL)
	for _, sec := range secrets {
		if sec != "" {
			s = strings.ReplaceAll(s, sec, Marker)
		}
	}
	return s
}

// Error wraps err so that its message is redacted with Text while
// errors.Is and errors.As still see the original chain. Helm and net/http
// quote URLs in their errors, and those errors end up in diagnostics.
// A nil err stays nil.
func Error(err error) error {
	if err == nil {
		return nil
	}
	return redactedError{err}
}

type redactedError struct{ err error }

func (e redactedError) Error() string { return Text(e.err.Error()) }
func (e redactedError) Unwrap() error { return e.err }

// validScheme reports whether s is an RFC 3986 scheme, so that a masked
// value never keeps more than a scheme-shaped prefix.
func validScheme(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return true
}
