package export

import (
	"context"
	"io/fs"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/source"
)

// CheckConfig loads docs.json and the files its $ref name as an export
// would (confined to src, within the engine's limits, until ctx ends) and
// returns the error the export would fail with. Its cost follows the
// source: it is for work off the request path, such as the build of a
// documentation update.
func (e *Engine) CheckConfig(ctx context.Context, src fs.FS) error {
	src, closeSrc, err := source.Confine(src)
	if err != nil {
		return err
	}
	defer closeSrc()
	_, err = loadConfig(ctx, source.WithIgnore(src), e.limits, nil)
	return err
}

// loadConfig reads docs.json from a source already confined, with a
// budget of its own.
func loadConfig(ctx context.Context, src fs.FS, lim Limits, warn func(string, ...any)) (*docsjson.Config, error) {
	lim = lim.WithDefaults()
	r := &reader{src: src, limits: lim, budget: &source.Budget{Limits: lim}, warn: warn}
	return r.loadConfig(ctx)
}
