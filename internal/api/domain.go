package api

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// hostnamePattern is a lower-case DNS hostname: dot-separated labels of
// letters, digits and inner hyphens, each at most 63 characters.
var hostnamePattern = regexp.MustCompile(`^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$`)

// CheckDomain applies the rule the real API documents for the `domain` of
// a start-export request: a bare hostname, with no scheme, port, path or
// trailing slash. Case does not matter; the lower-cased form is returned.
// The server answers a failure with 400; the provider reports it at plan
// time, so both say the same thing.
func CheckDomain(d string) (string, error) {
	switch {
	case d == "":
		return "", errors.New(`domain is required, e.g. "docs.example.com"`)
	case strings.Contains(d, "://"):
		return "", fmt.Errorf("domain %q must be a hostname without a scheme", Clip(d))
	case strings.ContainsAny(d, `/\?#`):
		return "", fmt.Errorf("domain %q must be a hostname without a path or trailing slash", Clip(d))
	}
	lower := strings.ToLower(d)
	if len(lower) > 253 || !hostnamePattern.MatchString(lower) {
		return "", fmt.Errorf("domain %q is not a valid hostname", Clip(d))
	}
	return lower, nil
}
