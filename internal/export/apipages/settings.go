package apipages

import (
	"slices"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/samples"
)

// sampleOrder returns the generated sample languages in the order
// docs.json lists them (curl, Python, JavaScript when it lists none) and
// the listed languages the export has no generator for.
func sampleOrder(a *docsjson.Settings) (langs, unknown []string) {
	if len(a.Examples.Languages) == 0 {
		return samples.Default, nil
	}
	for _, l := range a.Examples.Languages {
		k, ok := samples.Lookup(l)
		switch {
		case !ok:
			unknown = append(unknown, l)
		case !slices.Contains(langs, k):
			langs = append(langs, k)
		}
	}
	return langs, unknown
}

// playgroundModes are the display modes of the platform's playground.
var playgroundModes = map[string]bool{"interactive": true, "simple": true, "none": true, "auth": true}
