package site

import (
	"slices"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
)

// SplitEndpointRef parses "[file] METHOD /path" and "[file] webhook name".
func SplitEndpointRef(s string) (file, ref string, ok bool) {
	f := strings.Fields(s)
	if len(f) < 2 {
		return "", "", false
	}
	m, target := f[len(f)-2], f[len(f)-1]
	isWebhook := strings.EqualFold(m, "webhook")
	if !isWebhook && (!slices.Contains(openapi.HTTPMethods, strings.ToLower(m)) || !strings.HasPrefix(target, "/")) {
		return "", "", false
	}
	return strings.Join(f[:len(f)-2], " "), m + " " + target, true
}

// IsEndpointEntry tells a navigation entry naming an operation from a page path.
func IsEndpointEntry(s string) bool {
	_, _, ok := SplitEndpointRef(s)
	return ok && strings.Contains(s, " ")
}

// Endpoints makes the pages of the navigation's "openapi" entries: the
// facade's generator of endpoint pages, which knows the specs. Load
// reads the specs of ref, reporting one that does not parse; All lists
// a page per operation of ref; One finds the page of an entry such as
// "POST /users".
type Endpoints interface {
	Load(ref docsjson.OpenAPIRef) []*openapi.Spec
	All(ref docsjson.OpenAPIRef) []*Item
	One(ref docsjson.OpenAPIRef, entry string) (key string, ok bool)
}
