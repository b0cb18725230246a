package export

import (
	"io/fs"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/source"
)

// loadConfig reads docs.json for a request-time check: confined to src and
// bounded, with $ref resolved, but without counting against an export.
func loadConfig(src fs.FS, lim Limits, warn func(string, ...any)) (*docsjson.Config, error) {
	return docsjson.Decode(func(name string) ([]byte, error) {
		return source.ReadLimited(src, name, "the configuration file", lim.MaxPageBytes)
	}, warn)
}
