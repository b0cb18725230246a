package export

import "github.com/docsadmin/terraform-provider-docsadmin/internal/export/source"

// Dir is a docs source on disk, every read confined to it (source.Dir):
// servers pass Dir, never os.DirFS, as Request.Source.
type Dir = source.Dir

// Limits bound what one export reads from its source (source.Limits).
type Limits = source.Limits

// DefaultLimits are the limits of an Engine built without its own. It is
// a copy of source.DefaultLimits, the values Limits.WithDefaults fills in.
var DefaultLimits = source.DefaultLimits
