// Package deploy holds what a deployment's configuration says about an
// export before any page is rendered: its hosting kind, the optional
// features that kind allows and the path the site is served under.
//
// It is a leaf with no imports of ours, so that the server's configuration
// (apiconfig) and its control plane check a deployment without linking the
// renderer. It knows nothing of docs sources, pages or HTML.
package deploy

import (
	"fmt"
	"slices"
	"strings"
)

// Kind is how a deployment is hosted; it decides which features a bundle
// may switch on and whether anything in it may reach out to the network.
type Kind string

// The deployment kinds of the platform.
const (
	KindCloud        Kind = "cloud"
	KindClientHosted Kind = "client-hosted"
	KindAirGapped    Kind = "air-gapped"
)

// ParseKind checks a deployment kind read from configuration; the empty
// string is KindCloud.
func ParseKind(s string) (Kind, error) {
	switch k := Kind(s); k {
	case KindCloud, KindClientHosted, KindAirGapped:
		return k, nil
	case "":
		return KindCloud, nil
	}
	return "", fmt.Errorf("unknown deployment kind %q (want cloud, client-hosted or air-gapped)", s)
}

// knownFeatures are the optional features a deployment can switch on.
var knownFeatures = []string{"analytics", "assistant", "playground", "search"}

// CheckKnown rejects a feature name that no deployment can switch on.
func CheckKnown(names []string) error {
	for _, n := range names {
		if !slices.Contains(knownFeatures, n) {
			return fmt.Errorf("unknown feature %q (want one of %s)", n, strings.Join(knownFeatures, ", "))
		}
	}
	return nil
}

// CheckFeatures rejects, when a configuration is loaded, features that a
// deployment of kind k cannot have. The network-reaching features are for
// cloud and client-hosted deployments; an air-gapped one may list only
// "playground", whose requests go to the spec's own servers on demand.
func CheckFeatures(k Kind, names []string) error {
	if err := CheckKnown(names); err != nil {
		return err
	}
	for _, n := range names {
		if k == KindAirGapped && n != "playground" && n != "search" {
			return fmt.Errorf("feature %q reaches the network: an air-gapped deployment may list only playground (search is built in)", n)
		}
	}
	return nil
}

// CleanBasePath checks the path a deployment is served under and returns
// it as "/a/b" (no slash at the end), or "" for the root. It takes "docs",
// "/docs" and "/docs/" alike; it refuses what is not a plain path (a
// scheme, host, query, fragment, dot segments, backslashes).
func CleanBasePath(p string) (string, error) {
	t := strings.Trim(strings.TrimSpace(p), "/")
	if t == "" {
		return "", nil
	}
	bad := strings.ContainsAny(t, "?#\\\"'<>: \t\n%") || strings.Contains(t, "//")
	for _, seg := range strings.Split(t, "/") {
		bad = bad || seg == "." || seg == ".."
	}
	if bad {
		return "", fmt.Errorf("invalid base path %q: want a path such as /docs", p)
	}
	return "/" + t, nil
}
